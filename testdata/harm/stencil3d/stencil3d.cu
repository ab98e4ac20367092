// stencil3d (3-D stencil, 2-D launch marching in z): the 7-point Laplacian
// out = 6 c - the six neighbours (zero outside) of a w x h x d row-major
// grid. Threads walk x and y grid-stride (a warp reads a row's neighbouring
// elements) and each marches its column through the d planes.
extern "C" __global__ void stencil3d(const int *__restrict__ in, int *__restrict__ out,
                                     unsigned long long w, unsigned long long h,
                                     unsigned long long d) {
  unsigned long long x0 = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long y0 = (unsigned long long)blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long long sx = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long sy = (unsigned long long)gridDim.y * blockDim.y;
  unsigned long long plane = w * h;
  for (unsigned long long y = y0; y < h; y += sy) {
    for (unsigned long long x = x0; x < w; x += sx) {
      for (unsigned long long z = 0; z < d; ++z) {
        unsigned long long c = z * plane + y * w + x;
        int v = 6 * in[c];
        if (x > 0) v -= in[c - 1];
        if (x + 1 < w) v -= in[c + 1];
        if (y > 0) v -= in[c - w];
        if (y + 1 < h) v -= in[c + w];
        if (z > 0) v -= in[c - plane];
        if (z + 1 < d) v -= in[c + plane];
        out[c] = v;
      }
    }
  }
}
