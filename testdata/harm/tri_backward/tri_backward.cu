// tri_backward (a row per thread, arguments without __restrict__): the back substitution of a
// tridiagonal solve, one system per row: d[i][j] -= u[i][j] d[i][j+1] from the
// second-to-last column down to the first, in place.
extern "C" __global__ void tri_backward(int *d, const int *u, unsigned long long rows,
                                           unsigned long long cols, unsigned long long ld) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows || cols < 2)
    return;
  for (unsigned long long j = cols - 1; j-- > 0;)
    d[i * ld + j] -= u[i * ld + j] * d[i * ld + j + 1];
}
