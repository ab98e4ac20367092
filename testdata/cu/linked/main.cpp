// Host code of a program linked from several sources: checks what the
// kernel in kernels.cu computes against the CPU.
#include <cstdio>
#include <vector>

#include "scale.h"

int main() {
  const long n = 1 << 20;
  std::vector<float> in(n), out(n);
  for (long i = 0; i < n; ++i) in[i] = float(i % 1000);
  if (scale_on_gpu(in.data(), out.data(), n)) {
    printf("FAIL: CUDA error\n");
    return 1;
  }
  for (long i = 0; i < n; ++i)
    if (out[i] != 2.0f * in[i] + 1.0f) {
      printf("FAIL at %ld\n", i);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
