// Microbenchmark kernels of `sl1-driver probe` (issue 6).
//
// Built by gpu/build.rs with clang as CUDA device code only, without CUDA
// headers (-nocudainc -nocudalib), into PTX for sm_80 (JIT-compiled by the
// driver on newer GPUs) that the Rust crate embeds; the launch wrappers are
// gpu/src/probe/kernels.rs, which must follow the signatures below.
//
// Where the exact load instruction matters (the cache path, or keeping the
// compiler from merging, hoisting or dropping a timed load) it is written as
// inline PTX in `asm volatile` with a memory clobber. Latencies are read with
// the 32-bit `%clock` counter: differences of unsigned values stay right
// across a wrap-around.

// Without the CUDA headers these are not macros yet.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define INLINE __attribute__((device, always_inline)) static inline

typedef unsigned int u32;
typedef unsigned long long u64;

// Dynamic shared memory (sized by each launch; every kernel that uses it
// says how it lays it out).
extern __shared__ u32 dyn[];

INLINE u32 tid() { return __nvvm_read_ptx_sreg_tid_x(); }
INLINE u32 ntid() { return __nvvm_read_ptx_sreg_ntid_x(); }
INLINE u32 ctaid() { return __nvvm_read_ptx_sreg_ctaid_x(); }
INLINE u32 nctaid() { return __nvvm_read_ptx_sreg_nctaid_x(); }

// The SM clock. The memory clobber keeps the compiler from moving memory
// accesses across it.
INLINE u32 clock32() {
  u32 t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t) : : "memory");
  return t;
}

// Address conversions, so that the loads below can use the global and
// shared state spaces explicitly (a shared address fits 32 bits).
INLINE u64 global_addr(const void *p) {
  u64 a;
  asm("cvta.to.global.u64 %0, %1;" : "=l"(a) : "l"(p));
  return a;
}
INLINE u32 shared_addr(const void *p) {
  u64 a;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"(p));
  return (u32)a;
}

// ---------------------------------------------------------------------------
// 1. Fine-grained pointer chase (the paper's listing 4).
//
// Kernel arguments, the same for the four paths:
//   array   words 32-bit words with array[j] = (j + stride) % words
//           (probe_chase_init writes it);
//   words   the footprint in words (used by the shared path only);
//   warmup  accesses before the timed ones (one pass over the footprint);
//   record  timed accesses, each recorded;
//   lat     record latencies in cycles (out);
//   next    record loaded values, i.e. the index each access leads to (out).
// Launch: 1 block x 1 thread; dynamic shared memory 8 * record bytes
// (latencies, then loaded values) plus, for the shared path, 4 * words bytes
// for the copy of the array. The chase starts at index 0 and runs on from
// the warm-up into the timed accesses; the records stay in shared memory
// until the timed accesses are done, so writing them does not disturb the
// caches being measured.

enum { PATH_CA, PATH_CG, PATH_NC, PATH_SHARED };

// One chase step: the word at `addr`, loaded with the path's instruction
// (`addr` is a global address, or for PATH_SHARED a shared one).
template <int PATH> INLINE u32 chase_load(u64 addr) {
  u32 v;
  if (PATH == PATH_CA)
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(addr) : "memory");
  else if (PATH == PATH_CG)
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(addr) : "memory");
  else if (PATH == PATH_NC)
    asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(addr) : "memory");
  else
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"((u32)addr) : "memory");
  return v;
}

template <int PATH>
INLINE void chase(const u32 *array, u32 words, u32 warmup, u32 record, u32 *lat, u32 *next) {
  u32 *s_lat = dyn;
  u32 *s_next = dyn + record;
  u64 base;
  if (PATH == PATH_SHARED) {
    u32 *s_array = dyn + 2 * record;
    for (u32 i = 0; i < words; ++i)
      s_array[i] = array[i];
    base = shared_addr(s_array);
  } else {
    base = global_addr(array);
  }
  u32 j = 0;
  // Warm-up: the same loads, untimed, so that the timed pass sees the caches
  // in their steady state.
  // No unrolling (`.pragma "nounroll"` for ptxas too): every access runs the
  // same instructions, so the clock overhead is the same for all.
#pragma unroll 1
  for (u32 i = 0; i < warmup; ++i)
    j = chase_load<PATH>(base + 4 * (u64)j);
#pragma unroll 1
  for (u32 i = 0; i < record; ++i) {
    // The address is computed before the first clock, so that the time is
    // the load's (plus the store and one clock read, as in the paper).
    u64 addr = base + 4 * (u64)j;
    u32 t0 = clock32();
    j = chase_load<PATH>(addr);
    // Storing the loaded value makes the second clock wait for the load.
    s_next[i] = j;
    u32 t1 = clock32();
    s_lat[i] = t1 - t0;
  }
  for (u32 i = 0; i < record; ++i) {
    lat[i] = s_lat[i];
    next[i] = s_next[i];
  }
}

