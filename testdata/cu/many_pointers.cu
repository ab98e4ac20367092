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
