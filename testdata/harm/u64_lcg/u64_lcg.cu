// u64_lcg (8-byte integers): one step of a 64-bit linear congruential
// generator per element, out[i] = in[i] * 6364136223846793005 +
// 1442695040888963407 (mod 2^64), each thread a contiguous chunk.
extern "C" __global__ void u64_lcg(const unsigned long long *__restrict__ in,
                                   unsigned long long *__restrict__ out, unsigned long long n,
                                   unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = in[i] * 6364136223846793005ull + 1442695040888963407ull;
}
