// Kernels that exercise what the S-L1 transform must keep correct: early exits,
// fences, barriers, atomics on a cached structure, nested loops, mixed and wide
// element types, misaligned (packed) accesses and in-place (aliased) updates.
// Each kernel runs once on chunks that are not multiples of 16 bytes and is
// compared with a CPU reference. Usage: patterns  (prints one line per kernel)
#include "sl1_check.h"
#include <cstdint>
#include <cstring>
#include <vector>

__device__ __host__ inline size_t chunk_begin(size_t tid, size_t chunk) { return tid * chunk; }

// Copies bytes up to and including the first `key` of the chunk, records its position.
__global__ void early_exit(const char *__restrict__ in, char *__restrict__ out,
                           long long *__restrict__ pos, size_t n, size_t chunk, char key) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk < n ? b + chunk : n;
  long long found = -1;
  for (size_t i = b; i < e; ++i) {
    out[i] = in[i];
    if (in[i] == key) {
      found = (long long)i;
      break;
    }
  }
  pos[tid] = found;
}

// Publishes every element with a fence.
__global__ void fenced(const short *__restrict__ in, short *__restrict__ out, size_t n,
                       size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk < n ? b + chunk : n;
  for (size_t i = b; i < e; ++i) {
    out[i] = (short)(in[i] * 3);
    __threadfence();
  }
}

// Every thread runs the same number of steps and meets the block at a barrier
// each step; a neighbour's value written before the barrier is read after it.
// The neighbour's value is read before a second barrier and added after it:
// without that barrier a thread would read it while the neighbour updates it
// (a data race of the program, which the t20-l32 build's timing exposed).
__global__ void barrier(const int *__restrict__ in, int *__restrict__ out, int steps) {
  size_t base = (size_t)blockIdx.x * blockDim.x * steps;
  unsigned t = threadIdx.x, next = (t + 1) % blockDim.x;
  for (int s = 0; s < steps; ++s) {
    out[base + (size_t)s * blockDim.x + t] = in[base + (size_t)s * blockDim.x + t] + 1;
    __syncthreads();
    int neighbour = out[base + (size_t)s * blockDim.x + next];
    __syncthreads();
    out[base + (size_t)s * blockDim.x + t] += neighbour;
  }
}

// As `barrier`, but threads make different numbers of accesses per step (an
// extra load for odd values), so they reach the monitoring threshold at
// different steps: the slices must still be left block-wide.
__global__ void barrier_uneven(const int *__restrict__ in, int *__restrict__ out, int steps) {
  size_t base = (size_t)blockIdx.x * blockDim.x * steps;
  unsigned t = threadIdx.x, next = (t + 1) % blockDim.x;
  for (int s = 0; s < steps; ++s) {
    size_t row = base + (size_t)s * blockDim.x;
    int v = in[row + t];
    if (v & 1)
      v += in[row + next];
    out[row + t] = v;
    __syncthreads();
    int neighbour = out[row + next];
    __syncthreads();
    out[row + t] += neighbour;
  }
}

// Writes each element, then bumps it atomically: the line must be written back
// before the atomic.
// Per-thread rows with a block barrier in every iteration: the strides are
// known, so the decision is static and the same for the whole block (no
// block-wide vote), and every barrier flushes the lines.
__global__ void barrier_static(const char *__restrict__ in, char *__restrict__ out,
                               size_t width) {
  size_t row = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * width;
  for (size_t k = 0; k < width; ++k) {
    out[row + k] = (char)(in[row + k] ^ 0x20);
    __syncthreads();
  }
}

// Uses 40 KiB of static shared memory itself, so S-L1's buffer (8 KiB) holds
// lines for the first warps of a 1024-thread block only: later warps go
// direct (the warp threshold).
__global__ void crowded(const char *__restrict__ in, char *__restrict__ out, size_t width) {
  __shared__ char scratch[1024 * 40];
  char *mine = scratch + threadIdx.x * 40;
  for (int j = 0; j < 40; ++j)
    mine[j] = (char)(threadIdx.x + j);
  size_t row = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * width;
  for (size_t k = 0; k < width; ++k)
    out[row + k] = (char)(in[row + k] + mine[k % 40]);
}

__global__ void atomic_after_store(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                                   size_t n, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk < n ? b + chunk : n;
  for (size_t i = b; i < e; ++i) {
    out[i] = in[i] ^ 0x55u;
    atomicAdd(&out[i], 7u);
  }
}

// Integer matrix product, one row per thread: a loop nest.
__global__ void matmul(const int *__restrict__ a, const int *__restrict__ bm, int *__restrict__ c,
                       int rows, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  for (int j = 0; j < n; ++j) {
    int acc = 0;
    for (int k = 0; k < n; ++k)
      acc += a[row * n + k] * bm[k * n + j];
    c[row * n + j] = acc;
  }
}

