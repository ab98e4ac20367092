// Host check of the expert builds' four-byte rules (swar.cuh) against the
// byte rules of upper.cu and wc.cu, on every byte value in each position
// and on random words: driver/tests/cuda_builds.rs compiles and runs it.
#include "swar.cuh"

#include <cstdio>
#include <random>

static bool is_space(unsigned char c) { return c == ' ' || c == '\n' || c == '\t'; }

static unsigned char upper_byte(unsigned char b) {
  signed char c = static_cast<signed char>(b);
  return static_cast<unsigned char>((c >= 'a' && c <= 'z') ? c - ('a' - 'A') : c);
}

static int check(uint32_t w, bool prev_space) {
  uint32_t up = 0;
  unsigned starts = 0, newlines = 0;
  bool prev = prev_space;
  for (int k = 0; k < 4; ++k) {
    unsigned char b = static_cast<unsigned char>(w >> (8 * k));
    up |= static_cast<uint32_t>(upper_byte(b)) << (8 * k);
    starts += !is_space(b) && prev;
    newlines += b == '\n';
    prev = is_space(b);
  }
  bool swar_prev = prev_space;
  unsigned swar_starts = sl1x_word_starts4(w, &swar_prev);
  if (sl1x_upper4(w) != up || swar_starts != starts || swar_prev != prev ||
      sl1x_newlines4(w) != newlines) {
    std::printf("FAIL word %08x prev_space %d\n", w, prev_space);
    return 1;
  }
  return 0;
}

int main() {
  int failures = 0;
  const uint32_t fills[] = {0x00000000u, 0x20202020u, 0x61616161u, 0x0a0a0a0au, 0xffffffffu};
  for (uint32_t fill : fills)
    for (int k = 0; k < 4; ++k)
      for (uint32_t b = 0; b < 256; ++b) {
        uint32_t w = (fill & ~(0xffu << (8 * k))) | (b << (8 * k));
        failures += check(w, false) + check(w, true);
      }
  std::mt19937 rng(1);
  const unsigned char text[] = " \n\tazAZ`{@[x\x80\xe1\xfa";
  for (int i = 0; i < 1000000; ++i) {
    uint32_t w = 0;
    for (int k = 0; k < 4; ++k)
      w |= static_cast<uint32_t>(i % 2 ? text[rng() % (sizeof text - 1)] : rng() & 0xff) << (8 * k);
    failures += check(w, rng() & 1);
  }
  std::printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
  return failures != 0;
}
