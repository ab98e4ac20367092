// reduce_chunk (per-thread reduction): out[c] = the 64-bit sum of chunk c of
// `chunk` (1024) ints, chunks dealt out grid-stride.
extern "C" __global__ void reduce_chunk(const int *__restrict__ in, long long *__restrict__ out,
                                        unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long c = tid; c * chunk < n; c += threads) {
    unsigned long long begin = c * chunk;
    unsigned long long end = begin + chunk < n ? begin + chunk : n;
    long long acc = 0;
    for (unsigned long long i = begin; i < end; ++i)
      acc += in[i];
    out[c] = acc;
  }
}
