// mv_cols_restrict (a column per thread, the transposed product, every pointer __restrict__):
// y[c] = sum over r of a[r][c] x[r]; the warp's lanes read neighbouring
// columns of a (coalesced) and the same x[r] (broadcast), the sum kept in y[c].
extern "C" __global__ void mv_cols_restrict(const int *__restrict__ a, const int *__restrict__ x, int *__restrict__ y,
                                      unsigned long long rows, unsigned long long cols,
                                      unsigned long long ld) {
  unsigned long long c = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  y[c] = 0;
  for (unsigned long long r = 0; r < rows; ++r)
    y[c] += a[r * ld + c] * x[r];
}
