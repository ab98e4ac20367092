// What nvcc gives every CUDA source and clang does not, as programs written
// for nvcc use it: the version macros, min and max in host code, `register`
// under C++17, and CUDA 12.8's `__nv_atomic_*` functions. Builds only with
// the driver's nvcc prelude (driver/include/sl1_nvcc_prelude.h); on the GPU
// (ci/gpu-bundle's patterns) it prints PASS when every result is right.
#include "sl1_check.h"

#if !defined(__CUDACC_VER_MAJOR__) || __CUDACC_VER_MAJOR__ < 9
#error "nvcc's version macros are missing"
#endif

// A counter, a maximum and a minimum kept with `__nv_atomic_*`, and a
// per-thread run of flags raised with release stores that a second pass
// reads back with acquire loads.
__global__ void tally(const unsigned *in, unsigned *counter, int *extremes, unsigned *flags,
                      unsigned *out, unsigned n, unsigned chunk) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned begin = tid * chunk, end = min(begin + chunk, n);
  for (unsigned i = begin; i < end; ++i) {
    register unsigned v = in[i];
    __nv_atomic_fetch_add(counter, v & 7u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_fetch_max(&extremes[0], int(v % 1000u), __NV_ATOMIC_RELAXED);
    __nv_atomic_fetch_min(&extremes[1], int(v % 1000u) - 500, __NV_ATOMIC_RELAXED);
    __nv_atomic_store_n(&flags[i], v | 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  }
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  for (unsigned i = begin; i < end; ++i) {
    unsigned expected = in[i] | 1u;
    bool swapped = __nv_atomic_compare_exchange_n(&flags[i], &expected, expected + 1u, false,
                                                  __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED,
                                                  __NV_THREAD_SCOPE_DEVICE);
    out[i] = __nv_atomic_load_n(&flags[i], __NV_ATOMIC_ACQUIRE) + (swapped ? 0u : 0x80000000u);
  }
}

int main() {
  const unsigned n = 1u << 16, threads = 1024, chunk = n / threads;
  std::vector<unsigned> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = i * 2654435761u;
  unsigned *d_in, *counter, *flags, *out;
  int *extremes;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&flags, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&counter, sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&extremes, 2 * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(counter, 0, sizeof(unsigned)));
  const int start[2] = {-1, 1 << 30};
  CUDA_CHECK(cudaMemcpy(extremes, start, sizeof(start), cudaMemcpyHostToDevice));
  tally<<<threads / 256, 256>>>(d_in, counter, extremes, flags, out, n, chunk);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> got(n);
  unsigned count = 0;
  int ext[2];
  CUDA_CHECK(cudaMemcpy(got.data(), out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&count, counter, sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ext, extremes, sizeof(ext), cudaMemcpyDeviceToHost));
  // The host's min and max, mixed signedness and widths as nvcc allows.
  unsigned want_count = 0;
  int want_max = -1, want_min = 1 << 30;
  size_t wrong = 0;
  for (unsigned i = 0; i < n; ++i) {
    want_count += in[i] & 7u;
    want_max = max(want_max, int(in[i] % 1000u));
    want_min = min(want_min, int(in[i] % 1000u) - 500);
    wrong += got[i] != (in[i] | 1u) + 1u;
  }
  const unsigned long long wide = max(3ull, 2ll);
  const double mixed = min(2.5f, 1.5);
  wrong += count != want_count || ext[0] != want_max || ext[1] != want_min;
  wrong += wide != 3ull || mixed != 1.5;
  std::printf("CUDA %d.%d: %zu wrong\n%s\n", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, wrong,
              wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
