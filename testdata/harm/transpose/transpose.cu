// transpose (2-D launch, naive): out (w x h) = the transpose of in (h x w,
// row-major), through a 2-D grid-stride loop: reads along rows (coalesced),
// writes down columns (a warp's stores h elements apart).
extern "C" __global__ void transpose(const int *__restrict__ in, int *__restrict__ out,
                                     unsigned long long w, unsigned long long h) {
  unsigned long long x0 = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long y0 = (unsigned long long)blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long long sx = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long sy = (unsigned long long)gridDim.y * blockDim.y;
  for (unsigned long long y = y0; y < h; y += sy)
    for (unsigned long long x = x0; x < w; x += sx)
      out[x * h + y] = in[y * w + x];
}
