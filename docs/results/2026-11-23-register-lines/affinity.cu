#include "regline.cuh"
// affinity, MasterCard affinity (3 data structures): for the customers of a
// target merchant (marked in `loyal`), counts their transactions per merchant.
// Each thread walks its own run of (customer, merchant) records.
extern "C" __global__ void affinity(const unsigned *__restrict__ tx,
                                    const unsigned char *__restrict__ loyal,
                                    unsigned long long *__restrict__ visits, unsigned long long n,
                                    unsigned long long chunk, unsigned int merchants) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  RL L0;
  for (unsigned long long i = begin; i < end; ++i) {
    unsigned customer = L0.u(tx + 2 * i), merchant = L0.u(tx + 2 * i + 1);
    if (loyal[customer] && merchant < merchants)
      atomicAdd(&visits[merchant], 1ull);
  }
}
