// gather (indirect reads): out[i] = in[idx[i]], indices uniformly random,
// each thread a contiguous chunk of i.
extern "C" __global__ void gather(const int *__restrict__ in,
                                  const unsigned int *__restrict__ idx, int *__restrict__ out,
                                  unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = in[idx[i]];
}
