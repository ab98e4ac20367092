// rank1_overlap (a row per thread, no __restrict__, launched with y the matrix's last row, which no thread updates): the rank-1 update a += x y^T in
// place; thread i updates row i, reading its own x[i] and, with every lane
// of the warp, the same y[j].
extern "C" __global__ void rank1_overlap(int *a, const int *x, const int *y,
                                   unsigned long long rows, unsigned long long cols,
                                   unsigned long long ld) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows)
    return;
  for (unsigned long long j = 0; j < cols; ++j)
    a[i * ld + j] += x[i] * y[j];
}
