// inplace_scale (aliasing, in place): a[i] = a[i] * 3 + b[i], each thread a
// contiguous chunk. a and b are distinct buffers, but neither is declared
// __restrict__: as far as the compiler knows, they may alias.
extern "C" __global__ void inplace_scale(int *a, const int *b, unsigned long long n,
                                         unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    a[i] = a[i] * 3 + b[i];
}
