// spmv_csr (a row per thread, rows of varying length): y = A x for a sparse
// A in CSR form (row_ptr, cols, vals), rows dealt out grid-stride; the
// threads of a warp run rows of different lengths.
extern "C" __global__ void spmv_csr(const unsigned int *__restrict__ row_ptr,
                                    const unsigned int *__restrict__ cols,
                                    const int *__restrict__ vals, const int *__restrict__ x,
                                    int *__restrict__ y, unsigned long long rows) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long row = tid; row < rows; row += threads) {
    int acc = 0;
    for (unsigned int j = row_ptr[row]; j < row_ptr[row + 1]; ++j)
      acc += vals[j] * x[cols[j]];
    y[row] = acc;
  }
}
