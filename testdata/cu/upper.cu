// upper: converts text to upper case. Each thread walks its own contiguous chunk
// of the input one byte at a time (the S-L1 paper's streaming pattern).
//
// Usage: upper [bytes] [blocks] [threads-per-block]   one launch, checked
//        upper sweep [bytes]                         timed block/thread sweep, each checked
// Prints a checksum and "OK" when the GPU result equals the CPU reference.
#include "sl1_check.h"
#include <cstdint>
#include <string>
#include <vector>

__global__ void upper(const char *__restrict__ in, char *__restrict__ out, size_t n,
                      size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t begin = tid * chunk;
  size_t end = begin + chunk < n ? begin + chunk : n;
  for (size_t i = begin; i < end; ++i) {
    char c = in[i];
    out[i] = (c >= 'a' && c <= 'z') ? c - ('a' - 'A') : c;
  }
}

static void make_text(std::vector<char> &text) {
  uint32_t state = 12345;
  const char alphabet[] = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ,.!?\n0123456789xyz";
  for (size_t i = 0; i < text.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    text[i] = alphabet[(state >> 24) % (sizeof(alphabet) - 1)];
  }
}

static char to_upper(char c) { return (c >= 'a' && c <= 'z') ? c - ('a' - 'A') : c; }

static int run_sweep(size_t n) {
  std::vector<char> text(n), result(n);
  make_text(text);
  char *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n));
  CUDA_CHECK(cudaMalloc(&d_out, n));
  CUDA_CHECK(cudaMemcpy(d_in, text.data(), n, cudaMemcpyHostToDevice));
  int rc = sweep(
      "upper",
      [&](unsigned b, unsigned t) {
        size_t total = (size_t)b * t;
        upper<<<b, t>>>(d_in, d_out, n, (n + total - 1) / total);
      },
      [&] {
        CUDA_CHECK(cudaMemcpy(result.data(), d_out, n, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < n; ++i)
          if (result[i] != to_upper(text[i]))
            return false;
        return true;
      },
      [&] { CUDA_CHECK(cudaMemset(d_out, 0x5a, n)); });
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return rc;
}

int main(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "sweep")
    return run_sweep(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (512ull << 20) + 37);
  // Default sizes make each thread's chunk a non-multiple of 16 bytes, so
  // neighbouring threads share cache lines.
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (64u << 20) + 37;
  unsigned blocks = argc > 2 ? std::atoi(argv[2]) : 264;
  unsigned threads = argc > 3 ? std::atoi(argv[3]) : 256;
  size_t total = (size_t)blocks * threads;
  size_t chunk = (n + total - 1) / total;

  std::vector<char> text(n);
  make_text(text);

  char *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n));
  CUDA_CHECK(cudaMalloc(&d_out, n));
  CUDA_CHECK(cudaMemcpy(d_in, text.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0x5a, n));
  float ms = time_launch([&] { upper<<<blocks, threads>>>(d_in, d_out, n, chunk); });
  std::vector<char> result(n);
  CUDA_CHECK(cudaMemcpy(result.data(), d_out, n, cudaMemcpyDeviceToHost));

  size_t mismatches = 0;
  uint64_t checksum = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) {
    mismatches += result[i] != to_upper(text[i]);
    checksum = (checksum ^ (unsigned char)result[i]) * 1099511628211ull;
  }
  std::printf("upper: %zu bytes, %u x %u threads, chunk %zu B, %.3f ms, checksum %016llx: %s\n",
              n, blocks, threads, chunk, ms, (unsigned long long)checksum,
              mismatches ? "MISMATCH" : "OK");
  if (mismatches)
    std::printf("upper: %zu bytes differ from the CPU reference\n", mismatches);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return mismatches ? 1 : 0;
}
