// mv_rows (a row per thread, arguments without __restrict__): y = A x of ints, one thread per row,
// the partial sum kept in memory (y[i] += ... each step, as code that cannot
// prove y apart from a and x must); each thread walks its own row of a (rows
// lda ints apart) while every lane of the warp reads the same x[j].
extern "C" __global__ void mv_rows(const int *a, const int *x, int *y,
                                      unsigned long long rows, unsigned long long cols,
                                      unsigned long long lda, unsigned long long ldy) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows)
    return;
  y[i * ldy] = 0;
  for (unsigned long long j = 0; j < cols; ++j)
    y[i * ldy] += a[i * lda + j] * x[j];
}
