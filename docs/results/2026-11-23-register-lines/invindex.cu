#include "regline.cuh"
// invindex, inverted index (3 data structures): for every link
// `<a href="/doc/<id>">` in a collection of fixed-size HTML documents, records
// which documents link to <id>: a count and an order-independent hash of the
// linking documents. Each thread scans its own chunk one byte at a time.
extern "C" __global__ void invindex(const char *__restrict__ html,
                                    unsigned long long *__restrict__ links,
                                    unsigned long long *__restrict__ hash, unsigned long long n,
                                    unsigned long long chunk, unsigned long long doc_bytes,
                                    unsigned long long docs) {
  const char key[] = "href=\"/doc/";
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  RL L0, L1;
  for (unsigned long long i = begin; i < end; ++i) {
    unsigned k = 0;
    while (k < 11 && i + k < n && L0.c(html + i + k) == key[k])
      ++k;
    if (k != 11)
      continue;
    unsigned long long id = 0, j = i + 11;
    while (j < n && L1.c(html + j) >= '0' && L1.c(html + j) <= '9')
      id = id * 10 + (html[j++] - '0');
    if (id < docs) {
      unsigned long long source = i / doc_bytes;
      atomicAdd(&links[id], 1ull);
      atomicXor(&hash[id], (source + 1) * 0x9E3779B97F4A7C15ull);
    }
  }
}
