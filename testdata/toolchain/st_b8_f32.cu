// The ptxas bug of st_b32_f64.cu with a float (seed 105364): does
// `st.global.b8 [a], r` of a 32-bit register r that a float operation
// wrote store r's low byte, as PTX says of a source wider than the
// instruction type? NVPTX emits this for a float's bits cut to 8 or 16
// bits and stored. 1.75 is 0x3FE00000: its low byte is 00, and converted
// to an integer it is 01. H100, CUDA 13.0.88, 2026-11-26: the first prints
// 01 and the second 0001 (SASS: F2IP.U8.F32.TRUNC, F2I.U16.TRUNC); the
// third, whose register an integer op wrote, prints 00.
//   nvcc -arch=sm_90 -o st st_b8_f32.cu && ./st
#include <cstdio>
__global__ void k(unsigned char *out, float x) {
  asm volatile("{\n\t.reg .b32 r;\n\t"
               "add.rn.f32 r, %1, 0f3FE00000;\n\t"
               "st.global.b8 [%0], r;\n\t"
               "}" :: "l"(out), "f"(x) : "memory");
  asm volatile("{\n\t.reg .b32 r;\n\t"
               "add.rn.f32 r, %1, 0f3FE00000;\n\t"
               "st.global.b16 [%0+2], r;\n\t"
               "}" :: "l"(out), "f"(x) : "memory");
  asm volatile("{\n\t.reg .b32 r;\n\t.reg .b32 s;\n\t"
               "add.rn.f32 r, %1, 0f3FE00000;\n\t"
               "xor.b32 s, r, 0;\n\t"
               "st.global.b8 [%0+4], s;\n\t"
               "}" :: "l"(out), "f"(x) : "memory");
}
int main() {
  unsigned char *d, h[6];
  cudaMalloc(&d, 6);
  cudaMemset(d, 0xff, 6);
  k<<<1, 1>>>(d, 0.0f);
  cudaMemcpy(h, d, 6, cudaMemcpyDeviceToHost);
  printf("add.f32 then st.b8: %02x\nadd.f32 then st.b16: %02x%02x\nxor.b32 then st.b8: %02x\n",
         h[0], h[3], h[2], h[4]);
  return 0;
}
