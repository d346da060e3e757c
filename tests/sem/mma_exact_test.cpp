// The `exact` tensor model (src/mma/arith.h): every product and C summed exactly, one rounding to
// nearest even. Checked against an independent reference: the terms are summed in __float128,
// which holds every such sum exactly when the exponents of C and the products span less than its
// 113-bit significand, and GCC converts that sum to float / _Float16 with one correct rounding.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "mma/arith.h"

namespace ptxvm::test {
namespace {

using mma::Type;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Value of an element, for the reference (formats with subnormals and IEEE specials excluded).
__float128 value(Type t, uint64_t bits) {
  int e, m, bias;
  switch (t) {
  case Type::F16: e = 5, m = 10, bias = 15; break;
  case Type::BF16: e = 8, m = 7, bias = 127; break;
  case Type::E4M3: e = 4, m = 3, bias = 7; break;
  case Type::E5M2: e = 5, m = 2, bias = 15; break;
  default: e = 8, m = 23, bias = 127; break;  // f32
  }
  const bool neg = (bits >> (e + m)) & 1;
  const int field = int(bits >> m) & ((1 << e) - 1);
  const uint64_t man = bits & ((uint64_t{1} << m) - 1);
  __float128 v = field ? __float128(man | uint64_t{1} << m) : __float128(man);
  int exp = (field ? field : 1) - bias - m;
  for (; exp > 0; --exp) v *= 2;
  for (; exp < 0; ++exp) v /= 2;
  return neg ? -v : v;
}

// Random finite bits of `t` whose exponent field lies in [lo, hi] (0 allows subnormals/zero).
uint64_t element(Type t, uint64_t& s, int lo, int hi) {
  int e, m;
  switch (t) {
  case Type::F16: e = 5, m = 10; break;
  case Type::BF16: e = 8, m = 7; break;
  case Type::E4M3: e = 4, m = 3; break;
  case Type::E5M2: e = 5, m = 2; break;
  default: e = 8, m = 23; break;
  }
  const uint64_t r = splitmix(s);
  uint64_t field = uint64_t(lo) + (r >> 40) % uint64_t(hi - lo + 1);
  uint64_t man = r & ((uint64_t{1} << m) - 1);
  if (t == Type::E4M3 && field == 15 && man == 7) man = 6;  // e4m3's NaN
  return ((r >> 63) << (e + m)) | field << m | man;
}

template <typename Out>
uint64_t bits_of(Out v) {
  if constexpr (sizeof(Out) == 4) return std::bit_cast<uint32_t>(v);
  else return std::bit_cast<uint16_t>(v);
}

struct Case {
  Type ab, cd;
  unsigned k;
  int lo, hi, c_lo, c_hi;  // exponent field ranges of A/B and of C
};

TEST(MmaExactModel, MatchesQuadPrecisionReference) {
  const Case cases[] = {
      {Type::F16, Type::F32, 16, 0, 30, 90, 160},  // f16 products span 2^-48..2^32; C near them
      {Type::F16, Type::F16, 16, 0, 30, 0, 30},
      {Type::F16, Type::F32, 8, 10, 20, 110, 140},
      {Type::BF16, Type::F32, 16, 100, 150, 90, 170},
      {Type::E4M3, Type::F32, 32, 0, 15, 110, 140},
      {Type::E5M2, Type::F16, 32, 0, 30, 0, 30},
  };
  uint64_t s = 42;
  for (const Case& cs : cases) {
    for (int n = 0; n < 3000; ++n) {
      std::vector<uint64_t> a(cs.k), b(cs.k);
      __float128 sum = 0;
      for (unsigned i = 0; i < cs.k; ++i) {
        a[i] = element(cs.ab, s, cs.lo, cs.hi);
        b[i] = element(cs.ab, s, cs.lo, cs.hi);
        sum += value(cs.ab, a[i]) * value(cs.ab, b[i]);  // exact: see the file comment
      }
      const uint64_t c = element(cs.cd, s, cs.c_lo, cs.c_hi);
      sum += value(cs.cd, c);
      const mma::FloatClass cls{cs.ab, cs.ab, cs.cd, cs.cd, cs.k};
      const uint64_t got = mma::dot(mma::Model::Exact, cls, a.data(), b.data(), c);
      const uint64_t want = cs.cd == Type::F32 ? bits_of(static_cast<float>(sum)) : bits_of(static_cast<_Float16>(sum));
      // An exact zero sum is +0 in both (IEEE round to nearest).
      ASSERT_EQ(got, want) << "k=" << cs.k << " case " << int(cs.ab) << " n=" << n;
    }
  }
}

TEST(MmaExactModel, SpecialValues) {
  const mma::FloatClass cls{Type::F16, Type::F16, Type::F32, Type::F32, 2};
  const uint64_t inf = 0x7c00, ninf = 0xfc00, nan = 0x7e01, one = 0x3c00, zero = 0;
  auto dot2 = [&](uint64_t a0, uint64_t b0, uint64_t a1, uint64_t b1, uint64_t c) {
    const uint64_t a[2] = {a0, a1}, b[2] = {b0, b1};
    return mma::dot(mma::Model::Exact, cls, a, b, c);
  };
  EXPECT_EQ(dot2(inf, one, one, one, 0), 0x7f800000u);         // Inf + finite
  EXPECT_EQ(dot2(inf, one, ninf, one, 0), 0x7fffffffu);        // Inf - Inf: canonical NaN
  EXPECT_EQ(dot2(inf, zero, one, one, 0), 0x7fffffffu);        // Inf x 0
  EXPECT_EQ(dot2(nan, one, one, one, 0), 0x7fffffffu);         // NaN operand
  EXPECT_EQ(dot2(one, one, one, one, 0xff800000u), 0xff800000u);  // C = -Inf
  EXPECT_EQ(dot2(0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7f7fffffu), 0x7f7fffffu);  // max f32 + 2^33: rounds back
  EXPECT_EQ(dot2(0x8000, one, 0x8000, one, 0x80000000u), 0x80000000u);  // -0 + -0 + -0
}

}  // namespace
}  // namespace ptxvm::test
