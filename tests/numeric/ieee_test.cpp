// The IEEE operations on bit patterns (numeric/compare.h, minmax.h, ieee_arith.h, ftz.h, u128.h)
// on edge values of f32, f64, f16 and bf16: NaN, ±0, ±Inf, subnormals with and without .ftz.
// Comparisons: PTX §9.7.6.1 (001_23fdd5978b24a3ed.txt), checked against the host's IEEE
// comparisons of the same values; min/max §9.7.3.11-12 and §9.7.4.7-8; arithmetic §9.7.3.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "numeric/compare.h"
#include "numeric/ftz.h"
#include "numeric/ieee_arith.h"
#include "numeric/minmax.h"
#include "numeric/modifiers.h"
#include "numeric/round.h"
#include "numeric/u128.h"

namespace ptxvm::numeric {
namespace {

constexpr Cmp kAllCmp[] = {Cmp::Eq,  Cmp::Ne,  Cmp::Lt,  Cmp::Le,  Cmp::Gt,  Cmp::Ge,  Cmp::Equ,
                           Cmp::Neu, Cmp::Ltu, Cmp::Leu, Cmp::Gtu, Cmp::Geu, Cmp::Num, Cmp::Nan};

// The edge values of an IEEE format: ±0, the smallest and largest subnormals, the smallest
// normal, ±1, the largest finite value, ±Inf, a quiet NaN of either sign and a signalling NaN.
std::vector<uint64_t> edges(const Format& f) {
  const uint64_t s = f.sign_bit(), one = static_cast<uint64_t>(f.bias) << f.man_bits;
  const uint64_t inf = ((uint64_t{1} << f.exp_bits) - 1) << f.man_bits, quiet = uint64_t{1} << (f.man_bits - 1);
  const uint64_t small = 1, big_sub = (uint64_t{1} << f.man_bits) - 1, min_normal = uint64_t{1} << f.man_bits;
  std::vector<uint64_t> v;
  for (uint64_t m : {uint64_t{0}, small, big_sub, min_normal, one, f.max_code(), inf, inf | quiet, inf | 1})
    v.push_back(m), v.push_back(m | s);
  return v;
}

// The value of bits of f as a double (exact for these four formats), a subnormal as zero when
// `ftz`: written here from the format's fields, independently of decode.h.
double value(const Format& f, uint64_t bits, bool ftz) {
  const bool neg = bits & f.sign_bit();
  const uint64_t field = (bits >> f.man_bits) & ((uint64_t{1} << f.exp_bits) - 1);
  const uint64_t man = bits & ((uint64_t{1} << f.man_bits) - 1);
  double mag;
  if (field == (uint64_t{1} << f.exp_bits) - 1) mag = man ? NAN : INFINITY;
  else if (field == 0) mag = ftz ? 0.0 : std::ldexp(static_cast<double>(man), 1 - f.bias - f.man_bits);
  else mag = std::ldexp(static_cast<double>(man | (uint64_t{1} << f.man_bits)), static_cast<int>(field) - f.bias - f.man_bits);
  return neg ? -mag : mag;
}

// §9.7.6.1 Table 29: the host's IEEE comparison, ordered operators false with a NaN, `u` true.
bool reference(Cmp c, double a, double b) {
  const bool u = std::isnan(a) || std::isnan(b);
  switch (c) {
    case Cmp::Eq: return a == b;
    case Cmp::Ne: return !u && a != b;
    case Cmp::Lt: return a < b;
    case Cmp::Le: return a <= b;
    case Cmp::Gt: return a > b;
    case Cmp::Ge: return a >= b;
    case Cmp::Equ: return u || a == b;
    case Cmp::Neu: return a != b;
    case Cmp::Ltu: return !(a >= b);
    case Cmp::Leu: return !(a > b);
    case Cmp::Gtu: return !(a <= b);
    case Cmp::Geu: return !(a < b);
    case Cmp::Num: return !u;
    case Cmp::Nan: return u;
  }
  return false;
}

TEST(Compare, EveryOperatorOnEdgeValuesMatchesIeee) {
  for (const Format* f : {&kF32, &kF64, &kF16, &kBF16})
    for (bool ftz : {false, true})
      for (uint64_t a : edges(*f))
        for (uint64_t b : edges(*f))
          for (Cmp c : kAllCmp) {
            const bool want = reference(c, value(*f, a, ftz), value(*f, b, ftz));
            EXPECT_EQ(compare(c, *f, a, b, ftz), want)
                << "format bits " << f->width() << " cmp " << int(c) << " a " << std::hex << a << " b " << b << " ftz " << ftz;
            // The narrow integer types a warp's loop uses give the same answers.
            if (f->width() == 32) {
              EXPECT_EQ(compare(c, *f, uint32_t(a), uint32_t(b), ftz), want);
            } else if (f->width() == 16) {
              EXPECT_EQ(compare(c, *f, uint16_t(a), uint16_t(b), ftz), want);
            }
          }
}

TEST(Compare, HandPickedCases) {
  EXPECT_TRUE(compare(Cmp::Eq, kF32, uint64_t{0x80000000}, uint64_t{0}));         // -0 == +0
  EXPECT_FALSE(compare(Cmp::Eq, kF32, uint64_t{0x7fffffff}, uint64_t{0x7fffffff}));  // NaN != NaN
  EXPECT_TRUE(compare(Cmp::Neu, kF32, uint64_t{0x7fffffff}, uint64_t{0x7fffffff}));
  EXPECT_FALSE(compare(Cmp::Ne, kF64, uint64_t{0x7ff8000000000000}, uint64_t{0}));
  EXPECT_TRUE(compare(Cmp::Lt, kF16, uint64_t{0x8001}, uint64_t{0}));         // -2^-24 < 0
  EXPECT_FALSE(compare(Cmp::Lt, kF16, uint64_t{0x8001}, uint64_t{0}, true));  // .ftz: -0 == 0
  EXPECT_TRUE(compare(Cmp::Gt, kBF16, uint64_t{0x0001}, uint64_t{0}));
  EXPECT_TRUE(compare(Cmp::Lt, kF64, uint64_t{0xfff0000000000000}, uint64_t{0x8000000000000001}));  // -Inf < -tiny
  EXPECT_TRUE(compare(Cmp::Gtu, kBF16, uint64_t{0x7f81}, uint64_t{0x7f80}));  // sNaN: unordered
  EXPECT_TRUE(is_nan(kF16, uint64_t{0xfc01}));
  EXPECT_FALSE(is_nan(kF16, uint64_t{0xfc00}));
}

TEST(Ftz, FlushesSubnormalsOnly) {
  EXPECT_TRUE(is_subnormal(kF32, 0x00000001));
  EXPECT_TRUE(is_subnormal(kF32, 0x807fffff));
  EXPECT_FALSE(is_subnormal(kF32, 0x80000000));
  EXPECT_FALSE(is_subnormal(kF32, 0x00800000));
  EXPECT_EQ(flush_input(kF32, 0x807fffff, true), 0x80000000u);
  EXPECT_EQ(flush_input(kF32, 0x807fffff, false), 0x807fffffu);
  EXPECT_EQ(flush_input(kF64, 0x000fffffffffffff, true), 0u);
  EXPECT_EQ(flush_input(kF16, 0x83ff, true), 0x8000u);
  EXPECT_EQ(flush_input(kF16, 0x0400, true), 0x0400u);  // smallest normal
  EXPECT_EQ(flush_input(kBF16, 0x807f, true), 0x8000u);
  EXPECT_EQ(flush_input(kF32, 0x7fffffff, true), 0x7fffffffu);  // NaN kept
}

TEST(MinMax, ZerosNaNsAndModifiers) {
  // +0 > -0.
  EXPECT_EQ(minmax(kF32, true, 0x80000000, 0x00000000, 0), 0x00000000u);
  EXPECT_EQ(minmax(kF32, true, 0x00000000, 0x80000000, 0), 0x00000000u);
  EXPECT_EQ(minmax(kF32, false, 0x00000000, 0x80000000, 0), 0x80000000u);
  EXPECT_EQ(minmax(kF16, false, 0x8000, 0x0000, 0), 0x8000u);
  // A NaN operand yields the other; two NaNs, or one with .NaN, the canonical NaN.
  EXPECT_EQ(minmax(kF32, true, 0x7fc00000, 0x3f800000, 0), 0x3f800000u);
  EXPECT_EQ(minmax(kF32, false, 0xbf800000, 0xffc00001, 0), 0xbf800000u);
  EXPECT_EQ(minmax(kF32, true, 0x7fc00000, 0xffc00000, 0), 0x7fffffffu);
  EXPECT_EQ(minmax(kF32, true, 0x7fc00000, 0x3f800000, kNan), 0x7fffffffu);
  EXPECT_EQ(minmax(kBF16, false, 0x7f81, 0x3f80, kNan), 0x7fffu);
  EXPECT_EQ(minmax(kF16, true, 0x7e00, 0xfc00, 0), 0xfc00u);  // -Inf beats NaN
  // f64 on sm_90: two NaNs give b quieted.
  EXPECT_EQ(minmax(kF64, true, 0x7ff8000000000001, 0x7ff0000000000002, 0), 0x7ff8000000000002u);
  // Infinities and subnormals order as values; .ftz flushes a subnormal first.
  EXPECT_EQ(minmax(kF64, false, 0xfff0000000000000, 0x8000000000000001, 0), 0xfff0000000000000u);
  EXPECT_EQ(minmax(kF32, true, 0x00000001, 0x80000000, 0), 0x00000001u);
  EXPECT_EQ(minmax(kF32, true, 0x00000001, 0x80000000, kFtz), 0x00000000u);
  EXPECT_EQ(minmax(kF32, false, 0x00000001, 0x80000000, kFtz), 0x80000000u);
  // .xorsign.abs: the larger magnitude, with the XOR of the signs.
  EXPECT_EQ(minmax(kF32, true, 0xc0000000, 0x40400000, kXorsignAbs), 0xc0400000u);   // -2, 3 -> -3
  EXPECT_EQ(minmax(kF16, false, 0xc000, 0xc200, kXorsignAbs), 0x4000u);              // -2, -3 -> 2
  EXPECT_EQ(minmax(kF32, true, 0xffc00000, 0x40400000, kXorsignAbs), 0xc0400000u);   // NaN, 3 -> -3
  EXPECT_EQ(minmax(kBF16, true, 0xffc0, 0x7fc0, kXorsignAbs), 0x7fffu);               // NaN result unsigned
}

TEST(Arith, EdgeValues) {
  const uint64_t rz = static_cast<uint64_t>(Round::RZ), rm = static_cast<uint64_t>(Round::RM);
  // Invalid operations: the canonical NaN; f64's 0xfff8000000000000; +0 under .sat.
  EXPECT_EQ(arith(kF32, ArithOp::Add, 0x7f800000, 0xff800000, 0, rz), 0x7fffffffu);
  EXPECT_EQ(arith(kF16, ArithOp::Sqrt, 0xbc00, 0, 0, 0), 0x7fffu);
  EXPECT_EQ(arith(kBF16, ArithOp::Mul, 0x7f80, 0x0000, 0, 0), 0x7fffu);
  EXPECT_EQ(arith(kF64, ArithOp::Div, 0, 0x8000000000000000, 0, 0), 0xfff8000000000000u);
  EXPECT_EQ(arith(kF32, ArithOp::Mul, 0x7f800000, 0, 0, kSat), 0u);
  // f64 NaN operands pass quieted: b before c before a for fma.
  EXPECT_EQ(arith(kF64, ArithOp::Fma, 0x7ff0000000000001, 0x3ff0000000000000, 0x7ff0000000000003, 0),
            0x7ff8000000000003u);
  // An exact zero sum: +0, or -0 rounding toward -Inf.
  EXPECT_EQ(arith(kF32, ArithOp::Sub, 0x3f800000, 0x3f800000, 0, rz), 0u);
  EXPECT_EQ(arith(kF32, ArithOp::Sub, 0x3f800000, 0x3f800000, 0, rm), 0x80000000u);
  EXPECT_EQ(arith(kF16, ArithOp::Add, 0x8000, 0x8000, 0, 0), 0x8000u);
  // .ftz: subnormal inputs are zeros; a result tiny after rounding flushes (mul.ftz of 2^-126
  // by 1 - 2^-24 gives 0 on sm_90), one that rounds up to the smallest normal does not (fma.ftz
  // of 2^-126 * 2^-126 - 2^-126 gives -2^-126).
  EXPECT_EQ(arith(kF32, ArithOp::Add, 0x00000001, 0x80000000, 0, kFtz), 0u);
  EXPECT_EQ(arith(kF32, ArithOp::Add, 0x00000001, 0x80000000, 0, 0), 1u);
  EXPECT_EQ(arith(kF32, ArithOp::Mul, 0x00800000, 0x3f7fffff, 0, kFtz), 0u);
  EXPECT_EQ(arith(kF32, ArithOp::Mul, 0x00800000, 0x3f7fffff, 0, 0), 0x00800000u);  // a tie, to even
  EXPECT_EQ(arith(kF32, ArithOp::Fma, 0x00800000, 0x00800000, 0x80800000, kFtz), 0x80800000u);
  EXPECT_EQ(arith(kF16, ArithOp::Mul, 0x0400, 0x3bff, 0, kFtz), 0u);
  // Rounding of an overflow: .rz gives the largest finite value, .rn Inf.
  EXPECT_EQ(arith(kF16, ArithOp::Add, 0x7bff, 0x7bff, 0, rz), 0x7bffu);
  EXPECT_EQ(arith(kF16, ArithOp::Add, 0x7bff, 0x7bff, 0, 0), 0x7c00u);
  EXPECT_EQ(arith(kBF16, ArithOp::Add, 0x3f80, 0x3b80, 0, 0), 0x3f80u);  // 1 + 2^-8: tie to even
  EXPECT_EQ(arith(kF64, ArithOp::Sqrt, 0x4000000000000000, 0, 0, rz), 0x3ff6a09e667f3bccu);  // sqrt 2
}

TEST(U128, Helpers) {
  EXPECT_EQ(msb(1), 0);
  EXPECT_EQ(msb(u128{1} << 100), 100);
  EXPECT_TRUE(shift_sticky(0x100, 4) == 0x10);
  EXPECT_TRUE(shift_sticky(0x101, 4) == 0x11);
  EXPECT_TRUE(shift_sticky(5, 200) == 1);
  EXPECT_TRUE(isqrt(u128{1} << 126) == u128{1} << 63);
  EXPECT_TRUE(isqrt(99) == 9);
}

}  // namespace
}  // namespace ptxvm::numeric
