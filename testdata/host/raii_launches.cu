// Launches written the ordinary way around one kernel with lines: in a
// `main` that owns a `std::vector` and a `std::unique_ptr`, in a lambda, in
// a template, and in a `launch()` wrapper that owns C++ objects itself.
// Where a function has objects to destroy, clang launches through an
// `invoke` (its unwind edge runs the destructors).
#include <cuda_runtime.h>

#include <cstdio>
#include <memory>
#include <vector>

__global__ void scale(float *__restrict__ out, const float *__restrict__ in,
                      unsigned long long n, unsigned long long chunk) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long begin = t * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = 2.0f * in[i] + out[i];
}

template <int Threads> void launch_template(float *out, const float *in, size_t n) {
  scale<<<64, Threads>>>(out, in, n, 64);
}

void launch(float *out, const float *in, size_t n) {
  std::vector<int> owned(4, 1);
  scale<<<64, 128>>>(out, in, n, 64);
  std::printf("%d\n", owned[0]);
}

int main() {
  std::vector<float> host(1 << 20, 1.0f);
  auto copy = std::make_unique<std::vector<float>>(host);
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, host.size() * sizeof(float));
  cudaMalloc(&b, host.size() * sizeof(float));
  cudaMemcpy(a, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, copy->data(), copy->size() * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<64, 256>>>(a, b, host.size(), 64);
  auto again = [&](int threads) { scale<<<64, threads>>>(a, b, host.size(), 64); };
  again(512);
  launch_template<64>(a, b, host.size());
  launch(a, b, host.size());
  cudaMemcpy(host.data(), a, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%f\n", host[0]);
  return 0;
}
