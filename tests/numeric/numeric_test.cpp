// Hand-checked values from the ISA text (PTX §5.2.3, §9.7.9.21 cvt, §9.7.9.22 cvt.pack in
// 001_23fdd5978b24a3ed.txt) for what the two oracles do not pin down: packing layouts,
// .rs, ue8m0, and consistency where hardware could not be recorded.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "numeric/classify.h"
#include "numeric/cvt_float.h"
#include "numeric/cvt_int.h"
#include "numeric/cvt_packed.h"
#include "numeric/f16_convert.h"
#include "numeric/lanes.h"

namespace ptxvm::numeric {
namespace {

constexpr uint32_t kOne = 0x3f800000, kTwo = 0x40000000, kNaN = 0x7fc00000, kInf = 0x7f800000;
constexpr FloatMods rn_satfinite{Round::RN, false, false, false, true, {}};

// The direct f16 conversions (numeric/f16_convert.h) against the general path, which tests/hw/cvt
// checks against sm_90: every f16, and every f32 whose low 12 bits take the values around a
// rounding point (the high 20 bits exhaustively cover every rounding position of a subnormal).
// With .ftz as without: sem/convert.cpp takes these paths for both.
TEST(F16Convert, SameBitsAsTheGeneralPath) {
  FloatMods ftz;
  ftz.ftz = true;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    ASSERT_EQ(f16_to_f32(uint16_t(h)), cvt_float(kF32, kF16, h, {})) << std::hex << h;
    ASSERT_EQ(f16_to_f32(uint16_t(h)), cvt_float(kF32, kF16, h, ftz)) << std::hex << h;
  }
  for (uint32_t hi = 0; hi < (1u << 20); ++hi)
    for (uint32_t lo : {0x000u, 0x001u, 0x7ffu, 0x800u, 0x801u, 0xfffu}) {
      const uint32_t f = hi << 12 | lo;
      ASSERT_EQ(f32_to_f16_rn(f), cvt_float(kF16, kF32, f, {})) << std::hex << f;
      ASSERT_EQ(f32_to_f16_rn(f), cvt_float(kF16, kF32, f, ftz)) << std::hex << f;
    }
}

TEST(Formats, LargestFiniteValues) {
  // MAX_NORM per §5.2.3: e4m3 448 (S.1111.110), e5m2 57344, e2m3 7.5, e3m2 28, e2m1 6.
  EXPECT_EQ(cvt_float(kF32, kE4M3, 0x7e, {}), 0x43e00000u);
  EXPECT_EQ(cvt_float(kF32, kE5M2, 0x7b, {}), 0x47600000u);
  EXPECT_EQ(cvt_float(kF32, kE2M3, 0x1f, {}), 0x40f00000u);
  EXPECT_EQ(cvt_float(kF32, kE3M2, 0x1f, {}), 0x41e00000u);
  EXPECT_EQ(cvt_float(kF32, kE2M1, 0x7, {}), 0x40c00000u);
  EXPECT_EQ(cvt_float(kF32, kUE8M0, 0xfe, {}), 0x7f000000u);  // 2^127
  EXPECT_EQ(cvt_float(kF32, kUE8M0, 0x00, {}), 0x00400000u);  // 2^-127, ue8m0 has no zero
  EXPECT_EQ(cvt_float(kF32, kUE4M3, 0x7e, {}), 0x43e00000u);
  EXPECT_EQ(decode(kUE4M3, 0x7f).cls, Class::NaN);
  EXPECT_EQ(decode(kE4M3, 0xff).cls, Class::NaN);
}

TEST(Satfinite, SubByteFormatsTakePositiveMaxForNaN) {
  // ".satfinite: for e2m1x2/e2m3x2/e3m2x2 ... NaN results are converted to positive MAX_NORM"
  EXPECT_EQ(cvt_float(kE2M1, kF32, kNaN, rn_satfinite), 0x7u);
  EXPECT_EQ(cvt_float(kE2M3, kF32, kNaN, rn_satfinite), 0x1fu);
  EXPECT_EQ(cvt_float(kE3M2, kF32, kNaN, rn_satfinite), 0x1fu);
  EXPECT_EQ(cvt_float(kE2M1, kF32, 0xff800000, rn_satfinite), 0xfu);  // -Inf -> -6
  EXPECT_EQ(cvt_float(kE4M3, kF32, kNaN, rn_satfinite), 0x7fu);       // e4m3 keeps NaN
  EXPECT_EQ(cvt_float(kE4M3, kF32, 0x49000000, rn_satfinite), 0x7eu);  // 524288 -> 448
}

TEST(Packed, OperandAGoesHigh) {
  FloatMods rn{};
  EXPECT_EQ(cvt_f32x2(kF16, kOne, kTwo, rn), 0x3c004000u);
  EXPECT_EQ(cvt_f32x2(kE2M1, kOne, kTwo, rn_satfinite), 0x24u);
  // e2m3x2/e3m2x2: each 8-bit half holds the 6-bit value with 2 zero MSBs; -1.0 is 0x28.
  EXPECT_EQ(cvt_f32x2(kE2M3, 0xbf800000, kOne, rn_satfinite), 0x2808u);
  EXPECT_EQ(cvt_f32x2(kUE8M0, kOne, kTwo, {Round::RZ}), 0x7f80u);
  // cvt.rn.f16x2.e2m1x2: a's high nibble -> d[31:16].
  EXPECT_EQ(cvt_x2(kF16, kE2M1, 0x24, {}), 0x3c004000u);
  EXPECT_EQ(cvt_x2(kBF16, kUE8M0, 0x7f80, {}), 0x3f804000u);
}

TEST(StochasticRounding, CarryOutOfDiscardedBitsRoundsAway) {
  // 1 + 2^-11 + 2^-23 in f32: f16 keeps 10 mantissa bits and discards 13, which hold
  // 0x1001. The carry needs rbits >= 0x2000 - 0x1001 = 0xfff.
  const uint32_t x = kOne | 0x1001;
  FloatMods m{Round::RS};
  m.rbits = {0xffe, 13};
  EXPECT_EQ(cvt_float(kF16, kF32, x, m), 0x3c00u);
  m.rbits = {0xfff, 13};
  EXPECT_EQ(cvt_float(kF16, kF32, x, m), 0x3c01u);
  // Negative values round away from zero too (magnitude up).
  m.rbits = {0x1fff, 13};
  EXPECT_EQ(cvt_float(kF16, kF32, x | 0x80000000u, m), 0xbc01u);
  // An exact value never moves.
  EXPECT_EQ(cvt_float(kF16, kF32, kOne, m), 0x3c00u);
}

TEST(StochasticRounding, RbitsLayouts) {
  // f16x2: 13 LSBs of each 16-bit half (a: high half).
  FloatMods m{Round::RS};
  m.rbits = {0x0fff0000u, 13};
  EXPECT_EQ(cvt_f32x2(kF16, kOne | 0x1001, kOne | 0x1001, m), 0x3c013c00u);
  // x4 forms: a and b draw on rbits[31:16], e and f on rbits[15:0]; e2m1x4: a rbits[31:24],
  // b rbits[15:8], e rbits[23:16], f rbits[7:0] (our reading of Figures 39/40).
  EXPECT_EQ(rs_bits_x4(kE4M3, 0x12345678u, 0).bits, 0x1234u);
  EXPECT_EQ(rs_bits_x4(kE4M3, 0x12345678u, 3).bits, 0x5678u);
  EXPECT_EQ(rs_bits_x4(kE2M1, 0x12345678u, 1).bits, 0x56u);
  EXPECT_EQ(rs_bits_x4(kE2M1, 0x12345678u, 2).bits, 0x34u);
  // 1.25 lies halfway between e2m1's 1.0 and 1.5: 8 discarded fraction bits 0x80.
  const uint32_t v[4] = {0x3fa00000, 0x3fa00000, kOne, kTwo};
  EXPECT_EQ(cvt_f32x4_rs(kE2M1, v, 0x80000000u, {}), 0x3224u);  // only a carries
  EXPECT_EQ(cvt_f32x4_rs(kE4M3, v, 0, {}), 0x3a3a3840u);
}

TEST(Ue8m0, FromBf16) {
  const FloatMods rz{Round::RZ}, rp{Round::RP};
  FloatMods rp_sat = rp;
  rp_sat.satfinite = true;
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0x3f80, rp), 127u);   // 1.0
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0x3f81, rp), 128u);   // just above 1.0 -> 2
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0x3f81, rz), 127u);
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0xbf81, rp), 128u);   // magnitude
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0x0000, rp), 0u);     // zero -> smallest (2^-127)
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0x7f80, rz), 0xffu);  // Inf -> NaN
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0x7f80, rp_sat), 0xfeu);
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0x7f7f, rp), 0xffu);  // rounds past 2^127
  EXPECT_EQ(cvt_float(kUE8M0, kBF16, 0x7f7f, rp_sat), 0xfeu);
}

