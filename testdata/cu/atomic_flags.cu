// Atomic loads and stores (`__atomic_load_n`, `__atomic_store_n`) in loops
// S-L1 slices.
//
// `relaxed_reads`: a `__restrict__` input the kernel reads only atomically.
// NVPTX reads such an argument with `ld.global.nc`, which has no atomic
// form: clang stopped in instruction selection ("Cannot select") without
// S-L1's workaround (pass/src/nvptx_bugs).
//
// `handoff`: block 0 writes `data` and raises a flag per element with a
// release store; block 1 waits for each flag with an acquire load, then
// reads the element. A line filled before the flag was raised holds stale
// bytes: the flag's load must read memory every time, and the acquire
// must drop the lines cached before it (S-L1 treats it as a fence). Block
// 0 starts after `delay` clock cycles, so that block 1 reads every flag
// down first; waits are bounded, so a stale flag ends as a wrong output,
// not a hang.

extern "C" __global__ void relaxed_reads(const unsigned *__restrict__ in,
                                         unsigned *__restrict__ out, unsigned long long n,
                                         unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk, end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = __atomic_load_n(&in[i], __ATOMIC_RELAXED) * 3u + 1u;
}

#define MISSED 0x80000000u

extern "C" __global__ void handoff(unsigned *__restrict__ flags, unsigned *__restrict__ data,
                                   unsigned *__restrict__ out,
                                   unsigned long long chunk, unsigned long long spins,
                                   long long delay) {
  unsigned long long begin = threadIdx.x * chunk, end = begin + chunk;
  if (blockIdx.x == 0) {
    for (long long start = clock64(); clock64() - start < delay;) {
    }
    for (unsigned long long i = begin; i < end; ++i) {
      data[i] = (unsigned)i * 7u + 1u;
      __atomic_store_n(&flags[i], 1u, __ATOMIC_RELEASE);
    }
  } else {
    // One budget of waits for the thread's whole run.
    for (unsigned long long i = begin; i < end; ++i) {
      unsigned flag;
      while ((flag = __atomic_load_n(&flags[i], __ATOMIC_ACQUIRE)) == 0 && spins > 0)
        --spins;
      out[i] = data[i] + (flag ? 0u : MISSED);
    }
  }
}

// On the GPU (ci/gpu-bundle's patterns): prints PASS or FAIL last.
#include "sl1_check.h"

int main() {
  const unsigned long long threads = 256, chunk = 64, n = threads * chunk;
  const unsigned long long spins = 1ull << 24;
  unsigned *in, *flags, *data, *out;
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&flags, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&data, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
  std::vector<unsigned> host(n);
  for (unsigned long long i = 0; i < n; ++i) host[i] = unsigned(i * 2654435761ull);
  CUDA_CHECK(cudaMemcpy(in, host.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  size_t wrong = 0;
  relaxed_reads<<<2, 128>>>(in, out, n, n / 256);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> got(n);
  CUDA_CHECK(cudaMemcpy(got.data(), out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned long long i = 0; i < n; ++i) wrong += got[i] != host[i] * 3u + 1u;
  std::printf("relaxed_reads: %zu of %llu wrong\n", wrong, n);
  // Two blocks: 132 SMs hold both at once, so the waits end.
  CUDA_CHECK(cudaMemset(flags, 0, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(data, 0, n * sizeof(unsigned)));
  handoff<<<2, threads>>>(flags, data, out, chunk, spins, 20000000ll);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got.data(), out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  size_t missed = 0, stale = 0;
  for (unsigned long long i = 0; i < n; ++i) {
    missed += (got[i] & MISSED) != 0;
    stale += (got[i] & ~MISSED) != unsigned(i) * 7u + 1u;
  }
  std::printf("handoff: %zu flags never seen, %zu stale elements of %llu\n", missed, stale, n);
  wrong += missed + stale;
  std::printf("%s\n", wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
