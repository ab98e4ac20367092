// cas_add (atomicCAS loops): the compare-and-swap loop CUDA programs write
// for an atomic the hardware lacks (the programming guide's double
// atomicAdd), here adding each byte's weight into one of 65,536 bins of
// integers picked by the byte and a hash of its index (a scatter-add, little
// contention), so that the sums are exact in any order; each thread a
// contiguous chunk. Its cost is the CAS: nvcc's is relaxed, as CUDA
// defines atomics.
__device__ unsigned int cas_add(unsigned int *address, unsigned int value) {
  unsigned int old = *address, assumed;
  do {
    assumed = old;
    old = atomicCAS(address, assumed, assumed + value);
  } while (assumed != old);
  return old;
}

extern "C" __global__ void cas_add(const unsigned char *__restrict__ data, unsigned int *bins,
                                   unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i) {
    unsigned int spread = ((unsigned int)i * 2654435761u) >> 16;
    cas_add(&bins[(data[i] ^ spread) & 65535u], 1u + (unsigned int)(i & 7));
  }
}