TEST(CvtPack, SpecExample) {
  // cvt.pack.sat.u8.s32.b32 %r4, %r5, %r6, 0; then %r7, %r8, %r9, %r4 -> {r5, r6, r8, r9}.
  const uint32_t r4 = cvt_pack(IntType{8, false}, 300, static_cast<uint32_t>(-5), 0);
  EXPECT_EQ(r4, 0xff00u);
  EXPECT_EQ(cvt_pack(IntType{8, false}, 1, 2, r4), 0xff000102u);
  EXPECT_EQ(cvt_pack(IntType{2, true}, static_cast<uint32_t>(-7), 1, 0xffffffffu), 0xfffffff9u);
}

TEST(Bf16, EightBitIntegersAgreeWithSixteenBit) {
  // Not recordable with inline asm (ptxas rejects .b16 registers for s8/u8 with bf16);
  // the 16-bit forms are hardware-checked, and the 8-bit ones must be their clamps.
  for (uint32_t b = 0; b < 65536; ++b)
    for (Round r : {Round::RN, Round::RZ, Round::RM, Round::RP}) {
      const int64_t s16 = kS16.as_signed(cvt_float_to_int(kS16, kBF16, b, r));
      const bool nan = decode(kBF16, b).cls == Class::NaN;
      const int64_t s8 = nan ? 0 : s16 < -128 ? -128 : s16 > 127 ? 127 : s16;
      const int64_t u8 = nan ? 0 : s16 < 0 ? 0 : s16 > 255 ? 255 : s16;
      ASSERT_EQ(kS8.as_signed(cvt_float_to_int(kS8, kBF16, b, r)), s8) << b;
      ASSERT_EQ(cvt_float_to_int(kU8, kBF16, b, r), static_cast<uint64_t>(u8)) << b;
    }
  for (uint32_t v = 0; v < 256; ++v)
    for (Round r : {Round::RN, Round::RZ, Round::RM, Round::RP}) {
      ASSERT_EQ(cvt_int_to_float(kBF16, kS8, v, {r}), cvt_int_to_float(kBF16, kS16, kS8.as_signed(v) & 0xffff, {r}));
      ASSERT_EQ(cvt_int_to_float(kBF16, kU8, v, {r}), cvt_int_to_float(kBF16, kU16, v, {r}));
    }
}

TEST(Lanes, WarpLoopEqualsElementwise) {
  std::array<uint64_t, 32> a{}, d{}, i{};
  for (uint32_t l = 0; l < 32; ++l) a[l] = 0x3f800000u + l * 0x01234567u;
  cvt_float_lanes(kBF16, kF32, a, d, {Round::RN});
  cvt_float_to_int_lanes(kS32, kF32, a, i, Round::RZ, true);
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(d[l], cvt_float(kBF16, kF32, a[l], {Round::RN}));
    EXPECT_EQ(i[l], cvt_float_to_int(kS32, kF32, a[l], Round::RZ, true));
  }
}

TEST(Testp, ZeroCountsAsNormal) {
  EXPECT_TRUE(testp(TestOp::Normal, kF32, 0x80000000u));
  EXPECT_TRUE(testp(TestOp::Subnormal, kF64, 1));
  EXPECT_EQ(copysign(kF32, 0x80000000u, kOne), 0xbf800000u);
}

}  // namespace
}  // namespace ptxvm::numeric
