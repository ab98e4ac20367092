// spmv_ell (ELLPACK SpMV, a row per thread): y = A x for a sparse A stored
// as `width` slots per row, column-major (slot k of row r at k * rows + r,
// so a warp's rows read neighbouring words), short rows padded with zero
// values; rows dealt out grid-stride.
extern "C" __global__ void spmv_ell(const unsigned int *__restrict__ cols,
                                    const int *__restrict__ vals, const int *__restrict__ x,
                                    int *__restrict__ y, unsigned long long rows,
                                    unsigned long long width) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long row = tid; row < rows; row += threads) {
    int acc = 0;
    for (unsigned long long k = 0; k < width; ++k) {
      unsigned long long at = k * rows + row;
      acc += vals[at] * x[cols[at]];
    }
    y[row] = acc;
  }
}
