// stencil3 (1-D stencil): out[i] = in[i-1] + 2 in[i] + in[i+1] (zero past
// either end), each thread a contiguous chunk; every input element is read
// three times, by one thread or by two at chunk borders.
extern "C" __global__ void stencil3(const int *__restrict__ in, int *__restrict__ out,
                                    unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i) {
    int left = i > 0 ? in[i - 1] : 0;
    int right = i + 1 < n ? in[i + 1] : 0;
    out[i] = left + 2 * in[i] + right;
  }
}
