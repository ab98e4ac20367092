#include "regline.cuh"
// grep (2 data structures; the pattern lives in shared memory, as in the S-L1
// paper): marks the lines that contain the pattern. Each thread handles the
// lines that start in its chunk and writes 1 at the start of each matching line.
extern "C" __global__ void grep(const char *__restrict__ text, const char *__restrict__ pattern,
                                unsigned char *__restrict__ match, unsigned long long n,
                                unsigned long long chunk, unsigned int plen) {
  __shared__ char pat[64];
  for (unsigned int k = threadIdx.x; k < plen && k < 64; k += blockDim.x)
    pat[k] = pattern[k];
  __syncthreads();
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  RL L0, L1, L2;
  for (unsigned long long i = begin; i < end; ++i) {
    if (i != 0 && L0.c(text + i - 1) != '\n')
      continue;
    bool found = false;
    for (unsigned long long j = i; j < n && L1.c(text + j) != '\n' && !found; ++j) {
      unsigned int k = 0;
      while (k < plen && j + k < n && L2.c(text + j + k) == pat[k])
        ++k;
      found = k == plen;
    }
    match[i] = found;
  }
}
