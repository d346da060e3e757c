// IEEE comparison of two values of any format given as bit patterns: the floating-point
// operators of setp and set, PTX §9.7.6.1 Table 29-30 and §9.7.7 (001_23fdd5978b24a3ed.txt).
// The ordered operators are false when either operand is NaN, the unordered (`u`) ones true;
// -0 equals +0; .ftz compares a subnormal as a zero of its sign.
#pragma once

#include <cstdint>
#include <type_traits>

#include "numeric/format.h"

namespace ptxvm::numeric {

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };

// U is the unsigned integer type the comparison runs in (uint32_t for f32 keeps a warp's loop in
// 32-bit vector lanes); it must hold the format's container. (Plain values, no struct: a loop
// over lanes then vectorises.)

// The magnitude code of `bits` (sign and padding removed), 0 for a subnormal under `ftz`.
template <typename U>
constexpr U magnitude(const Format& f, U bits, bool ftz) {
  const U mag = static_cast<U>((bits >> f.pad_bits) & ((uint64_t{1} << (f.exp_bits + f.man_bits)) - 1));
  return ftz && f.has_subnormals && mag < (U{1} << f.man_bits) ? 0 : mag;
}

// Whether a magnitude code is NaN.
template <typename U>
constexpr bool nan_magnitude(const Format& f, U mag) {
  const uint64_t all = (uint64_t{1} << (f.exp_bits + f.man_bits)) - 1;
  const uint64_t top = ((uint64_t{1} << f.exp_bits) - 1) << f.man_bits;  // exponent all ones
  switch (f.specials) {
    case Specials::Ieee: return mag > top;
    case Specials::NanAllOnes: return mag == all;
    case Specials::NanMaxExp: return mag >= top;
    case Specials::None: return false;
  }
  return false;
}

template <typename U>
constexpr bool is_nan(const Format& f, U bits) {
  return nan_magnitude(f, magnitude(f, bits, false));
}

// An integer that orders as the value does: the magnitude code, negated for a negative value
// (both zeros are 0).
template <typename U>
constexpr std::make_signed_t<U> order_key(const Format& f, U bits, U mag) {
  using S = std::make_signed_t<U>;
  const bool negative = f.is_signed && ((bits >> (f.pad_bits + f.exp_bits + f.man_bits)) & 1);
  return negative ? static_cast<S>(-static_cast<S>(mag)) : static_cast<S>(mag);
}

// a `c` b for two values of f. Bitwise & and | rather than && and ||: no branch per value, so
// that a loop over a warp's lanes vectorises.
template <typename U>
constexpr bool compare(Cmp c, const Format& f, U a, U b, bool ftz = false) {
  const U ma = magnitude(f, a, ftz), mb = magnitude(f, b, ftz);
  const auto ka = order_key(f, a, ma), kb = order_key(f, b, mb);
  const bool u = nan_magnitude(f, ma) | nan_magnitude(f, mb), eq = ka == kb, lt = ka < kb, gt = kb < ka;
  switch (c) {
    case Cmp::Eq: return !u & eq;
    case Cmp::Ne: return !u & !eq;
    case Cmp::Lt: return !u & lt;
    case Cmp::Le: return !u & !gt;
    case Cmp::Gt: return !u & gt;
    case Cmp::Ge: return !u & !lt;
    case Cmp::Equ: return u | eq;
    case Cmp::Neu: return u | !eq;
    case Cmp::Ltu: return u | lt;
    case Cmp::Leu: return u | !gt;
    case Cmp::Gtu: return u | gt;
    case Cmp::Geu: return u | !lt;
    case Cmp::Num: return !u;
    case Cmp::Nan: return u;
  }
  return false;
}

}  // namespace ptxvm::numeric
