// copy_if (stream compaction per chunk): the elements of chunk c (of `chunk`
// ints, dealt out grid-stride) that are multiples of 4 go, in order, to the
// front of the chunk's own region of `out`, and counts[c] says how many; the
// rest of the region is left as it was.
extern "C" __global__ void copy_if(const int *__restrict__ in, int *__restrict__ out,
                                   unsigned int *__restrict__ counts, unsigned long long n,
                                   unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long c = tid; c * chunk < n; c += threads) {
    unsigned long long begin = c * chunk;
    unsigned long long end = begin + chunk < n ? begin + chunk : n;
    unsigned long long kept = begin;
    for (unsigned long long i = begin; i < end; ++i) {
      int v = in[i];
      if ((v & 3) == 0)
        out[kept++] = v;
    }
    counts[c] = (unsigned int)(kept - begin);
  }
}
