// tri_forward (a row per thread, arguments without __restrict__): the forward elimination of a
// tridiagonal solve, one system per row: d[i][j] -= l[i][j] d[i][j-1] from
// the second column to the last, in place.
extern "C" __global__ void tri_forward(int *d, const int *l, unsigned long long rows,
                                          unsigned long long cols, unsigned long long ld) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows)
    return;
  for (unsigned long long j = 1; j < cols; ++j)
    d[i * ld + j] -= l[i * ld + j] * d[i * ld + j - 1];
}
