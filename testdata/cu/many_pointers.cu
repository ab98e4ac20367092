// Fourteen inputs and two outputs without `__restrict__`: the run-time
// alias checks of the device rewrites compare each output's range with
// every input's, and take the kernel from 30 registers (clang's build alone) to
// 72, past the 64 at which a block of 1024 threads launches. No
// `__launch_bounds__`: the driver must keep its blocks of 1024
// (driver/tests/block_sizes.rs).
struct Weights {
  float c[14];
};

extern "C" __global__ void many_pointers(
    const float *in0, const float *in1, const float *in2, const float *in3,
    const float *in4, const float *in5, const float *in6, const float *in7,
    const float *in8, const float *in9, const float *in10, const float *in11,
    const float *in12, const float *in13,
    float *out, float *out2, int m, Weights w) {
  const float *c = w.c;
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < m; ++j) {
    float v =
              in0[row * m + j] * c[0] +
              in1[row * m + j] * c[1] +
              in2[row * m + j] * c[2] +
              in3[row * m + j] * c[3] +
              in4[row * m + j] * c[4] +
              in5[row * m + j] * c[5] +
              in6[row * m + j] * c[6] +
              in7[row * m + j] * c[7] +
              in8[row * m + j] * c[8] +
              in9[row * m + j] * c[9] +
              in10[row * m + j] * c[10] +
              in11[row * m + j] * c[11] +
              in12[row * m + j] * c[12] +
              in13[row * m + j] * c[13];
    out[row * m + j] = v;
    out2[row * m + j] = v * v;
  }
}

// On the GPU (ci/gpu-bundle's patterns): two blocks of 1024 threads, the
// launch checked and every output compared with the CPU's (small integers:
// exact in float). Prints PASS or FAIL last.
#include "sl1_check.h"

int main() {
  const int threads = 1024, blocks = 2, m = 64, rows = threads * blocks;
  const size_t n = size_t(rows) * m;
  std::vector<std::vector<float>> in(14, std::vector<float>(n));
  Weights w;
  for (int k = 0; k < 14; ++k) {
    w.c[k] = float(k + 1);
    for (size_t i = 0; i < n; ++i) in[k][i] = float((i * (k + 3)) % 7);
  }
  float *d[16];
  for (int k = 0; k < 16; ++k) CUDA_CHECK(cudaMalloc(&d[k], n * sizeof(float)));
  for (int k = 0; k < 14; ++k)
    CUDA_CHECK(cudaMemcpy(d[k], in[k].data(), n * sizeof(float), cudaMemcpyHostToDevice));
  many_pointers<<<blocks, threads>>>(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9],
                                     d[10], d[11], d[12], d[13], d[14], d[15], m, w);
  cudaError_t launched = cudaGetLastError();
  if (launched != cudaSuccess) {
    std::printf("blocks of %d threads: %s\nFAIL\n", threads, cudaGetErrorString(launched));
    return 1;
  }
  std::vector<float> out(n), out2(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d[14], n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(out2.data(), d[15], n * sizeof(float), cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    float v = 0;
    for (int k = 0; k < 14; ++k) v += in[k][i] * w.c[k];
    wrong += out[i] != v || out2[i] != v * v;
  }
  std::printf("%zu of %zu outputs wrong\n%s\n", wrong, 2 * n, wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
