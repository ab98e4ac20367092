// invindex with its key comparison merged into the main loop.
extern "C" __global__ void invindex(const char *__restrict__ html,
                                    unsigned long long *__restrict__ links,
                                    unsigned long long *__restrict__ hash, unsigned long long n,
                                    unsigned long long chunk, unsigned long long doc_bytes,
                                    unsigned long long docs) {
  const char key[] = "href=\"/doc/";
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  unsigned long long i = begin;
  unsigned k = 0;
  bool inner = false;
  while (true) {
    if (!inner) {
      if (i >= end) break;
      k = 0; inner = true;
    }
    if (k < 11 && i + k < n && html[i + k] == key[k]) { ++k; continue; }
    inner = false;
    if (k == 11) {
      unsigned long long id = 0, j = i + 11;
      while (j < n && html[j] >= '0' && html[j] <= '9')
        id = id * 10 + (html[j++] - '0');
      if (id < docs) {
        unsigned long long source = i / doc_bytes;
        atomicAdd(&links[id], 1ull);
        atomicXor(&hash[id], (source + 1) * 0x9E3779B97F4A7C15ull);
      }
    }
    ++i;
  }
}
