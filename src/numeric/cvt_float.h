// cvt between floating-point formats (and float rounding to an integral value).
// PTX §9.7.9.21 cvt (001_23fdd5978b24a3ed.txt): "Floating Point Notes" (.rn .rna .rz .rm
// .rp .rs, .ftz, .sat, .relu, .satfinite) and "Integer Notes" (.rni .rzi .rmi .rpi).
#pragma once

#include <cstdint>

#include "numeric/decode.h"
#include "numeric/encode.h"
#include "numeric/format.h"
#include "numeric/round.h"

namespace ptxvm::numeric {

struct FloatMods {
  Round round = Round::RN;
  bool ftz = false;        // flush f32 subnormal inputs and results to signed zero
  bool sat = false;        // clamp to [0.0, 1.0]; NaN -> +0.0
  bool relu = false;       // negative results -> +0; NaN -> canonical NaN
  bool satfinite = false;  // out-of-range -> +-MAX_NORM; NaN rules per format (see below)
  RandomBits rbits{};      // .rs only
};

namespace detail {

constexpr uint64_t with_sign(const Format& f, bool negative, uint64_t code) {
  return ((negative ? f.sign_bit() : 0) | code) << f.pad_bits;
}

constexpr uint64_t one_code(const Format& f) {  // 1.0
  return static_cast<uint64_t>(f.bias) << f.man_bits;
}

constexpr bool is_f32(const Format& f) { return f == kF32; }

// NaN result. §9.7.9.21: .sat flushes NaN to +0; with .satfinite, formats without NaN take
// +MAX_NORM. Otherwise the ISA leaves the NaN open; sm_90 (tests/hw/cvt) writes the
// canonical NaN of dst, except: conversions to or from f64 keep sign and payload (the
// payload's high bits, quiet bit set), and bf16 -> f32 is a plain 16-bit shift.
constexpr uint64_t nan_result(const Format& dst, const Format& src, const Unpacked& u,
                              const FloatMods& m) {
  if (m.sat) return 0;
  if (dst.specials == Specials::None) return with_sign(dst, false, dst.max_code());
  if (dst == kTF32 && m.round == Round::RNA) {  // sm_90: the NaN truncated to tf32, which
    uint64_t code = (dst.max_code() + 1) | u.sig >> 13;  // may read as Inf; .satfinite
    return with_sign(dst, u.negative, m.satfinite ? code - 1 : code);  // then subtracts 1 ulp
  }
  const bool keep = dst == kF64 || src == kF64;
  if (!keep && !(is_f32(dst) && src == kBF16)) return dst.nan_bits;
  const int shift = dst.man_bits - src.man_bits;
  const uint64_t payload = shift >= 0 ? u.sig << shift : u.sig >> -shift;
  const uint64_t quiet = keep ? uint64_t{1} << (dst.man_bits - 1) : 0;
  return with_sign(dst, u.negative, (dst.max_code() + 1) | quiet | payload);
}

// A value beyond MAX_NORM (or an infinity) of the given sign, rounded with m.round.
constexpr uint64_t overflow_result(const Format& f, bool negative, const FloatMods& m) {
  if (m.sat) return negative ? 0 : with_sign(f, false, one_code(f));
  if (m.relu && negative) return 0;
  if (!f.is_signed) negative = false;  // ue8m0: "positive MAX_NORM", no sign
  const uint64_t max = with_sign(f, negative, f.max_code());
  if (m.satfinite) return max;
  if (f.specials != Specials::Ieee) return f.specials == Specials::None ? max : f.nan_bits;
  const uint64_t inf = with_sign(f, negative, f.max_code() + 1);
  switch (m.round) {
    case Round::RZ: return max;
    case Round::RM: return negative ? inf : max;
    case Round::RP: return negative ? max : inf;
    default: return inf;
  }
}

}  // namespace detail

// Convert an already decoded value of format src into dst (the shared tail of every
// float-producing cvt; src only matters for NaN payloads).
constexpr uint64_t encode_value(const Format& dst, const Format& src, Unpacked u,
                                const FloatMods& m) {
  using namespace detail;
  if (u.cls == Class::NaN) return nan_result(dst, src, u, m);
  if (!dst.is_signed) u.negative = false;  // ue8m0/ue4m3 take the magnitude
  if (u.cls == Class::Inf) {  // infinities stay infinite whatever the rounding mode
    if (m.sat || m.satfinite || (m.relu && u.negative) || dst.specials != Specials::Ieee)
      return overflow_result(dst, u.negative, m);
    return with_sign(dst, u.negative, dst.max_code() + 1);
  }
  if ((m.relu || m.sat) && u.negative) return 0;
  if (u.cls == Class::Zero) return with_sign(dst, u.negative, 0);
  const Encoded e = encode_magnitude(dst, u.negative, u.sig, u.exp, m.round, m.rbits);
  if (e.overflow) return overflow_result(dst, u.negative, m);
  if (m.sat && e.code > one_code(dst)) return with_sign(dst, false, one_code(dst));
  if (m.ftz && is_f32(dst) && e.code < (uint64_t{1} << dst.man_bits))
    return with_sign(dst, u.negative, 0);
  return with_sign(dst, u.negative, e.code);
}

// .ftz on an f32 source flushes subnormals to signed zero; sm_90 also replaces a NaN by
// the canonical f32 NaN there (visible in cvt.ftz.f64.f32). sm_90 ignores .ftz on the
// input of cvt.f16.f32 (cvt.rp.ftz.f16.f32 of the smallest subnormal gives 0x0001).
constexpr Unpacked decode_input(const Format& src, uint64_t bits, bool ftz) {
  if (ftz && detail::is_f32(src)) {
    Unpacked u = decode(src, bits);
    if (u.cls == Class::Subnormal) u.cls = Class::Zero;
    if (u.cls == Class::NaN) u = decode(src, src.nan_bits);
    return u;
  }
  return decode(src, bits);
}

// cvt{.frnd}{.ftz}{.sat}{.relu}{.satfinite}.dst.src for one element.
constexpr uint64_t cvt_float(const Format& dst, const Format& src, uint64_t bits,
                             const FloatMods& m) {
  return encode_value(dst, src, decode_input(src, bits, m.ftz && !(dst == kF16)), m);
}

// cvt.{rni,rzi,rmi,rpi}{.ftz}{.sat}.f.f: round to an integral value in the same format.
// m.round holds the integer rounding (RN = .rni, RZ = .rzi, RM = .rmi, RP = .rpi).
constexpr uint64_t cvt_round_integral(const Format& f, uint64_t bits, const FloatMods& m) {
  Unpacked u = decode_input(f, bits, m.ftz);
  if (u.finite_nonzero() && u.exp < 0) {
    u.sig = round_to_quantum(u.sig, u.exp, 0, m.round, u.negative);
    u.exp = 0;
    if (u.sig == 0) u.cls = Class::Zero;
  }
  FloatMods exact = m;
  exact.round = Round::RZ;  // the value is now representable
  return encode_value(f, f, u, exact);
}

}  // namespace ptxvm::numeric
