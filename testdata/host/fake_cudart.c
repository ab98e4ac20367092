/* A stand-in for the CUDA runtime, so that an executable built by
 * sl1-driver runs without a GPU (driver/tests/host_launches.rs): each
 * launch prints the dynamic shared bytes it is given; memory is host
 * memory; the device has an H100's shape. Linked as `-l fake_cudart`
 * before the real runtime, it defines every function the test programs
 * and the S-L1 runtime's wrappers reach. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned x, y, z; } dim3;
typedef struct {
  dim3 grid, block;
  size_t shared;
  void *stream, *attrs;
  unsigned attr_count;
} launch_config;

static dim3 pushed_grid, pushed_block;
static size_t pushed_shared;
static void *pushed_stream;

static int launch(const char *how, dim3 block, size_t shared) {
  printf("%s %ux%ux%u shared %zu\n", how, block.x, block.y, block.z, shared);
  return 0;
}

int cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **a, size_t s, void *st) {
  (void)f, (void)g, (void)a, (void)st;
  return launch("launch", b, s);
}
int cudaLaunchKernel_ptsz(const void *f, dim3 g, dim3 b, void **a, size_t s, void *st) {
  return cudaLaunchKernel(f, g, b, a, s, st);
}
int cudaLaunchCooperativeKernel(const void *f, dim3 g, dim3 b, void **a, size_t s, void *st) {
  (void)f, (void)g, (void)a, (void)st;
  return launch("cooperative", b, s);
}
int cudaLaunchCooperativeKernel_ptsz(const void *f, dim3 g, dim3 b, void **a, size_t s,
                                     void *st) {
  return cudaLaunchCooperativeKernel(f, g, b, a, s, st);
}
int cudaLaunchKernelExC(const launch_config *c, const void *f, void **a) {
  (void)f, (void)a;
  return launch("launch-ex", c->block, c->shared);
}
int cudaLaunchKernelExC_ptsz(const launch_config *c, const void *f, void **a) {
  return cudaLaunchKernelExC(c, f, a);
}

unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t s, void *st) {
  pushed_grid = g, pushed_block = b, pushed_shared = s, pushed_stream = st;
  return 0;
}
int __cudaPopCallConfiguration(dim3 *g, dim3 *b, size_t *s, void **st) {
  *g = pushed_grid, *b = pushed_block, *s = pushed_shared, *st = pushed_stream;
  return 0;
}
void **__cudaRegisterFatBinary(void *fatbin) { (void)fatbin; return calloc(1, 8); }
void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }
void __cudaUnregisterFatBinary(void **handle) { free(handle); }
void __cudaRegisterFunction(void **m, const char *f, char *d, const char *n, int t, void *a,
                            void *b, void *c, void *e, int *g) {
  (void)m, (void)f, (void)d, (void)n, (void)t, (void)a, (void)b, (void)c, (void)e, (void)g;
}

int cudaMalloc(void **p, size_t bytes) { *p = calloc(1, bytes); return *p == 0; }
int cudaFree(void *p) { free(p); return 0; }
int cudaMemcpy(void *to, const void *from, size_t bytes, int kind) {
  (void)kind;
  memcpy(to, from, bytes);
  return 0;
}
int cudaMemcpy_ptds(void *to, const void *from, size_t bytes, int kind) {
  return cudaMemcpy(to, from, bytes, kind);
}
int cudaDeviceSynchronize(void) { return 0; }
int cudaGetDevice(int *d) { *d = 0; return 0; }
int cudaDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  *v = attr == 16 ? 132 : 233472;
  return 0;
}
int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int threads,
                                                  size_t shared) {
  (void)f, (void)shared;
  *n = 2048 / threads < 32 ? 2048 / threads : 32;
  return 0;
}
int cudaFuncSetAttribute(const void *f, int attr, int value) {
  (void)f, (void)attr, (void)value;
  return 0;
}
