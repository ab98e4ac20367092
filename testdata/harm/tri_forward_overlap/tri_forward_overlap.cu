// tri_forward_overlap (a row per thread, no __restrict__, launched with l = d + 1 and rows ld = cols + 1 ints apart, so l[i][j] is d[i][j+1]): the forward elimination of a
// tridiagonal solve, one system per row: d[i][j] -= l[i][j] d[i][j-1] from
// the second column to the last, in place.
extern "C" __global__ void tri_forward_overlap(int *d, const int *l, unsigned long long rows,
                                          unsigned long long cols, unsigned long long ld) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows)
    return;
  for (unsigned long long j = 1; j < cols; ++j)
    d[i * ld + j] -= l[i * ld + j] * d[i * ld + j - 1];
}
