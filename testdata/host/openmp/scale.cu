// The GPU half of a program whose host half is C++ with OpenMP (main.cpp),
// built by another host compiler (sl1-nvcc -ccbin g++ -Xcompiler -fopenmp).
#include <cuda_runtime.h>

__global__ void scale(float *__restrict__ out, const float *__restrict__ in,
                      unsigned long long n, unsigned long long chunk) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long begin = t * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = 2.0f * in[i] + out[i];
}

// out = 2 in + out on the GPU; returns whether CUDA reported no error.
bool scale_on_gpu(float *out, const float *in, unsigned long long n) {
  float *d_out = nullptr, *d_in = nullptr;
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMemcpy(d_out, out, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice);
  const unsigned long long chunk = 64, threads = 256;
  unsigned long long blocks = (n / chunk + threads - 1) / threads;
  scale<<<(unsigned)blocks, (unsigned)threads>>>(d_out, d_in, n, chunk);
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  cudaFree(d_in);
  return cudaDeviceSynchronize() == cudaSuccess;
}
