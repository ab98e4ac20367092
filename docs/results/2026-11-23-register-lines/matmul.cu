#include "regline.cuh"
// matmul (3 data structures): naive integer matrix product without shared
// memory. Each thread computes a contiguous run of output elements (row-major);
// its row of A is read with unit stride, B by columns.
extern "C" __global__ void matmul(const int *__restrict__ a, const int *__restrict__ b,
                                  int *__restrict__ c, unsigned long long n,
                                  unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long total = n * n;
  unsigned long long end = begin + chunk < total ? begin + chunk : total;
  for (unsigned long long e = begin; e < end; ++e) {
    unsigned long long row = e / n, col = e % n;
    int acc = 0;
    RL L0;
    for (unsigned long long k = 0; k < n; ++k)
      acc += (int)L0.u(a + row * n + k) * b[k * n + col];
    c[e] = acc;
  }
}
