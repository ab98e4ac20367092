// opinion, opinion finder (4 data structures): the sentiment of the tweets
// about a subject. `tweets` holds one tweet per line; `keywords` the subject,
// lowercase words in 16-byte zero-padded slots; `lexicon` a sentiment lexicon,
// an open-addressing hash table keyed by the FNV-1a hash of a lowercase word
// (hash 0: an empty slot) whose entries give the word's score (-2 to 2) or mark
// it as a negation ("not", "never", ...), which flips the score of the word
// right after it. A word is a run of letters, digits, '#', '@', '\'' and '_',
// compared without case. Each thread handles the tweets that start in its
// chunk and writes, at the tweet's first byte, the sum of its words' scores
// (clamped to -127..127) if one of its words is a keyword, or -128 if not.
struct Entry {
  unsigned long long hash;
  int score;
  int negator;
};

__device__ inline char lower(char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

__device__ inline bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '#' || c == '@' || c == '\'' || c == '_';
}

extern "C" __global__ void opinion(const char *__restrict__ tweets,
                                   const char *__restrict__ keywords,
                                   const Entry *__restrict__ lexicon,
                                   signed char *__restrict__ scores, unsigned long long n,
                                   unsigned long long chunk, unsigned int nkeywords,
                                   unsigned long long mask) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  unsigned long long i = begin, j = 0;
  int score = 0;
  bool about = false, negate = false, inner = false;
  while (true) {
    if (!inner) {
      if (i >= end) break;
      if (i != 0 && tweets[i - 1] != '\n') { ++i; continue; }
      score = 0; about = false; negate = false; j = i; inner = true;
    }
    if (j < n && tweets[j] != '\n') {
      if (!is_word(tweets[j])) {
        ++j;
        continue;
      }
      unsigned long long w = j, h = 0xcbf29ce484222325ull;
      while (j < n && is_word(tweets[j])) {
        h = (h ^ (unsigned char)lower(tweets[j])) * 0x100000001b3ull;
        ++j;
      }
      unsigned long long len = j - w;
      for (unsigned k = 0; k < nkeywords && !about; ++k) {
        unsigned long long m = 0;
        while (m < len && m < 16 && keywords[16 * k + m] == lower(tweets[w + m]))
          ++m;
        about = m == len && (len == 16 || keywords[16 * k + len] == 0);
      }
      unsigned long long slot = h & mask;
      while (lexicon[slot].hash != 0 && lexicon[slot].hash != h)
        slot = (slot + 1) & mask;
      bool next_negate = false;
      if (lexicon[slot].hash == h) {
        if (lexicon[slot].negator)
          next_negate = true;
        else
          score += negate ? -lexicon[slot].score : lexicon[slot].score;
      }
      negate = next_negate;
      continue;
    }
    scores[i] = about ? (signed char)(score < -127 ? -127 : score > 127 ? 127 : score) : -128;
    inner = false;
    ++i;
  }
}
