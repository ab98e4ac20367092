// A kernel with lines in one file, launched from another (launch.cu):
// through its stub (`<<<>>>`), and straight through the CUDA runtime's
// launch functions, whose handle this file's module registers.
#include <cuda_runtime.h>

__global__ void scale(float *__restrict__ out, const float *__restrict__ in,
                      unsigned long long n, unsigned long long chunk) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long begin = t * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = 2.0f * in[i] + out[i];
}
