// Layouts `runtime` and `runtime-ex`, the kernel's file: the kernel
// (included before this, named SL1X_KERNEL) and its handle, which the C++
// main in another file launches through the CUDA runtime's API.
#include <cuda_runtime.h>

const void *sl1x_kernel() { return reinterpret_cast<const void *>(&SL1X_KERNEL); }
