// long_chunks (long per-thread chunks, few threads busy): out[i] = in[i] * 2 + 1
// in chunks of `chunk` (4096) ints, dealt out grid-stride: there are fewer
// chunks than threads in most launches, and each busy thread streams 16 KiB.
extern "C" __global__ void long_chunks(const int *__restrict__ in, int *__restrict__ out,
                                       unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long begin = tid * chunk; begin < n; begin += threads * chunk) {
    unsigned long long end = begin + chunk < n ? begin + chunk : n;
    for (unsigned long long i = begin; i < end; ++i)
      out[i] = in[i] * 2 + 1;
  }
}
