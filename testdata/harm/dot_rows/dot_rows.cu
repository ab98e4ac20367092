// dot_rows (a row per thread, no broadcast vector, arguments without __restrict__): y[i] = the dot
// product of row i of a and row i of b, the partial sum kept in y[i]; both
// matrices are walked a row per thread, rows ld ints apart.
extern "C" __global__ void dot_rows(const int *a, const int *b, int *y,
                                       unsigned long long rows, unsigned long long cols,
                                       unsigned long long ld) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows)
    return;
  y[i] = 0;
  for (unsigned long long j = 0; j < cols; ++j)
    y[i] += a[i * ld + j] * b[i * ld + j];
}
