// vec16 (16-byte vector elements): int4 in, int4 out, one 16-byte load and
// store per element, each thread a contiguous chunk of elements.
extern "C" __global__ void vec16(const int4 *__restrict__ in, int4 *__restrict__ out,
                                 unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i) {
    int4 v = in[i];
    out[i] = make_int4(v.x + v.y, v.y - v.z, v.z * 3, v.w ^ v.x);
  }
}
