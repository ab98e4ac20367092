// merge_bins (a small fixed grid sums per-block partial results with a
// grid-stride loop, as HeCBench tpacf's mergeKernel merges sub-histograms):
// out[t] = in[t] + in[t + T] + in[t + 2T] + ... for the grid's T threads.
// Few threads walk much memory: each waits a memory latency per element
// unless the loop is unrolled.
extern "C" __global__ void merge_bins(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                                      int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int threads = gridDim.x * blockDim.x;
  unsigned sum = 0;
  for (int i = t; i < n; i += threads)
    sum += in[i];
  out[t] = sum;
}