// uint4 and short elements in one loop.
__global__ void mixed(const uint4 *__restrict__ v, const short *__restrict__ s,
                      uint4 *__restrict__ out, size_t n, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk < n ? b + chunk : n;
  for (size_t i = b; i < e; ++i) {
    uint4 x = v[i];
    unsigned k = (unsigned)s[i];
    out[i] = make_uint4(x.x + k, x.y ^ k, x.z - k, x.w);
  }
}

// 4-byte values packed at odd offsets (1 + 5i): misaligned loads and stores.
__global__ void packed(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                       size_t count, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk < count ? b + chunk : count;
  for (size_t i = b; i < e; ++i) {
    unsigned v;
    memcpy(&v, in + 1 + 5 * i, 4);
    v = v * 2654435761u;
    memcpy(out + 1 + 5 * i, &v, 4);
  }
}

// In place, without restrict: `in` and `out` are the same buffer.
__global__ void inplace(const char *in, char *out, size_t n, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk < n ? b + chunk : n;
  for (size_t i = b; i < e; ++i) {
    char c = in[i];
    out[i] = (c >= 'a' && c <= 'z') ? c - 32 : c;
  }
}

// `out` is `in + 3`, both without restrict: every store feeds the load three
// iterations later (x[j + 3] = g(x[j])). Each thread owns a region with a gap
// after it, so threads do not race.
__global__ void aliased_shift(const unsigned char *in, unsigned char *out, size_t chunk,
                              size_t stride) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = tid * stride;
  for (size_t i = b; i < b + chunk; ++i)
    out[i] = (unsigned char)(in[i] * 7 + 1);
}

// Two main loops: the second reads what the first wrote (the first's lines must
// be written back on its exit), through the same argument.
__global__ void two_loops(const int *__restrict__ in, int *__restrict__ tmp,
                          long long *__restrict__ sums, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = tid * chunk;
  for (size_t i = b; i < b + chunk; ++i)
    tmp[i] = in[i] * 3 - 1;
  long long acc = 0;
  for (size_t i = b; i < b + chunk; ++i) {
    acc += tmp[i] ^ (int)i;
    tmp[i] += 1; // both loops write: both are sliced
  }
  sums[tid] = acc;
}

// Rows upper-cased by an inner loop: `in` and `out` are accessed there, `lens`
// once a row (cold: left direct beside the cached `out`). The second main loop
// reads `out` and `lens` once a row after an inner loop over `in`: cold there,
// so that loop is left as it is and must see what the first one cached.
__global__ void rows(const char *__restrict__ in, char *__restrict__ out, int *__restrict__ lens,
                     size_t width, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = tid * chunk;
  for (size_t r = b; r < b + chunk; ++r) {
    int spaces = 0;
    for (size_t k = 0; k < width; ++k) {
      char c = in[r * width + k];
      spaces += c == ' ';
      out[r * width + k] = c >= 'a' && c <= 'z' ? c - 32 : c;
    }
    lens[r] = spaces;
  }
  for (size_t r = b; r < b + chunk; ++r) {
    int zs = 0;
    for (size_t k = 0; k < width; ++k)
      zs += in[r * width + k] == 'z';
    out[r * width] = (char)(out[r * width] + zs);
    lens[r] += zs;
  }
}

// Line runs with lines of `in` and `out` at different alignments (the host
// passes `out` 3 bytes into its buffer) and a read 7 bytes ahead: each
// structure's run ends at its own line boundary.
__global__ void runs_shifted(const char *__restrict__ in, char *__restrict__ out, size_t n,
                             size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk < n ? b + chunk : n;
  for (size_t i = b; i < e; ++i)
    out[i] = (char)(in[i + 7] ^ in[i]);
}

// Chunks of whole 64-byte lines, so the lanes of a warp miss together and
// move their lines a warp at a time. With `gaps`, threads whose id is a
// multiple of 3 leave every 40th byte unwritten: their lines are partly
// dirty and go back byte by byte beside the warp's whole lines.
__global__ void warp_lines(const char *__restrict__ in, char *__restrict__ out, size_t chunk,
                           bool gaps) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk;
  bool skip = gaps && tid % 3 == 0;
  for (size_t i = b; i < e; ++i)
    if (!skip || (i - b) % 40 != 0)
      out[i] = (char)(in[i] + 1);
}

// Line runs with a 32-bit `!=` loop counter, a read-modify-write structure
// and stores 4 bytes apart of 2-byte elements (each store sets its own
// dirty bits; the bytes between them stay as they were).
__global__ void runs_strided(const unsigned short *__restrict__ in,
                             unsigned short *__restrict__ out, unsigned chunk) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = tid * chunk, e = b + chunk;
  for (unsigned i = b; i != e; ++i)
    out[2 * i] = (unsigned short)(out[2 * i] * 3 + in[i]);
}

