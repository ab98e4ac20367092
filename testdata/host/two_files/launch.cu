// Launches of `scale` (kernel.cu) made outside its file: `<<<>>>` through
// the other file's stub, `cudaLaunchKernel`, `cudaLaunchKernelEx` and a
// cooperative launch. Each prints nothing itself; the program's output is
// the output array's checksum.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void scale(float *__restrict__ out, const float *__restrict__ in,
                      unsigned long long n, unsigned long long chunk);

int main() {
  const unsigned long long n = 1 << 20, chunk = 64;
  std::vector<float> host(n, 1.0f);
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<128, 128>>>(a, b, n, chunk);
  unsigned long long nn = n, cc = chunk;
  void *args[] = {&a, &b, &nn, &cc};
  cudaLaunchKernel((const void *)scale, dim3(64), dim3(256), args, 0, 0);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(32);
  config.blockDim = dim3(512);
  cudaLaunchKernelEx(&config, scale, a, (const float *)b, n, chunk);
  cudaLaunchCooperativeKernel((const void *)scale, dim3(128), dim3(128), args, 0, 0);
  cudaMemcpy(host.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float v : host)
    sum += v;
  std::printf("%.1f\n", sum);
  return cudaDeviceSynchronize() != cudaSuccess;
}
