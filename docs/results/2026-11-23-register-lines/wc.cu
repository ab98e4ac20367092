#include "regline.cuh"
// wc (1 data structure in the main loop): counts words and lines. Each thread
// scans its own chunk one byte at a time and adds its counts to the totals once.
__device__ inline bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t'; }

extern "C" __global__ void wc(const char *__restrict__ text,
                              unsigned long long *__restrict__ totals, unsigned long long n,
                              unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  unsigned long long words = 0, lines = 0;
  bool prev_space = begin == 0 || begin >= n || is_space(text[begin - 1]);
  RL L0;
  for (unsigned long long i = begin; i < end; ++i) {
    char c = L0.c(text + i);
    bool space = is_space(c);
    words += prev_space && !space;
    lines += c == '\n';
    prev_space = space;
  }
  if (words)
    atomicAdd(&totals[0], words);
  if (lines)
    atomicAdd(&totals[1], lines);
}