// k-means' pattern: each point is read once per table entry, the table in
// dynamic shared memory. Left alone unless the launch's dynamic shared memory
// is declared (--dynamic-shared, as the "dynamic" builds do); then the points
// are cached (read again on every iteration of the counted entry loop), and
// with a large declaration only the first warps get lines.
__global__ void nearest(const int *__restrict__ points, const int *__restrict__ table,
                        int *__restrict__ best, size_t n, size_t chunk, unsigned k,
                        unsigned dims) {
  extern __shared__ int entries[];
  for (unsigned i = threadIdx.x; i < k * dims; i += blockDim.x)
    entries[i] = table[i];
  __syncthreads();
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = tid * chunk, e = b + chunk < n ? b + chunk : n;
  for (size_t p = b; p < e; ++p) {
    int pick = 0;
    long long pick_d = -1;
    for (unsigned j = 0; j < k; ++j) {
      long long d = 0;
      for (unsigned x = 0; x < dims; ++x) {
        long long diff = points[p * dims + x] - entries[j * dims + x];
        d += diff * diff;
      }
      if (pick_d < 0 || d < pick_d) {
        pick_d = d;
        pick = (int)j;
      }
    }
    best[p] = pick;
  }
}

// The driver's device tuning: a ?: chain on a byte (clang makes it a switch
// that only chooses values, the tuning makes it selects) and a column index
// `i % n` that the inner loop's addresses build on (frozen).
__device__ inline int base_code(char c) {
  return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : -1;
}

__global__ void tuned(const char *__restrict__ bases, const int *__restrict__ m,
                      unsigned *__restrict__ out, unsigned long long n,
                      unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long b = tid * chunk, e = b + chunk < n * n ? b + chunk : n * n;
  for (unsigned long long i = b; i < e; ++i) {
    unsigned long long col = i % n;
    unsigned acc = 0;
    for (unsigned long long k = 0; k < n; ++k) {
      int code = base_code(bases[k * n + col]);
      acc = acc * 5u + (unsigned)(code < 0 ? 4 : code) + (unsigned)m[k * n + col];
    }
    out[i] = acc;
  }
}

// Lines scanned from every line start in a thread's chunk (grep's pattern):
// the inner loop's trip count depends on the text, so the device tuning
// merges it into the main loop. Only threads whose index is not a multiple
// of 3 enter (a warp enters in part), a line that starts with '!' ends a
// thread's work at once (a return from inside the loop), and each line's
// count goes to a total by an atomic.
__global__ void lines(const char *__restrict__ text, int *__restrict__ counts,
                      unsigned *__restrict__ total, size_t n, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid % 3 == 0)
    return;
  size_t b = tid * chunk, e = b + chunk < n ? b + chunk : n;
  for (size_t i = b; i < e; ++i) {
    if (i != 0 && text[i - 1] != '\n')
      continue;
    if (text[i] == '!')
      return;
    int a = 0;
    for (size_t j = i; j < n && text[j] != '\n'; ++j)
      a += text[j] == 'a';
    counts[i] = a;
    atomicAdd(total, (unsigned)a);
  }
}

// Counts over a thread's chunk of bytes, as wc keeps them: words (a byte that
// is not a space after one that is: the answer of the byte before carried to
// the next), digits right after a digit, and newlines, each in its own width
// (a 16-bit count wraps). Full line runs count a word's four bytes at once.
__device__ __host__ inline bool byte_space(char c) { return c == ' ' || c == '\n' || c == '\t'; }
__device__ __host__ inline bool byte_digit(char c) { return c >= '0' && c <= '9'; }

__global__ void byte_counts(const char *__restrict__ text, unsigned long long *__restrict__ words,
                            unsigned short *__restrict__ pairs, int *__restrict__ newlines,
                            size_t n, size_t chunk) {
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = chunk_begin(tid, chunk), e = b + chunk < n ? b + chunk : n;
  unsigned long long w = 0;
  unsigned short p = 0;
  int nl = 0;
  bool prev_space = true, prev_digit = false;
  for (size_t i = b; i < e; ++i) {
    char c = text[i];
    bool space = byte_space(c), digit = byte_digit(c);
    w += prev_space && !space;
    p += prev_digit && digit;
    nl += c == '\n';
    prev_space = space;
    prev_digit = digit;
  }
  words[tid] = w;
  pairs[tid] = p;
  newlines[tid] = nl;
}

// Each thread's chunk starts `pitch` elements after the one before: equal to
// `chunk`, a warp's chunks are adjacent (the warp-range copy walks them
// together); larger, they leave gaps (the check turns the warp away). The
// stored value uses the index itself.
__global__ void warp_ranges16(const unsigned short *__restrict__ in,
                              unsigned short *__restrict__ out, size_t n, size_t chunk,
                              size_t pitch) {
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = t * pitch, e = b + chunk < n ? b + chunk : n;
  for (size_t i = b; i < e; ++i) out[i] = (unsigned short)(in[i] * 3u + (unsigned)i);
}

