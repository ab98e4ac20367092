// rank2_restrict (a row per thread, every pointer __restrict__): the rank-2 update
// a += x y^T + u v^T in place; thread i updates row i, reading its own x[i]
// and u[i] and, with every lane of the warp, the same y[j] and v[j].
extern "C" __global__ void rank2_restrict(int *__restrict__ a, const int *__restrict__ x, const int *__restrict__ y,
                                   const int *__restrict__ u, const int *__restrict__ v, unsigned long long rows,
                                   unsigned long long cols, unsigned long long ld) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows)
    return;
  for (unsigned long long j = 0; j < cols; ++j)
    a[i * ld + j] += x[i] * y[j] + u[i] * v[j];
}
