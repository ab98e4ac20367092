// col_sums (a column per thread): sums[c] = the sum of column c of a
// row-major rows x cols matrix, columns dealt out grid-stride; each thread
// steps a row (cols ints) at a time while its warp reads neighbouring
// columns (coalesced).
extern "C" __global__ void col_sums(const int *__restrict__ a, int *__restrict__ sums,
                                    unsigned long long rows, unsigned long long cols) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long c = tid; c < cols; c += threads) {
    int acc = 0;
    for (unsigned long long r = 0; r < rows; ++r)
      acc += a[r * cols + c];
    sums[c] = acc;
  }
}