// The same over bytes: sixteen to a lane's piece, computed on words.
__global__ void warp_ranges8(const char *__restrict__ in, char *__restrict__ out, size_t n,
                             size_t chunk, size_t pitch) {
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = t * pitch, e = b + chunk < n ? b + chunk : n;
  for (size_t i = b; i < e; ++i) {
    char c = in[i];
    out[i] = (c >= 'a' && c <= 'z') ? c - 32 : c;
  }
}

// A chunk loop in a kernel that also writes before it and synchronizes
// after it: each thread first marks its chunk's first element, the loop
// reads the marks (through the warp range, other lanes' marks), a block
// barrier, then each thread reads the next thread's first output, and the
// block's count goes up by an atomic add.
__global__ void warp_ranges_synced(int *__restrict__ marks, int *__restrict__ out,
                                   int *__restrict__ next_first, unsigned *__restrict__ count,
                                   size_t n, size_t chunk) {
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t b = t * chunk, e = b + chunk < n ? b + chunk : n;
  if (b < e) marks[b] = (int)t;
  for (size_t i = b; i < e; ++i) out[i] = marks[i] * 5 + 1;
  __syncthreads();
  size_t nb = b + chunk;
  next_first[t] = threadIdx.x + 1 < blockDim.x && nb < n ? out[nb] : -1;
  __threadfence();
  atomicAdd(count, 1u);
}

template <typename T> T *to_device(const std::vector<T> &h) {
  T *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T> std::vector<T> to_host(const T *d, size_t count) {
  std::vector<T> h(count);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <typename T> T *poisoned(size_t count) {
  T *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, count * sizeof(T)));
  CUDA_CHECK(cudaMemset(d, 0xa5, count * sizeof(T)));
  return d;
}

