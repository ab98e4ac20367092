// matvec (a row per thread): dense y = A x of ints, rows dealt out
// grid-stride; each thread walks its own row of A (rows apart from its warp's
// neighbours) while the warp shares the reads of x.
extern "C" __global__ void matvec(const int *__restrict__ a, const int *__restrict__ x,
                                  int *__restrict__ y, unsigned long long rows,
                                  unsigned long long cols) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long row = tid; row < rows; row += threads) {
    const int *r = a + row * cols;
    int acc = 0;
    for (unsigned long long k = 0; k < cols; ++k)
      acc += r[k] * x[k];
    y[row] = acc;
  }
}
