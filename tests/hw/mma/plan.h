// How much each instruction text is recorded with, and in which file: shared by record_mma.cu and
// tests/sem/mma_hw_test.cpp.
#pragma once

#include <cstdint>
#include <string>

namespace ptxvm_hw_mma {

struct Plan {
  unsigned seeds, warps;  // warps per seed, a multiple of 8 (one per input mode) and of 4 (CTA)
};

// Arithmetic texts: three seeds (seed 1 fits the model, seeds 2-3 confirm it) of >= 4096 output
// words each; register-layout texts (load, store, ldmatrix, ...): one seed of 8 warps.
inline Plan plan(char tmpl, unsigned out_words) {
  if (tmpl != 'R' || out_words == 1) return {1, 8};
  unsigned warps = (4096 / 32 + out_words - 1) / out_words;
  return {3, (warps + 7) / 8 * 8};
}

inline uint64_t seed_of(const std::string& text, unsigned seed) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the text, then the seed number
  for (char ch : text) h = (h ^ uint8_t(ch)) * 0x100000001b3ull;
  return h ^ (uint64_t{seed} << 56);
}

inline std::string group_of(const std::string& text) {
  if (text.rfind("wmma.mma", 0) == 0) return "wmma_mma";
  if (text.rfind("wmma", 0) == 0 || text.rfind("ldmatrix", 0) == 0 || text.rfind("stmatrix", 0) == 0 ||
      text.rfind("movmatrix", 0) == 0)
    return "layouts";
  if (text.rfind("mma.sp", 0) == 0) return "mma_sp";
  if (text.find(".f64.f64") != std::string::npos) return "mma_f64";
  if (text.find(".s32") != std::string::npos) return "mma_int";
  if (text.find(".e4m3") != std::string::npos || text.find(".e5m2") != std::string::npos) return "mma_fp8";
  return "mma_float";
}

}  // namespace ptxvm_hw_mma
