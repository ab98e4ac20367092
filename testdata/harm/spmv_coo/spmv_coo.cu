// spmv_coo (COO SpMV, an entry per thread, atomics): y = A x for a sparse A
// as (row, column, value) triples sorted by row, dealt out grid-stride;
// each adds its product to y[row] atomically (y starts at zero), so the
// lanes of a warp often add to the same row.
extern "C" __global__ void spmv_coo(const unsigned int *__restrict__ row_of,
                                    const unsigned int *__restrict__ cols,
                                    const int *__restrict__ vals, const int *__restrict__ x,
                                    int *__restrict__ y, unsigned long long entries) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = tid; i < entries; i += threads)
    atomicAdd(&y[row_of[i]], vals[i] * x[cols[i]]);
}
