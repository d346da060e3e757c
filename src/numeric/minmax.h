// min and max of two values of a format as bit patterns, with .ftz, .NaN and .xorsign.abs:
// PTX §9.7.3.11-12 and §9.7.4.7-8 (001_23fdd5978b24a3ed.txt).
#pragma once

#include <cstdint>

#include "numeric/compare.h"
#include "numeric/format.h"
#include "numeric/ftz.h"
#include "numeric/ieee_arith.h"
#include "numeric/modifiers.h"

namespace ptxvm::numeric {

// A NaN operand yields the other, two NaNs (or any NaN with .NaN) the canonical NaN (f64 on
// sm_90: b quieted); +0 > -0; .xorsign.abs compares magnitudes and gives the result the XOR of
// the operand signs (not to a NaN result). `flags`: kFtz, kNan, kXorsignAbs (modifiers.h).
constexpr uint64_t minmax(const Format& f, bool is_max, uint64_t a, uint64_t b, uint64_t flags) {
  const bool ftz = flags & kFtz, nan = flags & kNan, xorsign_abs = flags & kXorsignAbs;
  a = flush_input(f, a, ftz);
  b = flush_input(f, b, ftz);
  const uint64_t sign = f.sign_bit();
  const bool xs = ((a ^ b) & sign) != 0;
  if (xorsign_abs) a &= ~sign, b &= ~sign;
  const bool na = is_nan(f, a), nb = is_nan(f, b);
  if ((na && nb) || (nan && (na || nb))) return f == kF64 ? b | kQuiet64 : f.nan_bits;
  uint64_t d;
  if (na) d = b;
  else if (nb) d = a;
  else if (compare(Cmp::Eq, f, a, b)) d = ((a & sign) != 0) == is_max ? b : a;  // ±0: -0 < +0
  else d = compare(is_max ? Cmp::Gt : Cmp::Lt, f, a, b) ? a : b;
  if (xorsign_abs) d = (d & ~sign) | (xs ? sign : 0);
  return d;
}

}  // namespace ptxvm::numeric
