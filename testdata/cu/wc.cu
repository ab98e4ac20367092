// wc: counts words and lines. Each thread scans its own contiguous chunk one byte
// at a time and writes its counts once at the end (the main loop touches one
// data structure, as in the S-L1 paper).
//
// Usage: wc [bytes] [blocks] [threads-per-block]   one launch, checked
//        wc sweep [bytes]                         timed block/thread sweep, each checked
#include "sl1_check.h"
#include <cstdint>
#include <string>
#include <vector>

__device__ __host__ inline bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t';
}

__global__ void wc(const char *__restrict__ text, unsigned long long *__restrict__ counts,
                   size_t n, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t begin = tid * chunk;
  size_t end = begin + chunk < n ? begin + chunk : n;
  unsigned long long words = 0, lines = 0;
  bool prev_space = begin == 0 || begin >= n || is_space(text[begin - 1]);
  for (size_t i = begin; i < end; ++i) {
    char c = text[i];
    bool space = is_space(c);
    words += prev_space && !space;
    lines += c == '\n';
    prev_space = space;
  }
  counts[2 * tid] = words;
  counts[2 * tid + 1] = lines;
}

static void make_text(std::vector<char> &text) {
  uint32_t state = 777;
  for (size_t i = 0; i < text.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    unsigned r = (state >> 24) % 64;
    text[i] = r < 9 ? ' ' : r == 9 ? '\n' : char('a' + r % 26);
  }
}

static void reference(const std::vector<char> &text, unsigned long long &words,
                      unsigned long long &lines) {
  words = lines = 0;
  bool prev_space = true;
  for (char c : text) {
    bool space = is_space(c);
    words += prev_space && !space;
    lines += c == '\n';
    prev_space = space;
  }
}

static int run_sweep(size_t n) {
  std::vector<char> text(n);
  make_text(text);
  unsigned long long want_words, want_lines;
  reference(text, want_words, want_lines);
  const size_t max_threads = 2112 * 1024;
  char *d_text = nullptr;
  unsigned long long *d_counts = nullptr;
  CUDA_CHECK(cudaMalloc(&d_text, n));
  CUDA_CHECK(cudaMalloc(&d_counts, 2 * max_threads * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemcpy(d_text, text.data(), n, cudaMemcpyHostToDevice));
  size_t total = 0;
  std::vector<unsigned long long> counts(2 * max_threads);
  int rc = sweep(
      "wc",
      [&](unsigned b, unsigned t) {
        total = (size_t)b * t;
        wc<<<b, t>>>(d_text, d_counts, n, (n + total - 1) / total);
      },
      [&] {
        CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, 2 * total * sizeof(counts[0]),
                              cudaMemcpyDeviceToHost));
        unsigned long long words = 0, lines = 0;
        for (size_t t = 0; t < total; ++t) {
          words += counts[2 * t];
          lines += counts[2 * t + 1];
        }
        return words == want_words && lines == want_lines;
      },
      [&] { CUDA_CHECK(cudaMemset(d_counts, 0xff, 2 * max_threads * sizeof(counts[0]))); });
  CUDA_CHECK(cudaFree(d_text));
  CUDA_CHECK(cudaFree(d_counts));
  return rc;
}

int main(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "sweep")
    return run_sweep(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (512ull << 20) + 37);
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (64u << 20) + 37;
  unsigned blocks = argc > 2 ? std::atoi(argv[2]) : 264;
  unsigned threads = argc > 3 ? std::atoi(argv[3]) : 256;
  size_t total = (size_t)blocks * threads;
  size_t chunk = (n + total - 1) / total;

  std::vector<char> text(n);
  make_text(text);

  char *d_text = nullptr;
  unsigned long long *d_counts = nullptr;
  CUDA_CHECK(cudaMalloc(&d_text, n));
  CUDA_CHECK(cudaMalloc(&d_counts, 2 * total * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemcpy(d_text, text.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_counts, 0xff, 2 * total * sizeof(unsigned long long)));
  float ms = time_launch([&] { wc<<<blocks, threads>>>(d_text, d_counts, n, chunk); });
  std::vector<unsigned long long> counts(2 * total);
  CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, counts.size() * sizeof(counts[0]),
                        cudaMemcpyDeviceToHost));

  unsigned long long words = 0, lines = 0, want_words, want_lines;
  for (size_t t = 0; t < total; ++t) {
    words += counts[2 * t];
    lines += counts[2 * t + 1];
  }
  reference(text, want_words, want_lines);
  bool ok = words == want_words && lines == want_lines;
  std::printf("wc: %zu bytes, %u x %u threads, chunk %zu B, %.3f ms, %llu words, %llu lines: %s\n",
              n, blocks, threads, chunk, ms, words, lines, ok ? "OK" : "MISMATCH");
  if (!ok)
    std::printf("wc: CPU reference has %llu words, %llu lines\n", want_words, want_lines);
  CUDA_CHECK(cudaFree(d_text));
  CUDA_CHECK(cudaFree(d_counts));
  return ok ? 0 : 1;
}