static uint32_t rng = 2463534242u;
static uint32_t next_random() {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static int report(const char *name, bool ok) {
  std::printf("patterns: %-20s %s\n", name, ok ? "OK" : "MISMATCH");
  return ok ? 0 : 1;
}

int main() {
  const unsigned blocks = 66, threads = 96;
  const size_t total = (size_t)blocks * threads;
  int failures = 0;

  { // early exit
    size_t n = total * 997 + 13, chunk = (n + total - 1) / total;
    std::vector<char> in(n);
    for (auto &c : in) c = char('a' + next_random() % 23);
    for (size_t t = 0; t < total; t += 3)
      if (t * chunk + t % chunk < n) in[t * chunk + t % chunk] = 'z';
    char *din = to_device(in), *dout = poisoned<char>(n);
    long long *dpos = poisoned<long long>(total);
    early_exit<<<blocks, threads>>>(din, dout, dpos, n, chunk, 'z');
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    auto pos = to_host(dpos, total);
    std::vector<char> want(n, (char)0xa5);
    bool ok = true;
    for (size_t t = 0; t < total; ++t) {
      size_t b = t * chunk, e = b + chunk < n ? b + chunk : n;
      long long found = -1;
      for (size_t i = b; i < e; ++i) {
        want[i] = in[i];
        if (in[i] == 'z') { found = (long long)i; break; }
      }
      ok &= pos[t] == found;
    }
    failures += report("early_exit", ok && out == want);
  }
  { // fence
    size_t n = total * 501 + 7, chunk = (n + total - 1) / total;
    std::vector<short> in(n);
    for (auto &v : in) v = (short)next_random();
    short *din = to_device(in), *dout = poisoned<short>(n);
    fenced<<<blocks, threads>>>(din, dout, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    bool ok = true;
    for (size_t i = 0; i < n; ++i) ok &= out[i] == (short)(in[i] * 3);
    failures += report("fence", ok);
  }
  { // barrier
    int steps = 333;
    size_t n = total * steps;
    std::vector<int> in(n);
    for (auto &v : in) v = (int)(next_random() % 1000);
    int *din = to_device(in), *dout = poisoned<int>(n);
    barrier<<<blocks, threads>>>(din, dout, steps);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    bool ok = true;
    for (size_t blk = 0; blk < blocks; ++blk)
      for (int s = 0; s < steps; ++s)
        for (unsigned t = 0; t < threads; ++t) {
          size_t row = blk * threads * steps + (size_t)s * threads;
          int want = in[row + t] + 1 + in[row + (t + 1) % threads] + 1;
          ok &= out[row + t] == want;
        }
    failures += report("barrier", ok);
  }
  { // barrier, uneven accesses
    int steps = 257;
    size_t n = total * steps;
    std::vector<int> in(n);
    for (auto &v : in) v = (int)(next_random() % 1000);
    int *din = to_device(in), *dout = poisoned<int>(n);
    barrier_uneven<<<blocks, threads>>>(din, dout, steps);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    bool ok = true;
    auto first = [&](size_t row, unsigned t) {
      int v = in[row + t];
      return (v & 1) ? v + in[row + (t + 1) % threads] : v;
    };
    for (size_t blk = 0; blk < blocks; ++blk)
      for (int s = 0; s < steps; ++s)
        for (unsigned t = 0; t < threads; ++t) {
          size_t row = blk * threads * steps + (size_t)s * threads;
          ok &= out[row + t] == first(row, t) + first(row, (t + 1) % threads);
        }
    failures += report("barrier_uneven", ok);
  }
  { // barrier, strides known
    size_t width = 77, n = total * width;
    std::vector<char> in(n);
    for (auto &c : in) c = char(next_random());
    char *din = to_device(in), *dout = poisoned<char>(n);
    barrier_static<<<blocks, threads>>>(din, dout, width);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    bool ok = true;
    for (size_t i = 0; i < n; ++i) ok &= out[i] == (char)(in[i] ^ 0x20);
    failures += report("barrier_static", ok);
  }
  { // warp threshold: 1024-thread blocks, lines for the first warps only
    const unsigned big_blocks = 8, big_threads = 1024;
    size_t width = 61, n = (size_t)big_blocks * big_threads * width;
    std::vector<char> in(n);
    for (auto &c : in) c = char(next_random());
    char *din = to_device(in), *dout = poisoned<char>(n);
    crowded<<<big_blocks, big_threads>>>(din, dout, width);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    bool ok = true;
    for (size_t i = 0; i < n; ++i) {
      size_t t = i / width, k = i % width;
      ok &= out[i] == (char)(in[i] + (char)((t % big_threads) + k % 40));
    }
    failures += report("crowded_warps", ok);
  }
  { // atomic after a cached store
    size_t n = total * 403 + 5, chunk = (n + total - 1) / total;
    std::vector<unsigned> in(n);
    for (auto &v : in) v = next_random();
    unsigned *din = to_device(in), *dout = poisoned<unsigned>(n);
    atomic_after_store<<<blocks, threads>>>(din, dout, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    bool ok = true;
    for (size_t i = 0; i < n; ++i) ok &= out[i] == ((in[i] ^ 0x55u) + 7u);
    failures += report("atomic_after_store", ok);
  }
  { // nested loops
    int n = 61, rows = (int)total;
    std::vector<int> a((size_t)rows * n), bm((size_t)n * n);
    for (auto &v : a) v = (int)(next_random() % 17) - 8;
    for (auto &v : bm) v = (int)(next_random() % 13) - 6;
    int *da = to_device(a), *db = to_device(bm), *dc = poisoned<int>((size_t)rows * n);
    matmul<<<blocks, threads>>>(da, db, dc, rows, n);
    CUDA_CHECK(cudaGetLastError());
    auto c = to_host(dc, (size_t)rows * n);
    bool ok = true;
    for (int r = 0; r < rows; ++r)
      for (int j = 0; j < n; ++j) {
        int acc = 0;
        for (int k = 0; k < n; ++k) acc += a[(size_t)r * n + k] * bm[(size_t)k * n + j];
        ok &= c[(size_t)r * n + j] == acc;
      }
    failures += report("nested_matmul", ok);
  }
  { // mixed element sizes and uint4
    size_t n = total * 333 + 3, chunk = (n + total - 1) / total;
    std::vector<uint4> v(n);
    std::vector<short> s(n);
    for (size_t i = 0; i < n; ++i) {
      v[i] = make_uint4(next_random(), next_random(), next_random(), next_random());
      s[i] = (short)next_random();
    }
    uint4 *dv = to_device(v), *dout = poisoned<uint4>(n);
    short *ds = to_device(s);
    mixed<<<blocks, threads>>>(dv, ds, dout, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    bool ok = true;
    for (size_t i = 0; i < n; ++i) {
      unsigned k = (unsigned)s[i];
      ok &= out[i].x == v[i].x + k && out[i].y == (v[i].y ^ k) && out[i].z == v[i].z - k &&
            out[i].w == v[i].w;
    }
    failures += report("mixed_uint4", ok);
  }
  { // packed, misaligned
    size_t count = total * 211 + 9, chunk = (count + total - 1) / total, bytes = 5 * count + 8;
    std::vector<unsigned char> in(bytes);
    for (auto &c : in) c = (unsigned char)next_random();
    unsigned char *din = to_device(in), *dout = poisoned<unsigned char>(bytes);
    packed<<<blocks, threads>>>(din, dout, count, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, bytes);
    std::vector<unsigned char> want(bytes, 0xa5);
    for (size_t i = 0; i < count; ++i) {
      unsigned v;
      std::memcpy(&v, &in[1 + 5 * i], 4);
      v = v * 2654435761u;
      std::memcpy(&want[1 + 5 * i], &v, 4);
    }
    failures += report("packed_misaligned", out == want);
  }
  { // in place, aliased
    size_t n = total * 777 + 11, chunk = (n + total - 1) / total;
    std::vector<char> text(n);
    for (auto &c : text) c = char(' ' + next_random() % 90);
    char *d = to_device(text);
    inplace<<<blocks, threads>>>(d, d, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(d, n);
    bool ok = true;
    for (size_t i = 0; i < n; ++i) {
      char c = text[i];
      ok &= out[i] == ((c >= 'a' && c <= 'z') ? c - 32 : c);
    }
    failures += report("inplace_aliased", ok);
    // The same kernel on two buffers: the run-time alias check finds them
    // apart and the checked copy (with its warp range) runs.
    char *din = to_device(text), *dout = poisoned<char>(n);
    inplace<<<blocks, threads>>>(din, dout, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    failures += report("inplace_apart", to_host(dout, n) == out);
  }
  { // a warp range between a store before it and a barrier, a fence and
    // an atomic after it
    size_t chunk = 29, n = total * chunk - 50;
    std::vector<int> marks(n);
    for (auto &v : marks) v = (int)(next_random() % 1000);
    int *dmarks = to_device(marks), *dout = poisoned<int>(n), *dnext = poisoned<int>(total);
    std::vector<unsigned> zero(1, 0);
    unsigned *dcount = to_device(zero);
    warp_ranges_synced<<<blocks, threads>>>(dmarks, dout, dnext, dcount, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    for (size_t t = 0; t < total; ++t)
      if (t * chunk < n) marks[t * chunk] = (int)t;
    std::vector<int> want(n), want_next(total);
    for (size_t i = 0; i < n; ++i) want[i] = marks[i] * 5 + 1;
    for (size_t t = 0; t < total; ++t) {
      size_t nb = (t + 1) * chunk;
      want_next[t] = t % threads + 1 < threads && nb < n ? want[nb] : -1;
    }
    failures += report("warp_ranges_synced", to_host(dout, n) == want &&
                                                to_host(dnext, total) == want_next &&
                                                to_host(dcount, 1)[0] == total);
  }
  { // aliased, shifted: a recurrence through two pointers
    size_t chunk = 611, stride = chunk + 8, bytes = total * stride + 8;
    std::vector<unsigned char> x(bytes);
    for (auto &c : x) c = (unsigned char)next_random();
    unsigned char *d = to_device(x);
    aliased_shift<<<blocks, threads>>>(d, d + 3, chunk, stride);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(d, bytes);
    for (size_t t = 0; t < total; ++t)
      for (size_t i = t * stride; i < t * stride + chunk; ++i)
        x[i + 3] = (unsigned char)(x[i] * 7 + 1);
    failures += report("aliased_shift", out == x);
  }
  { // two loops in a row
    size_t chunk = 517, n = total * chunk;
    std::vector<int> in(n);
    for (auto &v : in) v = (int)(next_random() % 100000);
    int *din = to_device(in), *dtmp = poisoned<int>(n);
    long long *dsums = poisoned<long long>(total);
    two_loops<<<blocks, threads>>>(din, dtmp, dsums, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto tmp = to_host(dtmp, n);
    auto sums = to_host(dsums, total);
    bool ok = true;
    for (size_t t = 0; t < total; ++t) {
      long long acc = 0;
      for (size_t i = t * chunk; i < (t + 1) * chunk; ++i) {
        int v = in[i] * 3 - 1;
        ok &= tmp[i] == v + 1;
        acc += v ^ (int)i;
      }
      ok &= sums[t] == acc;
    }
    failures += report("two_loops", ok);
  }
  { // rows: cold structures beside cached ones, and a loop where all are cold
    size_t width = 53, chunk = 7, count = total * chunk;
    std::vector<char> in(count * width);
    for (auto &c : in) c = "abz Q"[next_random() % 5];
    char *din = to_device(in), *dout = poisoned<char>(count * width);
    int *dlens = poisoned<int>(count);
    rows<<<blocks, threads>>>(din, dout, dlens, width, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, count * width);
    auto lens = to_host(dlens, count);
    bool ok = true;
    for (size_t r = 0; r < count; ++r) {
      int spaces = 0, zs = 0;
      for (size_t k = 0; k < width; ++k) {
        char c = in[r * width + k];
        spaces += c == ' ';
        zs += c == 'z';
        char up = c >= 'a' && c <= 'z' ? c - 32 : c;
        ok &= k == 0 || out[r * width + k] == up;
      }
      char first = in[r * width];
      char up = first >= 'a' && first <= 'z' ? first - 32 : first;
      ok &= out[r * width] == (char)(up + zs) && lens[r] == spaces + zs;
    }
    failures += report("rows_cold", ok);
  }
  { // line runs, lines of the two structures at different alignments
    size_t n = total * 389 + 17, chunk = (n + total - 1) / total;
    std::vector<char> in(n + 8);
    for (auto &c : in) c = char(next_random());
    char *din = to_device(in), *dout = poisoned<char>(n + 3);
    runs_shifted<<<blocks, threads>>>(din, dout + 3, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n + 3);
    std::vector<char> want(n + 3, (char)0xa5);
    for (size_t i = 0; i < n; ++i) want[i + 3] = (char)(in[i + 7] ^ in[i]);
    failures += report("runs_shifted", out == want);
  }
  for (bool gaps : {false, true}) { // lines moved a warp at a time
    size_t chunk = 64 * 7, n = total * chunk;
    std::vector<char> in(n);
    for (auto &c : in) c = char(next_random());
    char *din = to_device(in), *dout = poisoned<char>(n);
    warp_lines<<<blocks, threads>>>(din, dout, chunk, gaps);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n);
    std::vector<char> want(n);
    for (size_t i = 0; i < n; ++i) {
      bool skipped = gaps && (i / chunk) % 3 == 0 && (i % chunk) % 40 == 0;
      want[i] = skipped ? (char)0xa5 : (char)(in[i] + 1);
    }
    failures += report(gaps ? "warp_lines_gaps" : "warp_lines", out == want);
  }
  { // line runs, 32-bit != counter, strided read-modify-write
    unsigned chunk = 203;
    size_t n = total * chunk;
    std::vector<unsigned short> in(n), out0(2 * n);
    for (auto &v : in) v = (unsigned short)next_random();
    for (auto &v : out0) v = (unsigned short)next_random();
    unsigned short *din = to_device(in), *dout = to_device(out0);
    runs_strided<<<blocks, threads>>>(din, dout, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, 2 * n);
    auto want = out0;
    for (size_t i = 0; i < n; ++i) want[2 * i] = (unsigned short)(out0[2 * i] * 3 + in[i]);
    failures += report("runs_strided", out == want);
  }
  { // device tuning: selected switch, frozen remainder
    unsigned long long n = 61, chunk = 2;
    std::vector<char> bases(n * n);
    std::vector<int> m(n * n);
    for (auto &c : bases) c = "ACGTN"[next_random() % 5];
    for (auto &v : m) v = (int)(next_random() % 1000) - 500;
    char *dbases = to_device(bases);
    int *dm = to_device(m);
    unsigned *dout = poisoned<unsigned>(n * n);
    tuned<<<blocks, threads>>>(dbases, dm, dout, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto out = to_host(dout, n * n);
    bool ok = true;
    for (unsigned long long i = 0; i < n * n; ++i) {
      unsigned long long col = i % n;
      unsigned acc = 0;
      for (unsigned long long k = 0; k < n; ++k) {
        char c = bases[k * n + col];
        unsigned code = c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : 4;
        acc = acc * 5u + code + (unsigned)m[k * n + col];
      }
      ok &= out[i] == acc;
    }
    failures += report("tuned", ok);
  }
  { // dynamic shared memory beside the lines, points read once per entry;
    // coordinates none, fewer than a vector, one vector (the loop over
    // entries without an inner loop), several, and with a remainder, the
    // points 16-byte aligned or not
    const unsigned k = 37;
    bool ok = true;
    for (unsigned dims : {3u, 4u, 8u, 13u, 0u})
      for (size_t skew : {0, 1}) {
        size_t n = total * 41 + 5, chunk = (n + total - 1) / total;
        std::vector<int> points(skew + n * dims), table(k * dims);
        for (auto &v : points) v = (int)(next_random() % 2001) - 1000;
        for (auto &v : table) v = (int)(next_random() % 2001) - 1000;
        int *dpoints = to_device(points), *dtable = to_device(table);
        int *dbest = poisoned<int>(n);
        nearest<<<blocks, threads, k * dims * sizeof(int)>>>(dpoints + skew, dtable, dbest, n,
                                                            chunk, k, dims);
        CUDA_CHECK(cudaGetLastError());
        auto out = to_host(dbest, n);
        for (size_t p = 0; p < n; ++p) {
          int pick = 0;
          long long pick_d = -1;
          for (unsigned j = 0; j < k; ++j) {
            long long d = 0;
            for (unsigned x = 0; x < dims; ++x) {
              long long diff = (long long)points[skew + p * dims + x] - table[j * dims + x];
              d += diff * diff;
            }
            if (pick_d < 0 || d < pick_d) {
              pick_d = d;
              pick = (int)j;
            }
          }
          ok &= out[p] == pick;
        }
      }
    failures += report("nearest", ok);
  }
  { // lines
    size_t n = total * 211 + 5, chunk = (n + total - 1) / total;
    std::vector<char> text(n);
    for (auto &c : text) {
      unsigned r = next_random() % 61;
      c = r == 0 ? '\n' : r == 1 ? '!' : (char)('a' + r % 5);
    }
    std::vector<unsigned> zero(1, 0);
    char *dtext = to_device(text);
    int *dcounts = poisoned<int>(n);
    unsigned *dtotal = to_device(zero);
    lines<<<blocks, threads>>>(dtext, dcounts, dtotal, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto counts = to_host(dcounts, n);
    auto sum = to_host(dtotal, 1);
    std::vector<int> want(n, (int)0xa5a5a5a5);
    unsigned want_sum = 0;
    for (size_t t = 0; t < total; ++t) {
      if (t % 3 == 0)
        continue;
      size_t b = t * chunk, e = b + chunk < n ? b + chunk : n;
      for (size_t i = b; i < e; ++i) {
        if (i != 0 && text[i - 1] != '\n')
          continue;
        if (text[i] == '!')
          break;
        int a = 0;
        for (size_t j = i; j < n && text[j] != '\n'; ++j)
          a += text[j] == 'a';
        want[i] = a;
        want_sum += (unsigned)a;
      }
    }
    failures += report("lines", counts == want && sum[0] == want_sum);
  }
  { // counts of bytes, a value carried from byte to byte
    size_t n = total * 1403 + 29, chunk = (n + total - 1) / total;
    std::vector<char> text(n);
    for (auto &c : text) {
      unsigned r = next_random() % 16;
      c = r < 3 ? " \n\t"[r] : r < 9 ? (char)('0' + r) : r < 12 ? (char)(0x80 + r) : (char)('a' + r);
    }
    char *dtext = to_device(text);
    auto *dwords = poisoned<unsigned long long>(total);
    auto *dpairs = poisoned<unsigned short>(total);
    int *dnewlines = poisoned<int>(total);
    byte_counts<<<blocks, threads>>>(dtext, dwords, dpairs, dnewlines, n, chunk);
    CUDA_CHECK(cudaGetLastError());
    auto words = to_host(dwords, total);
    auto pairs = to_host(dpairs, total);
    auto newlines = to_host(dnewlines, total);
    bool ok = true;
    for (size_t t = 0; t < total; ++t) {
      size_t b = t * chunk, e = b + chunk < n ? b + chunk : n;
      unsigned long long w = 0;
      unsigned short p = 0;
      int nl = 0;
      bool prev_space = true, prev_digit = false;
      for (size_t i = b; i < e; ++i) {
        char c = text[i];
        w += prev_space && !byte_space(c);
        p += prev_digit && byte_digit(c);
        nl += c == '\n';
        prev_space = byte_space(c);
        prev_digit = byte_digit(c);
      }
      ok &= words[t] == w && pairs[t] == p && newlines[t] == nl;
    }
    failures += report("byte_counts", ok);
  }
  { // warp ranges: adjacent chunks at offsets that share or differ in
    // alignment, chunks with gaps, a last warp cut short by n
    struct Launch { size_t in_at, out_at, chunk, pitch; };
    const Launch launches[] = {{0, 0, 37, 37}, {3, 3, 64, 64}, {1, 2, 37, 37}, {0, 0, 37, 40},
                               {5, 5, 1, 1}};
    bool ok = true;
    for (const Launch &l : launches) {
      size_t n = total * l.pitch - 1000, room = n + 16;
      std::vector<unsigned short> in16(room);
      std::vector<char> in8(room);
      for (size_t i = 0; i < room; ++i) {
        in16[i] = (unsigned short)next_random();
        in8[i] = char(' ' + next_random() % 90);
      }
      unsigned short *d16 = to_device(in16), *o16 = poisoned<unsigned short>(room);
      char *d8 = to_device(in8), *o8 = poisoned<char>(room);
      warp_ranges16<<<blocks, threads>>>(d16 + l.in_at, o16 + l.out_at, n, l.chunk, l.pitch);
      warp_ranges8<<<blocks, threads>>>(d8 + l.in_at, o8 + l.out_at, n, l.chunk, l.pitch);
      CUDA_CHECK(cudaGetLastError());
      auto out16 = to_host(o16, room);
      auto out8 = to_host(o8, room);
      std::vector<unsigned short> want16(room, (unsigned short)0xa5a5);
      std::vector<char> want8(room, (char)0xa5);
      for (size_t t = 0; t < total; ++t) {
        size_t b = t * l.pitch, e = b + l.chunk < n ? b + l.chunk : n;
        for (size_t i = b; i < e; ++i) {
          want16[l.out_at + i] = (unsigned short)(in16[l.in_at + i] * 3u + (unsigned)i);
          char c = in8[l.in_at + i];
          want8[l.out_at + i] = (c >= 'a' && c <= 'z') ? c - 32 : c;
        }
      }
      ok &= out16 == want16 && out8 == want8;
    }
    failures += report("warp_ranges", ok);
  }
  std::printf("patterns: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
