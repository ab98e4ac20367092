// inplace_shift (aliasing, in place): dst[i] = src[i] + 1 through two
// pointers into one buffer, dst = buf and src = buf + 1, declared without
// __restrict__ (they alias). Each thread takes one chunk of `chunk` (64)
// ints, the grid as large as the input needs. So that no thread reads an
// element another thread writes, a chunk updates its first chunk - 1
// elements only: the last one, which the chunk's last update reads, stays
// as it was, and so does the buffer's last element (it has no right
// neighbour). Within a chunk, element i is written before i + 1 is read,
// and i + 1 still holds its old value then.
extern "C" __global__ void inplace_shift(int *dst, const int *src, unsigned long long n,
                                         unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  if (begin + 1 >= n)
    return;
  unsigned long long end = begin + chunk - 1 < n - 1 ? begin + chunk - 1 : n - 1;
  for (unsigned long long i = begin; i < end; ++i)
    dst[i] = src[i] + 1;
}
