// histogram (global atomics): counts the bytes of `data` into 256 bins with
// atomicAdd on a global histogram (zeroed before the launch), each thread a
// contiguous chunk. The bins are not __restrict__, as histograms seldom are.
extern "C" __global__ void histogram(const unsigned char *__restrict__ data, unsigned int *hist,
                                     unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    atomicAdd(&hist[data[i]], 1u);
}
