// dna, DNA assembly (3 data structures): the overlap step of an assembler that
// merges short reads into longer sequences. `reads` holds fixed-length reads
// (`len` bases of A, C, G, T or N, then '\n'); `table` is an open-addressing
// hash table of the reads' prefixes: slot s holds the first 32 bases packed two
// bits per base in table[2s] and the read's index in table[2s + 1] (~0 when
// empty). For each read, the kernel tries suffixes from the longest down to
// `min_overlap` bases: it looks the suffix's first 32 bases up in the table and
// compares the rest of the suffix with each candidate's prefix, allowing
// `max_mismatch` differing bases (sequencing errors). The first candidate that
// agrees is the read's successor: next[2r] is its index (~0 when none) and
// next[2r + 1] the overlap in bases (0 when none); chaining successors merges
// the reads into contigs. Each thread handles a contiguous run of reads.
#define K 32
#define NONE 0xffffffffu

__device__ inline int base2(char c) {
  return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : -1;
}

extern "C" __global__ void dna(const char *__restrict__ reads,
                               const unsigned long long *__restrict__ table,
                               unsigned *__restrict__ next, unsigned long long n,
                               unsigned long long chunk, unsigned int len,
                               unsigned int min_overlap, unsigned int max_mismatch,
                               unsigned int bits) {
  const unsigned long long empty = ~0ull, mask = (1ull << bits) - 1;
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  unsigned long long r = begin, at = 0;
  unsigned best = NONE, overlap = 0, s = 1;
  bool inner = false;
  while (true) {
    if (!inner) {
      if (r >= end) break;
      at = r * (len + 1);
      best = NONE; overlap = 0; s = 1; inner = true;
    }
    if (s + min_overlap <= len && best == NONE) {
      unsigned long long key = 0;
      bool valid = true;
      for (unsigned k = 0; k < K; ++k) {
        int b = base2(reads[at + s + k]);
        valid = valid && b >= 0;
        key = key << 2 | (unsigned long long)(b & 3);
      }
      if (valid) {
        unsigned long long slot = (key * 0x9E3779B97F4A7C15ull) >> (64 - bits);
        for (; table[2 * slot + 1] != empty && best == NONE; slot = (slot + 1) & mask) {
          unsigned long long j = table[2 * slot + 1];
          if (table[2 * slot] != key || j == r)
            continue;
          const unsigned long long at_j = j * (len + 1);
          unsigned mismatches = 0;
          for (unsigned k = K; k < len - s && mismatches <= max_mismatch; ++k)
            mismatches += reads[at + s + k] != reads[at_j + k];
          if (mismatches <= max_mismatch) {
            best = (unsigned)j;
            overlap = len - s;
          }
        }
      }
      ++s;
      continue;
    }
    next[2 * r] = best;
    next[2 * r + 1] = overlap;
    inner = false;
    ++r;
  }
}
