// sync_in_loop (__syncthreads in the loop, static shared memory): blocks walk
// the input a block-sized tile at a time (grid-stride over tiles, so every
// thread of a block runs the loop, and reaches its barriers, equally often),
// stage the tile in shared memory, and each thread adds its neighbour's
// element from the tile: out[i] = in[i] + in[i ^ 1] (zero past the end).
// Blocks have an even number of threads (at most 1024), so pairs never
// straddle tiles and the result does not depend on the launch.
extern "C" __global__ void sync_in_loop(const int *__restrict__ in, int *__restrict__ out,
                                        unsigned long long n) {
  __shared__ int tile[1024];
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long base = (unsigned long long)blockIdx.x * blockDim.x; base < n;
       base += stride) {
    unsigned long long i = base + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (i < n)
      out[i] = tile[threadIdx.x] + tile[threadIdx.x ^ 1];
    __syncthreads();
  }
}
