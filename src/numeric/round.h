// Rounding of an exact magnitude sig * 2^exp to a multiple of 2^q, integers only.
// PTX §9.7.9.21 "Floating Point Notes" / "Integer Notes" (001_23fdd5978b24a3ed.txt):
// .rn/.rni ties to even, .rna ties away from zero, .rz/.rzi toward zero, .rm/.rmi toward
// -inf, .rp/.rpi toward +inf, .rs: round away from zero when adding the random bits to
// the discarded bits carries out.
#pragma once

#include <cstdint>

namespace ptxvm::numeric {

enum class Round : uint8_t { RN, RNA, RZ, RM, RP, RS };

// Random bits for .rs: `bits` holds `width` bits (13 for f16, 16 for bf16, 8 for the
// x4 forms). They are added to the `width` most significant discarded bits; discarded
// bits below those are truncated. (The ISA's Figures 37-40 only place the bits within
// rbits; this alignment makes the f16/bf16 case from f32 exact: 13 and 16 discarded bits.)
struct RandomBits {
  uint32_t bits = 0;
  uint8_t width = 0;
};

namespace detail {
// The `width` high bits of a `shift`-bit field whose value is `rem`.
constexpr uint64_t high_bits(uint64_t rem, unsigned shift, unsigned width) {
  if (shift >= width) return shift - width >= 64 ? 0 : rem >> (shift - width);
  return rem << (width - shift);
}
}  // namespace detail

// Returns k with k * 2^q the rounded value.
// Precondition: sig != 0 and, when q <= exp, sig << (exp - q) fits in 64 bits.
constexpr uint64_t round_to_quantum(uint64_t sig, int exp, int q, Round r, bool negative,
                                   RandomBits rb = {}) {
  if (q <= exp) return sig << (exp - q);
  const unsigned shift = static_cast<unsigned>(q - exp);
  uint64_t kept = 0, rem = sig;
  bool above_half = false, at_half = false;
  if (shift < 64) {
    kept = sig >> shift;
    rem = sig & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    above_half = rem > half;
    at_half = rem == half;
  } else if (shift == 64) {
    above_half = rem > (uint64_t{1} << 63);
    at_half = rem == (uint64_t{1} << 63);
  }
  if (rem == 0) return kept;
  bool up = false;
  switch (r) {
    case Round::RN: up = above_half || (at_half && (kept & 1)); break;
    case Round::RNA: up = above_half || at_half; break;
    case Round::RZ: up = false; break;
    case Round::RM: up = negative; break;
    case Round::RP: up = !negative; break;
    case Round::RS:
      up = detail::high_bits(rem, shift, rb.width) + rb.bits >= (uint64_t{1} << rb.width);
      break;
  }
  return kept + (up ? 1 : 0);
}

}  // namespace ptxvm::numeric
