// stencil2d (2-D stencil, 2-D launch): the 5-point Laplacian
// out = 4 c - up - down - left - right (zero outside) of a w x h row-major
// grid, through a 2-D grid-stride loop: threadIdx.x and blockIdx.x walk the
// columns (a warp reads a row's neighbouring elements), y the rows.
extern "C" __global__ void stencil2d(const int *__restrict__ in, int *__restrict__ out,
                                     unsigned long long w, unsigned long long h) {
  unsigned long long x0 = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long y0 = (unsigned long long)blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long long sx = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long sy = (unsigned long long)gridDim.y * blockDim.y;
  for (unsigned long long y = y0; y < h; y += sy) {
    for (unsigned long long x = x0; x < w; x += sx) {
      unsigned long long c = y * w + x;
      int up = y > 0 ? in[c - w] : 0;
      int down = y + 1 < h ? in[c + w] : 0;
      int left = x > 0 ? in[c - 1] : 0;
      int right = x + 1 < w ? in[c + 1] : 0;
      out[c] = 4 * in[c] - up - down - left - right;
    }
  }
}
