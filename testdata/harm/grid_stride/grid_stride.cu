// grid_stride (grid-stride loop, already coalesced): out[i] = in[i] * 3 - 1,
// consecutive threads on consecutive elements.
extern "C" __global__ void grid_stride(const int *__restrict__ in, int *__restrict__ out,
                                       unsigned long long n) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = in[i] * 3 - 1;
}
