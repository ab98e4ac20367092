// halves_u16 (2-byte elements): out[i] = in[i] * 5 + 3 (mod 65536), each
// thread a contiguous chunk.
extern "C" __global__ void halves_u16(const unsigned short *__restrict__ in,
                                      unsigned short *__restrict__ out, unsigned long long n,
                                      unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = (unsigned short)(in[i] * 5 + 3);
}
