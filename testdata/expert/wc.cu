// wc as a performance engineer writes it (the suite's `expert` build,
// built by nvcc -O3): 16-byte loads in a grid-stride loop (a warp's request
// is 512 contiguous bytes), words and newlines counted four bytes per
// register operation (swar.cuh), the byte before each piece read once (it
// is in the piece the lane before loaded), counts summed over the warp
// and added once per warp. The signature is wc.cu's; the chunk is not
// needed. Text not 16-byte aligned takes the byte loop.
#include "swar.cuh"

__device__ inline bool sl1x_is_space(char c) { return c == ' ' || c == '\n' || c == '\t'; }

extern "C" __global__ void wc(const char *__restrict__ text,
                              unsigned long long *__restrict__ totals, unsigned long long n,
                              unsigned long long chunk) {
  (void)chunk;
  const unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  const unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  const bool aligned = ((uintptr_t)text & 15) == 0;
  const unsigned long long vectors = aligned ? n / 16 : 0;
  const uint4 *text4 = reinterpret_cast<const uint4 *>(text);
  unsigned long long words = 0, lines = 0;
  for (unsigned long long v = tid; v < vectors; v += threads) {
    uint4 x = __ldcs(text4 + v);
    bool prev_space = v == 0 || sl1x_is_space(text[16 * v - 1]);
    words += sl1x_word_starts4(x.x, &prev_space);
    words += sl1x_word_starts4(x.y, &prev_space);
    words += sl1x_word_starts4(x.z, &prev_space);
    words += sl1x_word_starts4(x.w, &prev_space);
    lines += sl1x_newlines4(x.x) + sl1x_newlines4(x.y) + sl1x_newlines4(x.z) +
             sl1x_newlines4(x.w);
  }
  for (unsigned long long i = vectors * 16 + tid; i < n; i += threads) {
    bool space = sl1x_is_space(text[i]);
    words += !space && (i == 0 || sl1x_is_space(text[i - 1]));
    lines += text[i] == '\n';
  }
  // Sum over the warp where every lane is here (the loops end in each
  // lane); a partial warp (a block size not a multiple of 32) adds per lane.
  const unsigned mask = __activemask();
  if (mask == 0xffffffffu) {
    for (int offset = 16; offset > 0; offset /= 2) {
      words += __shfl_down_sync(mask, words, offset);
      lines += __shfl_down_sync(mask, lines, offset);
    }
    if ((threadIdx.x & 31) != 0)
      return;
  }
  if (words)
    atomicAdd(&totals[0], words);
  if (lines)
    atomicAdd(&totals[1], lines);
}
