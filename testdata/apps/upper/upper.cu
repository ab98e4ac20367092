// upper (2 data structures): converts text to upper case. Each thread walks its
// own contiguous chunk one byte at a time, as the S-L1 paper's streaming apps do.
extern "C" __global__ void upper(const char *__restrict__ in, char *__restrict__ out,
                                 unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i) {
    char c = in[i];
    out[i] = (c >= 'a' && c <= 'z') ? c - ('a' - 'A') : c;
  }
}
