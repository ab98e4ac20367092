// caesar: shifts the letters of a text by a key, as the Caesar cipher does.
// Each thread encodes its own contiguous run of bytes, reading one byte and
// writing one byte per iteration: the per-thread streams S-L1 serves from
// lines in shared memory.
//
// Usage: caesar [bytes] [key]     prints "OK" when the GPU's text equals the CPU's
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

__host__ __device__ static inline unsigned char shift(unsigned char c, int key) {
  if (c >= 'a' && c <= 'z')
    return 'a' + (c - 'a' + key) % 26;
  if (c >= 'A' && c <= 'Z')
    return 'A' + (c - 'A' + key) % 26;
  return c;
}

__global__ void caesar(const unsigned char *__restrict__ text, unsigned char *__restrict__ coded,
                       size_t bytes, size_t run, int key) {
  size_t thread = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t first = thread * run;
  size_t last = first + run < bytes ? first + run : bytes;
  for (size_t i = first; i < last; ++i)
    coded[i] = shift(text[i], key);
}

static bool check(cudaError_t status, const char *what) {
  if (status != cudaSuccess)
    std::fprintf(stderr, "caesar: %s: %s\n", what, cudaGetErrorString(status));
  return status == cudaSuccess;
}

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (size_t)64 << 20;
  int key = argc > 2 ? std::atoi(argv[2]) % 26 : 3;
  if (key < 0)
    key += 26;
  std::vector<unsigned char> text(bytes), coded(bytes);
  unsigned state = 2463534242u;
  for (size_t i = 0; i < bytes; ++i) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    text[i] = " .,abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[state % 55];
  }

  unsigned char *d_text = nullptr, *d_coded = nullptr;
  if (!check(cudaMalloc(&d_text, bytes), "cudaMalloc") ||
      !check(cudaMalloc(&d_coded, bytes), "cudaMalloc") ||
      !check(cudaMemcpy(d_text, text.data(), bytes, cudaMemcpyHostToDevice), "copy in"))
    return 1;
  // At most 264 blocks of 256 threads, fewer for a short text (nvcc's host
  // min and max, which the S-L1 package gives clang too).
  const unsigned long threads = 256;
  const unsigned long blocks = max(1ul, min(264ul, (bytes + threads - 1) / threads));
  size_t total = blocks * threads;
  caesar<<<blocks, threads>>>(d_text, d_coded, bytes, (bytes + total - 1) / total, key);
  if (!check(cudaGetLastError(), "launch") ||
      !check(cudaMemcpy(coded.data(), d_coded, bytes, cudaMemcpyDeviceToHost), "copy out"))
    return 1;
  cudaFree(d_text);
  cudaFree(d_coded);

  for (size_t i = 0; i < bytes; ++i) {
    if (coded[i] != shift(text[i], key)) {
      std::printf("caesar: byte %zu is %d, expected %d\n", i, coded[i], shift(text[i], key));
      return 1;
    }
  }
  std::printf("caesar: %zu bytes, key %d: OK\n", bytes, key);
  return 0;
}
