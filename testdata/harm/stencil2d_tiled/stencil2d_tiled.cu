// stencil2d_tiled (2-D stencil through a shared-memory tile with halos,
// barriers in the loop): stencil2d's 5-point Laplacian (zero outside the
// grid), each block staging a 32-wide tile of blockDim.y rows and its
// one-cell halo in shared memory, then reading every neighbour from there;
// blocks walk the grid's tiles grid-stride. Blocks are 32 x (at most 32).
extern "C" __global__ void stencil2d_tiled(const int *__restrict__ in, int *__restrict__ out,
                                           unsigned long long w, unsigned long long h) {
  __shared__ int tile[32 + 2][32 + 2];
  const unsigned tx = threadIdx.x, ty = threadIdx.y, rows = blockDim.y;
  auto at = [&](unsigned long long x, unsigned long long y) {
    return x < w && y < h ? in[y * w + x] : 0;
  };
  for (unsigned long long by = (unsigned long long)blockIdx.y * rows; by < h;
       by += (unsigned long long)gridDim.y * rows) {
    for (unsigned long long bx = (unsigned long long)blockIdx.x * 32; bx < w;
         bx += (unsigned long long)gridDim.x * 32) {
      unsigned long long x = bx + tx, y = by + ty;
      tile[ty + 1][tx + 1] = at(x, y);
      // x - 1 and y - 1 wrap past zero to huge values, which `at` reads as 0.
      if (tx == 0) tile[ty + 1][0] = at(x - 1, y);
      if (tx == 31) tile[ty + 1][33] = at(x + 1, y);
      if (ty == 0) tile[0][tx + 1] = at(x, y - 1);
      if (ty == rows - 1) tile[rows + 1][tx + 1] = at(x, y + 1);
      __syncthreads();
      if (x < w && y < h)
        out[y * w + x] = 4 * tile[ty + 1][tx + 1] - tile[ty][tx + 1] - tile[ty + 2][tx + 1] -
                         tile[ty + 1][tx] - tile[ty + 1][tx + 2];
      __syncthreads();
    }
  }
}
