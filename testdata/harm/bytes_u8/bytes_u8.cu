// bytes_u8 (1-byte elements): out[i] = in[i] * 3 + 7 (mod 256), each thread a
// contiguous chunk.
extern "C" __global__ void bytes_u8(const unsigned char *__restrict__ in,
                                    unsigned char *__restrict__ out, unsigned long long n,
                                    unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = (unsigned char)(in[i] * 3 + 7);
}
