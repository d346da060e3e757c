// cvt involving integer types. PTX §9.7.9.21 cvt (001_23fdd5978b24a3ed.txt), "Integer Notes":
// float -> int rounds with .rni/.rzi/.rmi/.rpi, NaN -> 0, and always saturates to the
// destination range; int -> float rounds with .rn/.rz/.rm/.rp; int -> int truncates or,
// with .sat, clamps to MININT..MAXINT.
#pragma once

#include <bit>
#include <cstdint>

#include "numeric/cvt_float.h"
#include "numeric/decode.h"
#include "numeric/format.h"
#include "numeric/round.h"

namespace ptxvm::numeric {

struct IntType {
  uint8_t bits;  // 8, 16, 32, 64 (cvt.pack also uses 2 and 4)
  bool is_signed;
  constexpr uint64_t mask() const { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
  constexpr int64_t min() const { return is_signed ? -static_cast<int64_t>(mask() >> 1) - 1 : 0; }
  constexpr uint64_t max() const { return is_signed ? mask() >> 1 : mask(); }
  // The low `bits` of a register, sign-extended for signed types.
  constexpr int64_t as_signed(uint64_t v) const {
    v &= mask();
    if (is_signed && bits < 64 && (v >> (bits - 1) & 1)) v |= ~mask();
    return static_cast<int64_t>(v);
  }
  constexpr bool operator==(const IntType&) const = default;
};

inline constexpr IntType kU8{8, false}, kU16{16, false}, kU32{32, false}, kU64{64, false};
inline constexpr IntType kS8{8, true}, kS16{16, true}, kS32{32, true}, kS64{64, true};

// NaN -> integer. §9.7.9.21 says 0; sm_90 (tests/hw/cvt) writes 0 only for f16/bf16/f32
// sources and 8- to 32-bit results. From f64, and into 64-bit results, it writes the
// pattern 1 << (bits - 1) (MININT for signed types), for unsigned types too.
constexpr uint64_t nan_to_int(const IntType& dst, const Format& src) {
  if (src == kF64 || dst.bits == 64) return uint64_t{1} << (dst.bits - 1);
  return 0;
}

// Result bits are the low dst.bits of the register (zero-extended).
constexpr uint64_t cvt_float_to_int(const IntType& dst, const Format& src, uint64_t bits,
                                    Round irnd, bool ftz = false) {
  const Unpacked u = decode_input(src, bits, ftz);
  const uint64_t lo = static_cast<uint64_t>(dst.min()) & dst.mask();
  const uint64_t hi = dst.max();
  if (u.cls == Class::NaN) return nan_to_int(dst, src);
  if (u.cls == Class::Inf) return u.negative ? lo : hi;
  if (u.cls == Class::Zero) return 0;
  const int top = 63 - std::countl_zero(u.sig) + u.exp;  // floor(log2 |value|)
  if (top >= 64) return u.negative ? lo : hi;
  const uint64_t mag = round_to_quantum(u.sig, u.exp, 0, irnd, u.negative);
  if (u.negative) {
    if (mag == 0) return 0;
    if (!dst.is_signed) return 0;
    const uint64_t lim = static_cast<uint64_t>(-(dst.min() + 1)) + 1;  // |MININT|
    return mag >= lim ? lo : (0 - mag) & dst.mask();
  }
  return mag > hi ? hi : mag;
}

constexpr uint64_t cvt_int_to_float(const Format& dst, const IntType& src, uint64_t bits,
                                    const FloatMods& m) {
  const int64_t v = src.as_signed(bits);
  Unpacked u;
  u.negative = src.is_signed && v < 0;
  const uint64_t raw = bits & src.mask();
  u.sig = u.negative ? 0 - static_cast<uint64_t>(v) : raw;
  u.cls = u.sig ? Class::Normal : Class::Zero;
  return encode_value(dst, kF32, u, m);
}

constexpr uint64_t cvt_int_to_int(const IntType& dst, const IntType& src, uint64_t bits, bool sat) {
  if (!sat) return static_cast<uint64_t>(src.as_signed(bits)) & dst.mask();
  if (src.is_signed) {
    const int64_t v = src.as_signed(bits);
    if (v < dst.min()) return static_cast<uint64_t>(dst.min()) & dst.mask();
    if (v > 0 && static_cast<uint64_t>(v) > dst.max()) return dst.max();
    return static_cast<uint64_t>(v) & dst.mask();
  }
  const uint64_t v = bits & src.mask();
  return v > dst.max() ? dst.max() : v;
}

}  // namespace ptxvm::numeric
