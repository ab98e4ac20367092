// What nvcc gives every CUDA source and clang's CUDA headers do not.
// sl1-driver and sl1-nvcc include it before each CUDA source (clang's
// `-include`, after clang's own CUDA runtime wrapper); `--no-nvcc-prelude`
// leaves it out. Each part mirrors nvcc (CUDA 12.9 headers):
//
// 1. nvcc's version macros, which programs test to pick intrinsics
//    (`__shfl_down_sync` from CUDA 9) and library interfaces.
// 2. min and max callable from host code: nvcc's math_functions.hpp
//    declares them `__host__ __device__`, clang's wrapper device-only.
// 3. The `__nv_atomic_*` functions of CUDA 12.8 (nvcc builtins): relaxed
//    operations of clang's atomic builtins between fences of the scope
//    asked for.
#ifndef SL1_NVCC_PRELUDE_H
#define SL1_NVCC_PRELUDE_H
#if defined(__CUDA__) && defined(__cplusplus)

#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

// min and max on the host, with nvcc's overloads: mixed signedness
// compares as unsigned, mixed float and double as double.
#define SL1_HOST_MIN_MAX(T, U, R)                                                         \
  static inline __host__ R min(const T a, const U b) {                                   \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
  }                                                                                        \
  static inline __host__ R max(const T a, const U b) {                                   \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
  }
SL1_HOST_MIN_MAX(int, int, int)
SL1_HOST_MIN_MAX(unsigned int, unsigned int, unsigned int)
SL1_HOST_MIN_MAX(int, unsigned int, unsigned int)
SL1_HOST_MIN_MAX(unsigned int, int, unsigned int)
SL1_HOST_MIN_MAX(long int, long int, long int)
SL1_HOST_MIN_MAX(unsigned long int, unsigned long int, unsigned long int)
SL1_HOST_MIN_MAX(long int, unsigned long int, unsigned long int)
SL1_HOST_MIN_MAX(unsigned long int, long int, unsigned long int)
SL1_HOST_MIN_MAX(long long int, long long int, long long int)
SL1_HOST_MIN_MAX(unsigned long long int, unsigned long long int, unsigned long long int)
SL1_HOST_MIN_MAX(long long int, unsigned long long int, unsigned long long int)
SL1_HOST_MIN_MAX(unsigned long long int, long long int, unsigned long long int)
#undef SL1_HOST_MIN_MAX
// Floating point as fminf/fmaxf: a NaN operand gives the other.
static inline __host__ float min(const float a, const float b) { return __builtin_fminf(a, b); }
static inline __host__ float max(const float a, const float b) { return __builtin_fmaxf(a, b); }
static inline __host__ double min(const double a, const double b) { return __builtin_fmin(a, b); }
static inline __host__ double max(const double a, const double b) { return __builtin_fmax(a, b); }
static inline __host__ double min(const float a, const double b) { return __builtin_fmin(a, b); }
static inline __host__ double max(const float a, const double b) { return __builtin_fmax(a, b); }
static inline __host__ double min(const double a, const float b) { return __builtin_fmin(a, b); }
static inline __host__ double max(const double a, const float b) { return __builtin_fmax(a, b); }

#if CUDA_VERSION >= 12080
enum {
  __NV_ATOMIC_RELAXED = __ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME = __ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE = __ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE = __ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL = __ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST = __ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};

// The value operand converts to the pointee's type, as nvcc's builtins'
// does (`__nv_atomic_fetch_add(unsigned_ptr, 1, ...)`).
template <class T> struct __sl1_same { typedef T type; };
#define SL1_VALUE(T) typename __sl1_same<T>::type
#define SL1_SCOPE int s = __NV_THREAD_SCOPE_SYSTEM

// Orders as fences around relaxed operations (a fence of the scope before a
// release, after an acquire): LLVM 19's NVPTX selects no acquire or release
// load, store or fence, and S-L1 writes its lines back at each fence.
static __device__ __forceinline__ void __sl1_fence(int s) {
  if (s <= __NV_THREAD_SCOPE_BLOCK)
    __threadfence_block();
  else if (s <= __NV_THREAD_SCOPE_DEVICE)
    __threadfence();
  else
    __threadfence_system();
}
static __device__ __forceinline__ void __sl1_before(int o, int s) {
  if (o == __NV_ATOMIC_RELEASE || o == __NV_ATOMIC_ACQ_REL || o == __NV_ATOMIC_SEQ_CST)
    __sl1_fence(s);
}
static __device__ __forceinline__ void __sl1_after(int o, int s) {
  if (o != __NV_ATOMIC_RELAXED && o != __NV_ATOMIC_RELEASE)
    __sl1_fence(s);
}

