// The host half (plain C++ with OpenMP, compiled by the host compiler
// -ccbin names): fills the inputs in parallel, scales them on the GPU
// (scale.cu) and sums the result in parallel.
#include <omp.h>

#include <cstdio>
#include <vector>

bool scale_on_gpu(float *out, const float *in, unsigned long long n);

int main() {
  const long n = 1 << 20;
  std::vector<float> in(n), out(n);
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    in[i] = static_cast<float>(i % 7);
    out[i] = 1.0f;
  }
  if (!scale_on_gpu(out.data(), in.data(), n))
    return 1;
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < n; ++i)
    sum += out[i];
  std::printf("sum %.0f (OpenMP %s)\n", sum, omp_get_max_threads() > 0 ? "on" : "off");
  return 0;
}
