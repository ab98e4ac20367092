// saxpy (restrict, in place): y[i] = a * x[i] + y[i] on floats holding small
// integers (exact), each thread a contiguous chunk; y is the input and the
// output.
extern "C" __global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y,
                                 unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i)
    y[i] = a * x[i] + y[i];
}
