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
  unsigned smem_bytes, a_bytes;  // the CTA's shared block: per warpgroup A's region (a_bytes), then B's
  const char* atype;
  const char* btype;
  const char* dtype;
  unsigned d_words, a_words, meta_words;  // per thread
  unsigned threads;                       // per CTA: 128 (one warpgroup) or 256 (two)
};

#define X(k, t, g, s, ab, at, bt, dt, nd, na, nm, th) {k, t, g, s, ab, at, bt, dt, nd, na, nm, th},
inline constexpr Text kTexts[] = {
#include "texts.inc"
};
#undef X

constexpr unsigned kCtas = 8;  // one per input mode of ../mma/inputs.h

// Arithmetic texts: three seeds (seed 1 fits the model, seeds 2-3 confirm it); layout, base
// offset and two-warpgroup texts one.
inline unsigned seeds(const Text& t) {
  const std::string g = t.group;
  return g == "wgmma_layout" || g == "wgmma_base" || g == "wgmma_wg2" ? 1 : 3;
}

inline uint64_t seed_of(const std::string& text, unsigned seed) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the text, then the seed number
  for (char ch : text) h = (h ^ uint8_t(ch)) * 0x100000001b3ull;
  return h ^ (uint64_t{seed} << 56);
}

inline unsigned in_words_per_cta(const Text& t) { return t.smem_bytes / 4 + t.threads * (t.d_words + t.a_words + t.meta_words); }
inline unsigned out_words_per_cta(const Text& t) { return t.threads * t.d_words; }

// The input words of all kCtas CTAs: per CTA its shared block (per warpgroup: A's region of A's
// type, B's of B's type), then per thread its accumulator, A and metadata words. CTA c draws in
// mode c.
inline std::vector<uint32_t> inputs(const Text& t, uint64_t seed) {
  using namespace ptxvm_hw_mma;
  std::vector<uint32_t> w;
  uint64_t s = seed;
  const bool tf32 = std::string(t.atype) == "tf32";
  for (unsigned cta = 0; cta < kCtas; ++cta) {
    const Mode m = Mode(cta % kModes);
    const int scale_ab = int(splitmix64(s) % 5) - 2;
    const int scale_c = m == kDominantC ? ((splitmix64(s) & 1) ? 1 : -1) * int(8 + splitmix64(s) % 24) : 2 * scale_ab;
    const unsigned warpgroups = t.threads / 128, block = t.smem_bytes / warpgroups;
    for (unsigned g = 0; g < warpgroups; ++g) {
      operand_words({"A", t.atype, t.a_bytes / 4}, m, scale_ab, tf32, s, w);
      operand_words({"B", t.btype, (block - t.a_bytes) / 4}, m, scale_ab, tf32, s, w);
    }
    for (unsigned thread = 0; thread < t.threads; ++thread) {
      operand_words({"c", t.dtype, t.d_words}, m, scale_c, tf32, s, w);
      if (t.a_words) operand_words({"a", t.atype, t.a_words}, m, scale_ab, tf32, s, w);
      if (t.meta_words) operand_words({"e", "meta", 1}, m, 0, tf32, s, w);
    }
  }
  return w;
}

}  // namespace ptxvm_hw_wgmma
