// doubles_f64 (8-byte elements): out[i] = a[i] * 2 + b[i] on doubles that
// hold small integers (exact, fused or not), each thread a contiguous chunk.
extern "C" __global__ void doubles_f64(const double *__restrict__ a,
                                       const double *__restrict__ b, double *__restrict__ out,
                                       unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    out[i] = a[i] * 2.0 + b[i];
}
