// How much of `upper`'s memory floor thread-private 128 B lines can reach
// when more of each thread's lines are in flight. Each thread walks its own
// contiguous chunk (as upper.cu does); the variants differ only in how the
// lines come in:
//   direct<D>: each thread loads its own lines 16 B at a time, D lines ahead,
//              into registers (no shared memory);
//   async<D>:  the warp fills its threads' lines in shared memory with
//              cp.async (lane l copies 16 B piece l % 8 of line l / 8 of the
//              warp's, so each request covers whole lines), D lines ahead,
//              each thread converts its own line (16 B shared accesses; lines
//              144 B apart, conflict-free), and the warp writes the output
//              lines back the same way.
// Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -std=c++17 stream_depth.cu -o probe && ./probe
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e = (x);                                                           \
    if (e != cudaSuccess) {                                                        \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

constexpr int LINE = 128;
constexpr int PIECES = LINE / 16;
constexpr int PITCH = LINE + 16;

__device__ __forceinline__ unsigned upper4(unsigned w) {
  // Per byte: 'a'..'z' -> minus 32.
  unsigned r = 0;
#pragma unroll
  for (int b = 0; b < 4; ++b) {
    unsigned c = (w >> (8 * b)) & 0xff;
    c = (c >= 'a' && c <= 'z') ? c - 32 : c;
    r |= c << (8 * b);
  }
  return r;
}

__device__ __forceinline__ uint4 upper16(uint4 v) {
  return make_uint4(upper4(v.x), upper4(v.y), upper4(v.z), upper4(v.w));
}

// Plain: one byte at a time, as upper.cu is written.
__global__ void plain(const char *__restrict__ in, char *__restrict__ out, size_t n, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t begin = tid * chunk, end = min(begin + chunk, n);
  for (size_t i = begin; i < end; ++i) {
    char c = in[i];
    out[i] = (c >= 'a' && c <= 'z') ? c - 32 : c;
  }
}

template <int D>
__global__ void direct(const char *__restrict__ in, char *__restrict__ out, size_t n, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t begin = tid * chunk, end = min(begin + chunk, n);
  if (begin >= end) return;
  long lines = (long)((end - begin) / LINE);
  const uint4 *src = reinterpret_cast<const uint4 *>(in + begin);
  uint4 *dst = reinterpret_cast<uint4 *>(out + begin);
  uint4 buf[D][PIECES];
#pragma unroll
  for (int s = 0; s < D; ++s)
    if (s < lines)
#pragma unroll
      for (int p = 0; p < PIECES; ++p) buf[s][p] = __ldg(src + s * PIECES + p);
  for (long k = 0; k < lines; k += D) {
#pragma unroll
    for (int s = 0; s < D; ++s) {
      long line = k + s;
      if (line < lines) {
        uint4 cur[PIECES];
#pragma unroll
        for (int p = 0; p < PIECES; ++p) cur[p] = buf[s][p];
        if (line + D < lines)
#pragma unroll
          for (int p = 0; p < PIECES; ++p) buf[s][p] = __ldg(src + (line + D) * PIECES + p);
#pragma unroll
        for (int p = 0; p < PIECES; ++p) dst[line * PIECES + p] = upper16(cur[p]);
      }
    }
  }
}

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem, bool valid) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  int size = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(size));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

template <int D>
__global__ void async_lines(const char *__restrict__ in, char *__restrict__ out, size_t n, size_t chunk) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int threads = blockDim.x;
  // Stage s of thread t: smem + (s * threads + t) * PITCH; output line after the stages.
  unsigned char *out_lines = smem + (size_t)D * threads * PITCH;
  size_t warp_first = ((size_t)blockIdx.x * blockDim.x + warp * 32);
  auto lines_of = [&](int owner) -> long {
    size_t b = (warp_first + owner) * chunk;
    if (b >= n) return 0;
    size_t e = min(b + chunk, n);
    return (long)((e - b) / LINE);
  };
  long mine = lines_of(lane);
  long most = mine;
#pragma unroll
  for (int o = 16; o; o >>= 1) most = max(most, __shfl_xor_sync(0xffffffffu, most, o));
  const int piece = lane % PIECES;
  auto issue = [&](long k) {
    int s = (int)(k % D);
#pragma unroll
    for (int j = 0; j < 32 / (32 / PIECES); ++j) {
      int owner = j * (32 / PIECES) + lane / PIECES;
      size_t b = (warp_first + owner) * chunk;
      bool valid = k < most && b < n && k < lines_of(owner);
      const char *g = in + (valid ? b + (size_t)k * LINE + piece * 16 : 0);
      unsigned char *sm = smem + ((size_t)s * threads + warp * 32 + owner) * PITCH + piece * 16;
      cp_async16(sm, g, valid);
    }
    cp_commit();
  };
