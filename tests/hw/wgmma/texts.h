// The warpgroup MMA texts of texts.inc as a table, their inputs and how much each is recorded:
// shared by record_wgmma.cu and tests/units/wgmma_hw_test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../mma/inputs.h"

namespace ptxvm_hw_wgmma {

struct Text {
  const char* kernel;  // in wgmma_kernels.ptx
  const char* text;    // the instruction and its operands' layouts (gen_kernels.py text_of)
  const char* group;   // the .bin.xz file
  unsigned smem_bytes, a_bytes;  // the CTA's shared block: A's region, then B's
  const char* atype;
  const char* btype;
  const char* dtype;
  unsigned d_words, a_words, meta_words;  // per thread
};

#define X(k, t, g, s, ab, at, bt, dt, nd, na, nm) {k, t, g, s, ab, at, bt, dt, nd, na, nm},
inline constexpr Text kTexts[] = {
#include "texts.inc"
};
#undef X

constexpr unsigned kCtas = 8;  // one per input mode of ../mma/inputs.h

// Arithmetic texts: three seeds (seed 1 fits the model, seeds 2-3 confirm it); layout texts one.
inline unsigned seeds(const Text& t) { return std::string(t.group) == "wgmma_layout" ? 1 : 3; }

inline uint64_t seed_of(const std::string& text, unsigned seed) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the text, then the seed number
  for (char ch : text) h = (h ^ uint8_t(ch)) * 0x100000001b3ull;
  return h ^ (uint64_t{seed} << 56);
}

inline unsigned in_words_per_cta(const Text& t) { return t.smem_bytes / 4 + 128 * (t.d_words + t.a_words + t.meta_words); }

// The input words of all kCtas CTAs: per CTA its shared block (A's region of A's type, B's of B's
// type), then per thread its accumulator, A and metadata words. CTA c draws in mode c.
inline std::vector<uint32_t> inputs(const Text& t, uint64_t seed) {
  using namespace ptxvm_hw_mma;
  std::vector<uint32_t> w;
  uint64_t s = seed;
  const bool tf32 = std::string(t.atype) == "tf32";
  for (unsigned cta = 0; cta < kCtas; ++cta) {
    const Mode m = Mode(cta % kModes);
    const int scale_ab = int(splitmix64(s) % 5) - 2;
    const int scale_c = m == kDominantC ? ((splitmix64(s) & 1) ? 1 : -1) * int(8 + splitmix64(s) % 24) : 2 * scale_ab;
    operand_words({"A", t.atype, t.a_bytes / 4}, m, scale_ab, tf32, s, w);
    operand_words({"B", t.btype, (t.smem_bytes - t.a_bytes) / 4}, m, scale_ab, tf32, s, w);
    for (unsigned thread = 0; thread < 128; ++thread) {
      operand_words({"c", t.dtype, t.d_words}, m, scale_c, tf32, s, w);
      if (t.a_words) operand_words({"a", t.atype, t.a_words}, m, scale_ab, tf32, s, w);
      if (t.meta_words) operand_words({"e", "meta", 1}, m, 0, tf32, s, w);
    }
  }
  return w;
}

}  // namespace ptxvm_hw_wgmma
