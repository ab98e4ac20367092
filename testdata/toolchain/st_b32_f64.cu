// A ptxas bug that generated kernels ran into (seed 400064): does
// `st.global.b32 [a], r` of a 64-bit register r that holds a double store
// r's low 32 bits, as PTX says of a source wider than the instruction type?
// NVPTX emits exactly this for an under-aligned double store (two halves).
// H100, CUDA 13.0.88, 2026-11-25: the first two print 00000006, the low
// word of 3.0 + 3.0 converted to an integer (SASS: F2I.U32.F64.TRUNC);
// the third, whose register an integer op wrote, prints 00000000.
//   nvcc -arch=sm_90 -o st st_b32_f64.cu && ./st
#include <cstdio>
#include <cstring>
#include <cstdint>
__global__ void k(unsigned *out, double x) {
  asm volatile("{\n\t.reg .b64 r;\n\t.reg .pred p;\n\t"
               "add.rn.f64 r, %1, 0d4008000000000000;\n\t"
               "setp.nan.f64 p, r, r;\n\t"
               "selp.f64 r, 0d7FF8000000000000, r, p;\n\t"
               "st.global.b32 [%0], r;\n\t"
               "}" :: "l"(out), "d"(x) : "memory");
  asm volatile("{\n\t.reg .b64 r;\n\t"
               "add.rn.f64 r, %1, 0d4008000000000000;\n\t"
               "st.global.b32 [%0+4], r;\n\t"
               "}" :: "l"(out), "d"(x) : "memory");
  asm volatile("{\n\t.reg .b64 r;\n\t.reg .b64 s;\n\t"
               "add.rn.f64 r, %1, 0d4008000000000000;\n\t"
               "mov.b64 s, r;\n\t"
               "xor.b64 s, s, 0;\n\t"
               "st.global.b32 [%0+8], s;\n\t"
               "}" :: "l"(out), "d"(x) : "memory");
}
int main() {
  unsigned *d, h[3];
  cudaMalloc(&d, 12);
  cudaMemset(d, 0xff, 12);
  k<<<1, 1>>>(d, 3.0);
  cudaMemcpy(h, d, 12, cudaMemcpyDeviceToHost);
  double six = 6.0; uint64_t bits; memcpy(&bits, &six, 8);
  printf("6.0 = %016llx, low word %08x\n", (unsigned long long)bits, (unsigned)bits);
  printf("selp.f64 then st.b32: %08x\nadd.f64 then st.b32: %08x\nxor.b64 then st.b32: %08x\n", h[0], h[1], h[2]);
  return 0;
}