#pragma unroll
  for (int s = 0; s < D; ++s) issue(s);
  for (long k = 0; k < most; ++k) {
    cp_wait<D - 1>();
    __syncwarp();
    int s = (int)(k % D);
    const uint4 *line = reinterpret_cast<const uint4 *>(smem + ((size_t)s * threads + threadIdx.x) * PITCH);
    uint4 *o = reinterpret_cast<uint4 *>(out_lines + (size_t)threadIdx.x * PITCH);
    if (k < mine)
#pragma unroll
      for (int p = 0; p < PIECES; ++p) o[p] = upper16(line[p]);
    __syncwarp();
#pragma unroll
    for (int j = 0; j < 32 / (32 / PIECES); ++j) {
      int owner = j * (32 / PIECES) + lane / PIECES;
      size_t b = (warp_first + owner) * chunk;
      if (b < n && k < lines_of(owner)) {
        uint4 v = *reinterpret_cast<const uint4 *>(out_lines + ((size_t)warp * 32 + owner) * PITCH + piece * 16);
        *reinterpret_cast<uint4 *>(out + b + (size_t)k * LINE + piece * 16) = v;
      }
    }
    __syncwarp();
    issue(k + D);
  }
  cp_wait<0>();
}

using Kernel = void (*)(const char *, char *, size_t, size_t);

struct Variant {
  const char *name;
  Kernel k;
  int stages;  // shared stages (async), 0: no shared memory
};

int main() {
  const size_t n = size_t(256) << 20;
  std::vector<char> h(n);
  unsigned x = 12345;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    h[i] = (char)(32 + (x >> 16) % 95);
  }
  std::vector<char> ref(n);
  for (size_t i = 0; i < n; ++i) ref[i] = (h[i] >= 'a' && h[i] <= 'z') ? h[i] - 32 : h[i];
  char *din, *dout, *dcopy;
  CHECK(cudaMalloc(&din, n));
  CHECK(cudaMalloc(&dout, n));
  CHECK(cudaMalloc(&dcopy, n));
  CHECK(cudaMemcpy(din, h.data(), n, cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  const int reps = 7;
  auto median = [](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  {
    std::vector<float> t;
    for (int r = 0; r < reps + 2; ++r) {
      CHECK(cudaEventRecord(a));
      CHECK(cudaMemcpyAsync(dcopy, din, n, cudaMemcpyDeviceToDevice));
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, a, b));
      if (r >= 2) t.push_back(ms);
    }
    printf("copy of 256 MiB: %.3f ms (floor of upper: in read + out written)\n", median(t));
  }
  Variant variants[] = {
      {"plain", plain, 0},
      {"direct1", direct<1>, 0},
      {"direct2", direct<2>, 0},
      {"direct3", direct<3>, 0},
      {"async1", async_lines<1>, 1},
      {"async2", async_lines<2>, 2},
      {"async3", async_lines<3>, 3},
      {"async4", async_lines<4>, 4},
  };
  int blocks_list[] = {132, 264, 528, 1056, 2112};
  int threads_list[] = {128, 256, 512};
  std::vector<char> got(n);
  printf("%-8s %7s %7s %9s %s\n", "variant", "blocks", "threads", "ms", "check");
  for (auto &v : variants) {
    float best = 1e9;
    int bb = 0, bt = 0;
    for (int threads : threads_list) {
      int bytes = v.stages ? (v.stages + 1) * threads * PITCH : 0;
      if (bytes > 227 * 1024) continue;
      if (bytes > 48 * 1024)
        CHECK(cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
      for (int blocks : blocks_list) {
        size_t total = (size_t)blocks * threads;
        size_t chunk = ((n + total - 1) / total + LINE - 1) / LINE * LINE;
        CHECK(cudaMemset(dout, 0, n));
        std::vector<float> t;
        for (int r = 0; r < reps + 1; ++r) {
          CHECK(cudaEventRecord(a));
          v.k<<<blocks, threads, bytes>>>(din, dout, n, chunk);
          CHECK(cudaGetLastError());
          CHECK(cudaEventRecord(b));
          CHECK(cudaEventSynchronize(b));
          float ms;
          CHECK(cudaEventElapsedTime(&ms, a, b));
          if (r >= 1) t.push_back(ms);
        }
        CHECK(cudaMemcpy(got.data(), dout, n, cudaMemcpyDeviceToHost));
        bool ok = memcmp(got.data(), ref.data(), n) == 0;
        float m = median(t);
        printf("%-8s %7d %7d %9.3f %s\n", v.name, blocks, threads, m, ok ? "OK" : "WRONG");
        if (ok && m < best) best = m, bb = blocks, bt = threads;
      }
    }
    printf("BEST %-8s %.3f ms at %dx%d\n", v.name, best, bb, bt);
  }
  return 0;
}
