// Each thread scales its own chunk of a byte stream; checks itself and
// prints PASS or FAIL, as the corpus's programs do.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void scale(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                      unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = (unsigned char)(in[i] * SCALE);
}

int main(int argc, char **argv) {
  unsigned long long n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1 << 20;
  int repeat = argc > 2 ? atoi(argv[2]) : 1;
  std::vector<unsigned char> in(n), out(n);
  for (unsigned long long i = 0; i < n; ++i) in[i] = (unsigned char)(i * 7 + 1);
  unsigned char *d_in, *d_out;
  cudaMalloc(&d_in, n);
  cudaMalloc(&d_out, n);
  cudaMemcpy(d_in, in.data(), n, cudaMemcpyHostToDevice);
  const unsigned long long threads = 256 * 256;
  for (int r = 0; r < repeat; ++r)
    scale<<<256, 256>>>(d_in, d_out, n, (n + threads - 1) / threads);
  cudaMemcpy(out.data(), d_out, n, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (unsigned long long i = 0; i < n; ++i) ok &= out[i] == (unsigned char)(in[i] * SCALE);
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d_in);
  cudaFree(d_out);
  return ok ? 0 : 1;
}
