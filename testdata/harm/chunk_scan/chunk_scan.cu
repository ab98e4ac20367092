// chunk_scan (per-thread scan): the inclusive prefix sum of each chunk of
// `chunk` ints, restarting at every chunk; chunks dealt out grid-stride (the
// chunk is fixed, so every launch shape gives the same result).
extern "C" __global__ void chunk_scan(const int *__restrict__ in, int *__restrict__ out,
                                      unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long begin = tid * chunk; begin < n; begin += threads * chunk) {
    unsigned long long end = begin + chunk < n ? begin + chunk : n;
    int acc = 0;
    for (unsigned long long i = begin; i < end; ++i) {
      acc += in[i];
      out[i] = acc;
    }
  }
}
