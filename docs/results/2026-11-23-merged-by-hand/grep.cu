// grep with its line loop merged into the main loop: one step of either per iteration.
extern "C" __global__ void grep(const char *__restrict__ text, const char *__restrict__ pattern,
                                unsigned char *__restrict__ match, unsigned long long n,
                                unsigned long long chunk, unsigned int plen) {
  __shared__ char pat[64];
  for (unsigned int k = threadIdx.x; k < plen && k < 64; k += blockDim.x)
    pat[k] = pattern[k];
  __syncthreads();
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  unsigned long long i = begin, j = 0;
  bool inner = false, found = false;
  while (true) {
    if (!inner) {
      if (i >= end) break;
      if (i != 0 && text[i - 1] != '\n') { ++i; continue; }
      found = false; j = i; inner = true;
    }
    if (j < n && text[j] != '\n' && !found) {
      unsigned int k = 0;
      while (k < plen && j + k < n && text[j + k] == pat[k])
        ++k;
      found = k == plen;
      ++j;
    } else {
      match[i] = found;
      inner = false;
      ++i;
    }
  }
}
