// kmeans (2 data structures; the centroids live in dynamic shared memory, as in
// the S-L1 paper, whose S-L1 switches itself off here; `driver-flags` declares
// the 1 KiB its launches give): assigns every point to its nearest centroid.
// Each thread handles a contiguous run of points.
extern "C" __global__ void kmeans(const int *__restrict__ points,
                                  const int *__restrict__ centroids, int *__restrict__ assign,
                                  unsigned long long n, unsigned long long chunk, unsigned int k,
                                  unsigned int dims) {
  extern __shared__ int c[];
  for (unsigned int i = threadIdx.x; i < k * dims; i += blockDim.x)
    c[i] = centroids[i];
  __syncthreads();
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long p = begin; p < end; ++p) {
    int best = 0;
    long long best_d = -1;
    for (unsigned int j = 0; j < k; ++j) {
      long long d = 0;
      for (unsigned int x = 0; x < dims; ++x) {
        long long diff = points[p * dims + x] - c[j * dims + x];
        d += diff * diff;
      }
      if (best_d < 0 || d < best_d) {
        best_d = d;
        best = (int)j;
      }
    }
    assign[p] = best;
  }
}
