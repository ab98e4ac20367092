// soa (struct of arrays): aos's squared lengths with x, y, z and w in four
// arrays, each thread a contiguous chunk.
extern "C" __global__ void soa(const float *__restrict__ x, const float *__restrict__ y,
                               const float *__restrict__ z, const float *__restrict__ w,
                               float *__restrict__ out, unsigned long long n,
                               unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = x[i] * x[i] + y[i] * y[i] + z[i] * z[i] + w[i] * w[i];
}
