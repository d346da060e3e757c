// Packed cvt forms: .f16x2/.bf16x2 from two f32, the x2/x4 fp8/fp6/fp4/ue8m0 forms, their
// unpacking to .f16x2/.bf16x2, and cvt.pack for integers.
// PTX §9.7.9.21 cvt "Semantics" and rbits notes; §9.7.9.22 cvt.pack (001_23fdd5978b24a3ed.txt).
#pragma once

#include <cstdint>

#include "numeric/cvt_float.h"
#include "numeric/cvt_int.h"
#include "numeric/format.h"

namespace ptxvm::numeric {

// Bits each packed element takes in d: 16 (f16, bf16), 8 (e4m3, e5m2, ue8m0; e2m3 and
// e3m2 padded with 2 zero MSBs), 4 (e2m1).
constexpr unsigned packed_lane_bits(const Format& f) {
  return f.width() > 8 ? 16 : f.width() > 4 ? 8 : 4;
}

// cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2,e4m3x2,...,ue8m0x2}.f32 d, a, b: a goes high.
constexpr uint64_t cvt_f32x2(const Format& dst, uint32_t a, uint32_t b, FloatMods m) {
  const unsigned w = packed_lane_bits(dst);
  FloatMods ma = m, mb = m;
  if (m.round == Round::RS) {  // .f16x2/.bf16x2: rbits[31:16] for a, rbits[15:0] for b
    ma.rbits = {(m.rbits.bits >> 16) & ((1u << m.rbits.width) - 1), m.rbits.width};
    mb.rbits = {m.rbits.bits & ((1u << m.rbits.width) - 1), m.rbits.width};
  }
  return cvt_float(dst, kF32, a, ma) << w | cvt_float(dst, kF32, b, mb);
}

// Random bits of element i (0 = a, 1 = b, 2 = e, 3 = f) of cvt.rs.satfinite.x4.f32.
// §9.7.9.21: f8/f6 x4 use rbits[31:16] for a and b and rbits[15:0] for e and f; e2m1x4 uses
// the high bytes of the two halves for a and b and the low bytes for e and f. Figures
// 39/40 are not in the text we have; this is our reading, unverified on sm_100a hardware.
constexpr RandomBits rs_bits_x4(const Format& dst, uint32_t rbits, unsigned i) {
  if (packed_lane_bits(dst) == 4) {
    constexpr unsigned shift[4] = {24, 8, 16, 0};
    return {(rbits >> shift[i]) & 0xffu, 8};
  }
  return {(i < 2 ? rbits >> 16 : rbits) & 0xffffu, 16};
}

// cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32 d, {a, b, e, f}, rbits.
constexpr uint64_t cvt_f32x4_rs(const Format& dst, const uint32_t (&v)[4], uint32_t rbits,
                                FloatMods m) {
  const unsigned w = packed_lane_bits(dst);
  m.round = Round::RS;
  uint64_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    m.rbits = rs_bits_x4(dst, rbits, i);
    d = d << w | cvt_float(dst, kF32, v[i], m);
  }
  return d;
}

// Two packed elements of src (lanes of packed_lane_bits(src)) -> two of dst, high to high:
// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2, cvt.rn{.relu}.f16x2.{e4m3x2,...,e2m1x2},
// cvt.{rz,rp}{.satfinite}{.relu}.ue8m0x2.bf16x2, cvt.rn.bf16x2.ue8m0x2.
constexpr uint64_t cvt_x2(const Format& dst, const Format& src, uint64_t a, const FloatMods& m) {
  const unsigned wi = packed_lane_bits(src), wo = packed_lane_bits(dst);
  const uint64_t mask = (uint64_t{1} << wi) - 1;
  return cvt_float(dst, src, a >> wi & mask, m) << wo | cvt_float(dst, src, a & mask, m);
}

// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u2,s2,u4,s4,u8,s8}.s32.b32 d, a, b, c.
constexpr uint32_t cvt_pack(const IntType& t, uint32_t a, uint32_t b, uint32_t c = 0) {
  const uint64_t ta = cvt_int_to_int(t, kS32, a, true), tb = cvt_int_to_int(t, kS32, b, true);
  const uint64_t td = ta << t.bits | tb;
  if (t.bits == 16) return static_cast<uint32_t>(td);
  return static_cast<uint32_t>(td | static_cast<uint64_t>(c) << (2 * t.bits));
}

}  // namespace ptxvm::numeric
