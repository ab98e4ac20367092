// A dense switch: clang lowers it to a jump table (brx.idx) unless told
// -fno-jump-tables, which sl1-driver and the plugin alone both say.
extern "C" __global__ void classify(const unsigned char *in, int *out, unsigned long long n) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v;
  switch (in[i] & 15) {
  case 0: v = out[i] * 3; break;
  case 1: v = out[i] + 7; break;
  case 2: v = out[i] ^ 5; break;
  case 3: v = out[i] - 9; break;
  case 4: v = out[i] << 2; break;
  case 5: v = out[i] >> 1; break;
  case 6: v = out[i] | 8; break;
  case 7: v = out[i] & 6; break;
  default: v = 0;
  }
  out[i] = v;
}
