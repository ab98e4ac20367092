#include <stdint.h>
#ifndef RL32
// One 16-byte line held in registers per load site.
struct RL {
  uintptr_t base;
  uint4 d;
  __device__ __forceinline__ RL() : base(~(uintptr_t)0) {}
  __device__ __forceinline__ unsigned word(uintptr_t a) {
    uintptr_t b = a & ~(uintptr_t)15;
    if (b != base) { d = __ldg((const uint4 *)b); base = b; }
    unsigned o = a & 15;
    return o < 8 ? (o < 4 ? d.x : d.y) : (o < 12 ? d.z : d.w);
  }
#else
struct RL {
  uintptr_t base;
  uint4 d, e;
  __device__ __forceinline__ RL() : base(~(uintptr_t)0) {}
  __device__ __forceinline__ unsigned word(uintptr_t a) {
    uintptr_t b = a & ~(uintptr_t)31;
    if (b != base) { d = __ldg((const uint4 *)b); e = __ldg((const uint4 *)b + 1); base = b; }
    unsigned o = a & 31;
    uint4 h = o < 16 ? d : e;
    o &= 15;
    return o < 8 ? (o < 4 ? h.x : h.y) : (o < 12 ? h.z : h.w);
  }
#endif
  __device__ __forceinline__ char c(const char *p) {
    uintptr_t a = (uintptr_t)p;
    return (char)(word(a) >> ((a & 3) * 8));
  }
  __device__ __forceinline__ unsigned u(const void *p) { return word((uintptr_t)p); }
};