extern "C" __global__ void probe_chase_ca(const u32 *array, u32 words, u32 warmup, u32 record,
                                          u32 *lat, u32 *next) {
  chase<PATH_CA>(array, words, warmup, record, lat, next);
}

extern "C" __global__ void probe_chase_cg(const u32 *array, u32 words, u32 warmup, u32 record,
                                          u32 *lat, u32 *next) {
  chase<PATH_CG>(array, words, warmup, record, lat, next);
}

extern "C" __global__ void probe_chase_nc(const u32 *array, u32 words, u32 warmup, u32 record,
                                          u32 *lat, u32 *next) {
  chase<PATH_NC>(array, words, warmup, record, lat, next);
}

extern "C" __global__ void probe_chase_shared(const u32 *array, u32 words, u32 warmup,
                                              u32 record, u32 *lat, u32 *next) {
  chase<PATH_SHARED>(array, words, warmup, record, lat, next);
}

// Writes the chase array on the GPU (faster than a host copy for footprints
// of hundreds of MB): array[j] = (j + stride) % words. Any grid.
extern "C" __global__ void probe_chase_init(u32 *array, u32 words, u32 stride) {
  for (u64 j = (u64)ctaid() * ntid() + tid(); j < words; j += (u64)nctaid() * ntid())
    array[j] = (u32)((j + stride) % words);
}

// ---------------------------------------------------------------------------
// 2. Shared-memory stride (the paper's listing 1): one warp, thread t chases
// word t * stride of an array with sdata[i] = i, so every access reads the
// same word again and depends on the previous one. Per thread, the cycles
// of `reps` timed rounds of 64 accesses (the round before them is a
// warm-up) go to cycles[t]. Launch: 1 block x 32 threads, no dynamic shared
// memory; stride <= STRIDE_MAX.

enum { STRIDE_MAX = 64, STRIDE_WORDS = 32 * STRIDE_MAX };

// Shared-memory loads, overloaded on the type of the value (an unused tag
// argument picks one). `asm volatile` binds clang only; .volatile keeps
// ptxas from hoisting loads it sees as loop-invariant (it compiles to the
// same LDS as a plain ld.shared).
INLINE u32 shared_load(u32 addr, u32) {
  u32 v;
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}
INLINE u64 shared_load(u32 addr, u64) {
  u64 v;
  asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(v) : "r"(addr) : "memory");
  return v;
}

template <typename T> INLINE void shared_stride(T *sdata, u32 stride, u32 reps, u32 *cycles) {
  u32 t = tid();
  for (u32 i = t; i < STRIDE_WORDS; i += ntid())
    sdata[i] = i;
  __syncthreads();
  u32 base = shared_addr(sdata);
  u32 sum = 0;
  T data = 0;
#pragma unroll 1
  for (u32 r = 0; r <= reps; ++r) {
    data = t * stride;
    u32 t0 = clock32();
#pragma unroll
    for (int k = 0; k < 64; ++k)
      data = shared_load(base + (u32)data * (u32)sizeof(T), data);
    u32 t1 = clock32();
    if (r > 0)
      sum += t1 - t0;
  }
  // data == t * stride: adding it as 0 keeps the chain live without
  // changing the result.
  cycles[t] = sum + (u32)(data - (T)(t * stride));
}

extern "C" __global__ void probe_shared_stride_u32(u32 stride, u32 reps, u32 *cycles) {
  __shared__ u32 sdata[STRIDE_WORDS];
  shared_stride<u32>(sdata, stride, reps, cycles);
}

extern "C" __global__ void probe_shared_stride_u64(u32 stride, u32 reps, u32 *cycles) {
  __shared__ u64 sdata[STRIDE_WORDS];
  shared_stride<u64>(sdata, stride, reps, cycles);
}

