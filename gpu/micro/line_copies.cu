// Line copies of per-thread contiguous chunks, 256 MiB in and out: each thread
// moving its own 32 B lines with 16 B accesses, against lane groups (2, 4, 8
// lanes) that move one thread's line together so that each request covers
// whole sectors (what S-L1's warp copies do), and the coalesced roof.
// Build and run on the GPU machine: nvcc -O3 -arch=sm_90 line_copies.cu -o lc && ./lc
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s\n", cudaGetErrorString(e)); return 1; } } while (0)

// A: each thread moves its own 32 B lines with two 16 B loads and stores.
__global__ void per_thread(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t chunk16) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const uint4 *src = in + t * chunk16;
  uint4 *dst = out + t * chunk16;
  for (size_t k = 0; k < chunk16; k += 2) {
    uint4 a = src[k], b = src[k + 1];
    a.x ^= 0x20202020; b.x ^= 0x20202020;
    dst[k] = a; dst[k + 1] = b;
  }
}
// B: G lanes per line: in each step lane L moves piece (L % G) of the line of
// thread (step * 32/G + L / G); lines of G x 16 B.
template <int G>
__global__ void grouped(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t chunk16) {
  size_t warp0 = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) & ~(size_t)31;
  unsigned lane = threadIdx.x & 31;
  for (size_t k = 0; k < chunk16; k += G) {
    for (int step = 0; step < G; ++step) {
      size_t owner = warp0 + step * (32 / G) + lane / G;
      size_t at = owner * chunk16 + k + lane % G;
      uint4 a = in[at];
      a.x ^= 0x20202020;
      out[at] = a;
    }
  }
}
// C: the coalesced roof: consecutive threads move consecutive 16 B.
__global__ void coalesced(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t n16) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x) {
    uint4 a = in[i]; a.x ^= 0x20202020; out[i] = a;
  }
}
int main() {
  size_t bytes = 256ull << 20, n16 = bytes / 16;
  uint4 *in, *out;
  CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&out, bytes));
  CK(cudaMemset(in, 1, bytes));
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  int blocks[] = {132, 264, 528, 1056}, threads[] = {256, 512, 1024};
  for (int kind = 0; kind < 5; ++kind)
    for (int bi = 0; bi < 4; ++bi)
      for (int ti = 0; ti < 3; ++ti) {
        int B = blocks[bi], T = threads[ti];
        size_t nt = (size_t)B * T, chunk16 = n16 / nt;
        chunk16 &= ~(size_t)3;
        float best = 1e9;
        for (int r = 0; r < 6; ++r) {
          cudaEventRecord(a);
          if (kind == 0) per_thread<<<B, T>>>(in, out, chunk16);
          if (kind == 1) grouped<2><<<B, T>>>(in, out, chunk16);
          if (kind == 2) grouped<4><<<B, T>>>(in, out, chunk16);
          if (kind == 3) grouped<8><<<B, T>>>(in, out, chunk16);
          if (kind == 4) coalesced<<<B, T>>>(in, out, nt * chunk16);
          cudaEventRecord(b); CK(cudaEventSynchronize(b));
          float ms; cudaEventElapsedTime(&ms, a, b);
          if (r && ms < best) best = ms;
        }
        double moved = 2.0 * nt * chunk16 * 16;
        printf("%s %dx%d %.3f ms %.2f TB/s\n", kind == 0 ? "per-thread" : kind == 1 ? "pairs" : kind == 2 ? "quads" : kind == 3 ? "octets" : "coalesced", B, T, best, moved / best / 1e9);
      }
  return 0;
}
