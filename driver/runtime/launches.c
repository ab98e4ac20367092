/* The S-L1 runtime of an executable: every launch of a kernel with lines
 * gets the dynamic shared memory its line buffer needs, whoever makes it.
 *
 * Each host module compiled with S-L1 registers its sizer when the program
 * starts (`sl1_register_launch_sizer`, called from a constructor the host
 * pass adds: pass/src/launch/sizer.rs). sl1-driver links this file with
 * `-Wl,--wrap=` on the CUDA runtime's launch functions, so that every
 * launch the program's objects make, in any file, through `<<<>>>`,
 * `cudaLaunchKernel`, `cudaLaunchKernelEx` or a cooperative launch, asks
 * the sizers first; a handle none of them knows launches as it was.
 *
 * SL1_LAUNCHES=1 in the environment prints, when the program exits, the
 * launches of each kernel with lines, the bytes the last one got, and how
 * many of them only the wrappers sized (the launch asked for fewer bytes:
 * no sizing in the launch's own file, as before the runtime existed).
 *
 * Types are declared here as the CUDA headers lay them out (x86-64), so
 * that the file builds without them, as C, C++ or CUDA (the CMake package
 * compiles it with the target's CUDA compiler). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int sl1_error;
typedef struct { unsigned x, y, z; } sl1_dim3;
typedef struct {
  sl1_dim3 grid;
  sl1_dim3 block;
  size_t dynamic_shared_bytes;
  void *stream;
  void *attrs;
  unsigned attr_count;
} sl1_launch_config;

/* bytes = sizer(handle, grid x | y << 32, grid z, block x | y << 32,
 * block z, shared): the bytes to launch with, or -1 for a handle that is
 * not one of its module's kernels with lines. */
typedef int64_t (*sl1_sizer)(const void *, uint64_t, uint32_t, uint64_t, uint32_t, uint64_t);
typedef struct {
  const void *handle;
  const char *name;
} sl1_kernel;

typedef struct {
  sl1_sizer sizer;
  const sl1_kernel *kernels;
  int64_t count;
  /* Per kernel, with SL1_LAUNCHES: launches, the last one's bytes, and
   * the launches the wrappers alone gave their bytes. */
  uint64_t *launches;
  uint64_t *last_bytes;
  uint64_t *by_runtime;
} sl1_module;

enum { SL1_MOST_MODULES = 4096 };
static sl1_module modules[SL1_MOST_MODULES];
static int module_count;
static int counting = -1;

#ifdef __cplusplus
extern "C" {
#endif

/* Weak: two targets of one program that each carry the runtime (a static
 * library and the executable, in CMake) link into one. */
#define SL1_EXPORT __attribute__((weak))

#define SL1_LOAD(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define SL1_STORE(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

static void print_launches(void) {
  int n = SL1_LOAD(&module_count);
  for (int m = 0; m < n; ++m)
    for (int64_t k = 0; k < modules[m].count; ++k)
      fprintf(stderr,
              "sl1: %s: %llu launch(es) with lines, the last with %llu B, %llu sized by the "
              "runtime alone\n",
              modules[m].kernels[k].name,
              (unsigned long long)SL1_LOAD(&modules[m].launches[k]),
              (unsigned long long)SL1_LOAD(&modules[m].last_bytes[k]),
              (unsigned long long)SL1_LOAD(&modules[m].by_runtime[k]));
}

/* Called by each S-L1 host module's constructor (before main, or when a
 * shared library is loaded). */
SL1_EXPORT void sl1_register_launch_sizer(sl1_sizer sizer, const sl1_kernel *kernels, int64_t count) {
  if (counting < 0) {
    const char *env = getenv("SL1_LAUNCHES");
    counting = env && *env && strcmp(env, "0") != 0;
    if (counting)
      atexit(print_launches);
  }
  int m = SL1_LOAD(&module_count);
  if (m >= SL1_MOST_MODULES) {
    fprintf(stderr, "sl1: more than %d modules with kernels with lines; the rest size only "
                    "the launches in their own files\n", SL1_MOST_MODULES);
    return;
  }
  modules[m].sizer = sizer;
  modules[m].kernels = kernels;
  modules[m].count = count;
  if (counting) {
    modules[m].launches = (uint64_t *)calloc((size_t)count, sizeof(uint64_t));
    modules[m].last_bytes = (uint64_t *)calloc((size_t)count, sizeof(uint64_t));
    modules[m].by_runtime = (uint64_t *)calloc((size_t)count, sizeof(uint64_t));
  }
  SL1_STORE(&module_count, m + 1);
}

static uint64_t packed(sl1_dim3 d) { return (uint64_t)d.x | (uint64_t)d.y << 32; }

/* The dynamic shared bytes a launch of `handle` asks for. */
static size_t sized(const void *handle, sl1_dim3 grid, sl1_dim3 block, size_t shared) {
  int n = SL1_LOAD(&module_count);
  for (int m = 0; m < n; ++m) {
    int64_t bytes =
        modules[m].sizer(handle, packed(grid), grid.z, packed(block), block.z, shared);
    if (bytes < 0)
      continue;
    if (modules[m].launches)
      for (int64_t k = 0; k < modules[m].count; ++k)
        if (modules[m].kernels[k].handle == handle) {
          __atomic_fetch_add(&modules[m].launches[k], 1, __ATOMIC_RELAXED);
          __atomic_store_n(&modules[m].last_bytes[k], (uint64_t)bytes, __ATOMIC_RELAXED);
          if ((uint64_t)bytes != (uint64_t)shared)
            __atomic_fetch_add(&modules[m].by_runtime[k], 1, __ATOMIC_RELAXED);
        }
    return (size_t)bytes;
  }
  return shared;
}

#define SL1_WRAP_LAUNCH(name)                                                              \
  sl1_error __real_##name(const void *, sl1_dim3, sl1_dim3, void **, size_t, void *);      \
  SL1_EXPORT sl1_error __wrap_##name(const void *f, sl1_dim3 grid, sl1_dim3 block, void **args,       \
                          size_t shared, void *stream) {                                   \
    return __real_##name(f, grid, block, args, sized(f, grid, block, shared), stream);      \
  }

SL1_WRAP_LAUNCH(cudaLaunchKernel)
SL1_WRAP_LAUNCH(cudaLaunchKernel_ptsz)
SL1_WRAP_LAUNCH(cudaLaunchCooperativeKernel)
SL1_WRAP_LAUNCH(cudaLaunchCooperativeKernel_ptsz)

#define SL1_WRAP_LAUNCH_EX(name)                                                           \
  sl1_error __real_##name(const sl1_launch_config *, const void *, void **);               \
  SL1_EXPORT sl1_error __wrap_##name(const sl1_launch_config *config, const void *f, void **args) {   \
    sl1_launch_config given = *config;                                                     \
    given.dynamic_shared_bytes =                                                           \
        sized(f, config->grid, config->block, config->dynamic_shared_bytes);               \
    return __real_##name(&given, f, args);                                                 \
  }

SL1_WRAP_LAUNCH_EX(cudaLaunchKernelExC)
SL1_WRAP_LAUNCH_EX(cudaLaunchKernelExC_ptsz)

#ifdef __cplusplus
}
#endif
