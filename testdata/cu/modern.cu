// C++ that CUDA programs are written in today, for the nvcc-style front end
// (sl1-nvcc) to build: thrust containers and algorithms with a device
// lambda, a templated kernel using CUB's block reduction and cooperative
// groups. Prints PASS when the GPU's sums are right.
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

#include <cstdio>

namespace cg = cooperative_groups;

template <typename T, int BLOCK>
__global__ void block_sum(const T *__restrict__ in, T *__restrict__ out, int n) {
  using Reduce = cub::BlockReduce<T, BLOCK>;
  __shared__ typename Reduce::TempStorage tmp;
  cg::thread_block block = cg::this_thread_block();
  T v = 0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) v += in[i];
  T s = Reduce(tmp).Sum(v);
  block.sync();
  if (threadIdx.x == 0) atomicAdd(out, s);
}

int main() {
  const int n = 1 << 20;
  thrust::device_vector<int> a(n, 1);
  thrust::transform(a.begin(), a.end(), a.begin(), [] __device__(int x) { return 2 * x; });
  const int total = thrust::reduce(a.begin(), a.end());
  thrust::device_vector<int> out(1, 0);
  block_sum<int, 256><<<64, 256>>>(thrust::raw_pointer_cast(a.data()),
                                   thrust::raw_pointer_cast(out.data()), n);
  const int sum = out[0];
  printf("%s\n", total == 2 * n && sum == 2 * n ? "PASS" : "FAIL");
  return 0;
}
