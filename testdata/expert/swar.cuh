// Four bytes at a time in one 32-bit register (SWAR), for the expert
// builds: bit 7 of each byte of a mask says "this byte". Plain integer
// operations, so that the host checks them against the scalar code
// (expert_check.cpp).
#pragma once
#include <stdint.h>

#ifndef __CUDACC__
#define __host__
#define __device__
#endif

// Bit 7 set in the bytes of w equal to those of pattern.
__host__ __device__ inline uint32_t sl1x_eq4(uint32_t w, uint32_t pattern) {
  uint32_t x = w ^ pattern;
  // Bit 7 of a byte of (x & 0x7f..) + 0x7f.. is set when its low 7 bits
  // are not all zero (no carry leaves the byte); or'd with x's own bit 7.
  uint32_t nonzero = ((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x;
  return ~nonzero & 0x80808080u;
}

// upper's byte rule, 'a'..'z' -> 'A'..'Z', on four bytes.
__host__ __device__ inline uint32_t sl1x_upper4(uint32_t w) {
  uint32_t low7 = w & 0x7f7f7f7fu;
  uint32_t from_a = low7 + 0x1f1f1f1fu; // bit 7: low7 >= 'a'
  uint32_t past_z = low7 + 0x05050505u; // bit 7: low7 >  'z'
  uint32_t lower = from_a & ~past_z & ~w & 0x80808080u;
  return w - (lower >> 2);
}

// wc's space rule (' ', '\n', '\t') on four bytes.
__host__ __device__ inline uint32_t sl1x_spaces4(uint32_t w) {
  return sl1x_eq4(w, 0x20202020u) | sl1x_eq4(w, 0x0a0a0a0au) | sl1x_eq4(w, 0x09090909u);
}

// Words that start in w (a non-space byte after a space; the byte before
// w's first is a space when prev_space), and whether w's last byte is one.
__host__ __device__ inline uint32_t sl1x_word_starts4(uint32_t w, bool *prev_space) {
  uint32_t spaces = sl1x_spaces4(w);
  uint32_t before = (spaces << 8) | (*prev_space ? 0x80u : 0u);
  *prev_space = (spaces >> 31) != 0;
  uint32_t starts = before & ~spaces & 0x80808080u;
#ifdef __CUDA_ARCH__
  return __popc(starts);
#else
  return __builtin_popcount(starts);
#endif
}

__host__ __device__ inline uint32_t sl1x_newlines4(uint32_t w) {
  uint32_t nl = sl1x_eq4(w, 0x0a0a0a0au);
#ifdef __CUDA_ARCH__
  return __popc(nl);
#else
  return __builtin_popcount(nl);
#endif
}

#ifdef __CUDACC__
// A streaming 16-byte store (st.global.cs: written once, not kept), which
// nvcc has as __stcs and clang's headers lack.
__device__ inline void sl1x_store_streaming(uint4 *p, uint4 v) {
  asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w)
               : "memory");
}
#endif
