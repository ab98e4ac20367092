#include "regline.cuh"
// pvc, page view count (3 data structures): counts the hits per page in an
// Apache-style access log. Each thread handles the lines that start in its
// chunk: finds the requested path "/page/<id>.html", and counts the hit if the
// status is 200; a per-page weight table scales the count (bytes served).
__device__ inline unsigned long long parse_id(const char *__restrict__ log, unsigned long long i,
                                              unsigned long long n) {
  unsigned long long id = 0;
  while (i < n && log[i] >= '0' && log[i] <= '9')
    id = id * 10 + (log[i++] - '0');
  return id;
}

extern "C" __global__ void pvc(const char *__restrict__ log, const unsigned *__restrict__ weight,
                               unsigned long long *__restrict__ hits, unsigned long long n,
                               unsigned long long chunk, unsigned long long pages) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  RL L0, L1, L2;
  for (unsigned long long i = begin; i < end; ++i) {
    if (i != 0 && L0.c(log + i - 1) != '\n')
      continue;
    // "<ip> - - [date] \"GET /page/<id>.html HTTP/1.1\" <status> <bytes>\n"
    unsigned long long j = i;
    while (j < n && L1.c(log + j) != '"' && L1.c(log + j) != '\n')
      ++j;
    if (j + 11 >= n || log[j] != '"')
      continue;
    unsigned long long id = parse_id(log, j + 11, n);
    while (j < n && L1.c(log + j) != '\n' && !(L1.c(log + j) == '"' && L2.c(log + j + 1) == ' '))
      ++j;
    if (j + 5 >= n || log[j] != '"')
      continue;
    bool ok = log[j + 2] == '2' && log[j + 3] == '0' && log[j + 4] == '0';
    if (ok && id < pages)
      atomicAdd(&hits[id], (unsigned long long)weight[id]);
  }
}
