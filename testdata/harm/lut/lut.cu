// lut (small lookup table): out[i] = table[in[i]] with a 256-entry table of
// ints (an S-box, a colour map), each thread a contiguous chunk of bytes.
extern "C" __global__ void lut(const unsigned char *__restrict__ in,
                               const unsigned int *__restrict__ table,
                               unsigned int *__restrict__ out, unsigned long long n,
                               unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = table[in[i]];
}
