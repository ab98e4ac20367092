__device__ inline unsigned long long parse_id(const char *__restrict__ log, unsigned long long i,
                                              unsigned long long n) {
  unsigned long long id = 0;
  while (i < n && log[i] >= '0' && log[i] <= '9')
    id = id * 10 + (log[i++] - '0');
  return id;
}
// pvc with its first scan merged into the main loop.
extern "C" __global__ void pvc(const char *__restrict__ log, const unsigned *__restrict__ weight,
                               unsigned long long *__restrict__ hits, unsigned long long n,
                               unsigned long long chunk, unsigned long long pages) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  unsigned long long i = begin, j = 0;
  bool inner = false;
  while (true) {
    if (!inner) {
      if (i >= end) break;
      if (i != 0 && log[i - 1] != '\n') { ++i; continue; }
      j = i; inner = true;
    }
    if (j < n && log[j] != '"' && log[j] != '\n') { ++j; continue; }
    inner = false;
    if (!(j + 11 >= n || log[j] != '"')) {
      unsigned long long id = parse_id(log, j + 11, n);
      while (j < n && log[j] != '\n' && !(log[j] == '"' && log[j + 1] == ' '))
        ++j;
      if (!(j + 5 >= n || log[j] != '"')) {
        bool ok = log[j + 2] == '2' && log[j + 3] == '0' && log[j + 4] == '0';
        if (ok && id < pages)
          atomicAdd(&hits[id], (unsigned long long)weight[id]);
      }
    }
    ++i;
  }
}