#define SL1_ATOMIC_OP(op)                                                                  \
  template <class T>                                                                       \
  static __device__ __forceinline__ T __nv_atomic_fetch_##op(T *p, SL1_VALUE(T) v, int o,  \
                                                             SL1_SCOPE) {                  \
    __sl1_before(o, s);                                                                    \
    T r = __atomic_fetch_##op(p, v, __ATOMIC_RELAXED);                                     \
    __sl1_after(o, s);                                                                     \
    return r;                                                                              \
  }                                                                                        \
  template <class T>                                                                       \
  static __device__ __forceinline__ void __nv_atomic_##op(T *p, SL1_VALUE(T) v, int o,     \
                                                          SL1_SCOPE) {                     \
    (void)__nv_atomic_fetch_##op(p, v, o, s);                                              \
  }
SL1_ATOMIC_OP(add)
SL1_ATOMIC_OP(sub)
SL1_ATOMIC_OP(and)
SL1_ATOMIC_OP(or)
SL1_ATOMIC_OP(xor)
SL1_ATOMIC_OP(min)
SL1_ATOMIC_OP(max)
#undef SL1_ATOMIC_OP

template <class T>
static __device__ __forceinline__ T __nv_atomic_load_n(const T *p, int o, SL1_SCOPE) {
  if (o == __NV_ATOMIC_SEQ_CST)
    __sl1_fence(s);
  T r = __atomic_load_n(p, __ATOMIC_RELAXED);
  __sl1_after(o, s);
  return r;
}
template <class T>
static __device__ __forceinline__ void __nv_atomic_load(const T *p, T *r, int o, SL1_SCOPE) {
  *r = __nv_atomic_load_n(p, o, s);
}
template <class T>
static __device__ __forceinline__ void __nv_atomic_store_n(T *p, SL1_VALUE(T) v, int o,
                                                           SL1_SCOPE) {
  __sl1_before(o, s);
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
  if (o == __NV_ATOMIC_SEQ_CST)
    __sl1_fence(s);
}
template <class T>
static __device__ __forceinline__ void __nv_atomic_store(T *p, T *v, int o, SL1_SCOPE) {
  __nv_atomic_store_n(p, *v, o, s);
}
template <class T>
static __device__ __forceinline__ T __nv_atomic_exchange_n(T *p, SL1_VALUE(T) v, int o,
                                                           SL1_SCOPE) {
  __sl1_before(o, s);
  T r = __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
  __sl1_after(o, s);
  return r;
}
template <class T>
static __device__ __forceinline__ void __nv_atomic_exchange(T *p, T *v, T *r, int o,
                                                            SL1_SCOPE) {
  *r = __nv_atomic_exchange_n(p, *v, o, s);
}
// The failure order is never stronger than the success order: the
// success order's fences serve both.
template <class T>
static __device__ __forceinline__ bool __nv_atomic_compare_exchange_n(T *p, T *expected,
                                                                      SL1_VALUE(T) desired,
                                                                      bool weak, int success,
                                                                      int failure, SL1_SCOPE) {
  (void)weak;
  (void)failure;
  __sl1_before(success, s);
  bool r = __atomic_compare_exchange_n(p, expected, desired, false, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED);
  __sl1_after(success, s);
  return r;
}
template <class T>
static __device__ __forceinline__ bool __nv_atomic_compare_exchange(T *p, T *expected,
                                                                    T *desired, bool weak,
                                                                    int success, int failure,
                                                                    SL1_SCOPE) {
  return __nv_atomic_compare_exchange_n(p, expected, *desired, weak, success, failure, s);
}
static __device__ __forceinline__ void __nv_atomic_thread_fence(int o, SL1_SCOPE) {
  if (o != __NV_ATOMIC_RELAXED)
    __sl1_fence(s);
}
#undef SL1_VALUE
#undef SL1_SCOPE
#endif // CUDA_VERSION >= 12080

#endif // __CUDA__ && __cplusplus
#endif // SL1_NVCC_PRELUDE_H
