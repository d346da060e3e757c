// An exact sum of floating-point terms (products of two elements and accumulators, up to f64 x f64)
// and its one rounding into a format: the arithmetic under every tensor-core model (arith.h).
#pragma once

#include <array>
#include <cstdint>

#include "numeric/format.h"
#include "numeric/round.h"

namespace ptxvm::mma {

__extension__ typedef unsigned __int128 u128;  // GCC/Clang: products of two f64 significands

// Two's-complement fixed point: bit 0 weighs 2^kLowExp, which is below the least significant
// bit of any product of two f64 subnormals (2^-2148); 4608 bits reach above 2^2300.
class ExactSum {
public:
  static constexpr int kLowExp = -2240;
  static constexpr int kLimbs = 72;

  // Adds (-1)^negative * sig * 2^exp; sig < 2^128, exp >= kLowExp.
  void add(bool negative, u128 sig, int exp);
  bool zero() const;
  bool negative() const { return limbs_[kLimbs - 1] >> 63; }
  // The value rounded into `f` with `r`: IEEE bits (sign, exponent, mantissa). Overflow gives
  // infinity, or the largest finite value where `r` rounds toward zero from that side unless
  // `overflow_to_inf`. The sum must not be zero.
  uint64_t round(const numeric::Format& f, numeric::Round r, bool overflow_to_inf = false) const;

private:
  std::array<uint64_t, kLimbs> limbs_{};
};

}  // namespace ptxvm::mma
