// The .ftz modifier: subnormal operands flushed to sign-preserving zero (PTX §9.7.3
// "Subnormal numbers", 001_23fdd5978b24a3ed.txt).
#pragma once

#include <cstdint>

#include "numeric/format.h"

namespace ptxvm::numeric {

// Whether `bits` of f encode a subnormal: exponent field 0, mantissa not 0.
constexpr bool is_subnormal(const Format& f, uint64_t bits) {
  const uint64_t mag = (bits >> f.pad_bits) & ((uint64_t{1} << (f.exp_bits + f.man_bits)) - 1);
  return f.has_subnormals && mag != 0 && mag < (uint64_t{1} << f.man_bits);
}

// A subnormal flushed to sign-preserving zero when `ftz`; any other value unchanged.
constexpr uint64_t flush_input(const Format& f, uint64_t bits, bool ftz) {
  return ftz && is_subnormal(f, bits) ? bits & (f.sign_bit() << f.pad_bits) : bits;
}

}  // namespace ptxvm::numeric
