// mv_cols_int (a column per thread, the transposed product with int sizes and
// indices, as HeCBench's attention sums its columns; every pointer __restrict__):
// y[c] = sum over r of a[r * ld + c] x[r], the sum kept in a register; the
// warp's lanes read neighbouring columns of a (coalesced) and the same x[r].
extern "C" __global__ void mv_cols_int(const int *__restrict__ a, const int *__restrict__ x,
                                       int *__restrict__ y, int rows, int cols, int ld) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    int sum = 0;
    for (int r = 0; r < rows; r++)
      sum += a[r * ld + c] * x[r];
    y[c] = sum;
  }
}