// ---------------------------------------------------------------------------
// 3. Throughput with a coalescing degree c (1, 2, 4 or 8): in each
// iteration the c neighbouring threads tid / c of a group read the
// neighbouring words tid % c of one 32-byte sector, and every group reads
// its own sector. A block reads spb = ceil(ntid / c) sectors per iteration,
// the grid step = nctaid * spb (global) or spb (shared) consecutive sectors;
// the next iteration reads the next step sectors, wrapping around the
// buffer of `sectors` sectors (the host makes sure step <= sectors). Each
// loop round issues four independent loads before adding them up, so a
// thread has up to four loads in flight. The running sum goes to
// sink[global thread id] so that nothing can be dropped.

INLINE u32 wrap_add(u32 s, u32 step, u32 sectors) {
  s += step;
  return s >= sectors ? s - sectors : s;
}

INLINE u32 load_cg(u64 addr) {
  u32 v;
  // .cg: cached in L2 only, so the L1 cannot serve a re-read and the
  // measurement is of L2 (or DRAM, for a working set far beyond L2).
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(addr) : "memory");
  return v;
}

INLINE u32 load_shared(u32 addr) { return shared_load(addr, 0u); }

// Global buffer `buf` of sectors * 32 bytes; the first iteration starts at
// sector `start` (< sectors), so that consecutive launches can go on where
// the last one stopped. Launch: any grid, no dynamic shared memory.
extern "C" __global__ void probe_throughput_global(const u32 *buf, u32 sectors, u32 start,
                                                   u32 coalescing, u32 iterations, u32 *sink) {
  u32 t = tid();
  u32 spb = (ntid() + coalescing - 1) / coalescing;
  u32 step = nctaid() * spb;
  u32 s = start + ctaid() * spb + t / coalescing;
  if (s >= sectors)
    s -= sectors;
  u64 base = global_addr(buf) + 4 * (u64)(t % coalescing);
  u32 sum = 0;
  u32 i = 0;
  for (; i + 4 <= iterations; i += 4) {
    u32 s1 = wrap_add(s, step, sectors);
    u32 s2 = wrap_add(s1, step, sectors);
    u32 s3 = wrap_add(s2, step, sectors);
    u32 v0 = load_cg(base + 32 * (u64)s);
    u32 v1 = load_cg(base + 32 * (u64)s1);
    u32 v2 = load_cg(base + 32 * (u64)s2);
    u32 v3 = load_cg(base + 32 * (u64)s3);
    sum += v0 + v1 + v2 + v3;
    s = wrap_add(s3, step, sectors);
  }
  for (; i < iterations; ++i) {
    sum += load_cg(base + 32 * (u64)s);
    s = wrap_add(s, step, sectors);
  }
  sink[(u64)ctaid() * ntid() + t] = sum;
}

// The same in shared memory: each block fills its own buffer of sectors *
// 32 bytes of dynamic shared memory (launch with that much), then reads it.
extern "C" __global__ void probe_throughput_shared(u32 sectors, u32 coalescing, u32 iterations,
                                                   u32 *sink) {
  u32 t = tid();
  for (u32 i = t; i < sectors * 8; i += ntid())
    dyn[i] = i;
  __syncthreads();
  u32 step = (ntid() + coalescing - 1) / coalescing;
  u32 s = t / coalescing;
  u32 base = shared_addr(dyn) + 4 * (t % coalescing);
  u32 sum = 0;
  u32 i = 0;
  for (; i + 4 <= iterations; i += 4) {
    u32 s1 = wrap_add(s, step, sectors);
    u32 s2 = wrap_add(s1, step, sectors);
    u32 s3 = wrap_add(s2, step, sectors);
    u32 v0 = load_shared(base + 32 * s);
    u32 v1 = load_shared(base + 32 * s1);
    u32 v2 = load_shared(base + 32 * s2);
    u32 v3 = load_shared(base + 32 * s3);
    sum += v0 + v1 + v2 + v3;
    s = wrap_add(s3, step, sectors);
  }
  for (; i < iterations; ++i) {
    sum += load_shared(base + 32 * s);
    s = wrap_add(s, step, sectors);
  }
  sink[(u64)ctaid() * ntid() + t] = sum;
}
