// A float's low byte stored (the shape of fuzz seed 105364): clang alone
// lowers it to `st.global.b8` of the register `add.rn.f32` wrote, which
// ptxas converts instead of cutting (testdata/toolchain/st_b8_f32.cu).
// Builds through the S-L1 plugin keep the float's bits out of the store
// (pass/src/ptxas_bugs/).
extern "C" __global__ void float_bytes(const float *__restrict__ in,
                                       unsigned char *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (unsigned char)__float_as_uint(in[i] + 1.75f);
}
