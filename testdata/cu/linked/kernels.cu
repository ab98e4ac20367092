// Device code of a program linked from several sources: a kernel and the
// host function that launches it, called from main.cpp.
#include <cuda_runtime.h>

#include "scale.h"

__global__ void scale(const float *__restrict__ in, float *__restrict__ out, long n, long chunk) {
  long first = (blockIdx.x * (long)blockDim.x + threadIdx.x) * chunk;
  for (long i = first; i < first + chunk && i < n; ++i)
    out[i] = 2.0f * in[i] + 1.0f;
}

int scale_on_gpu(const float *in, float *out, long n) {
  float *d_in, *d_out;
  if (cudaMalloc(&d_in, n * sizeof(float)) != cudaSuccess) return 1;
  if (cudaMalloc(&d_out, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice);
  const long chunk = 64;
  const long threads = (n + chunk - 1) / chunk;
  scale<<<(threads + 127) / 128, 128>>>(d_in, d_out, n, chunk);
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return cudaGetLastError() != cudaSuccess;
}
