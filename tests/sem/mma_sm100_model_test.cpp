// The modelled sm100 rows of the tensor-core arithmetic (src/mma/arith.cpp, tcgen05.mma): all K
// products and C in one block, each term truncated 25 fraction bits below the block's largest
// exponent, the sum rounded toward zero into f32 — values worked out by hand here; and
// scale-input-d entering C as C * 2^-s exactly.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mma/arith.h"

namespace ptxvm::test {
namespace {

using mma::Type;

constexpr uint64_t kOne16 = 0x3c00;         // f16 1.0
constexpr uint64_t kTwoToMinus12 = 0x0c00;  // f16 2^-12
constexpr uint64_t kTwoToMinus13 = 0x0800;  // f16 2^-13

mma::FloatClass tcgen05_f16() {
  mma::FloatClass c{Type::F16, Type::F16, Type::F32, Type::F32, 16};
  c.tcgen05 = true;
  return c;
}

TEST(Sm100Model, F32ResultRoundsTowardZero) {
  // 1 + 2^-24 + 2^-25 = 1 + 0.75 ulp(f32 1): exact rounding gives 1 + 2^-23, the model 1.
  std::vector<uint64_t> a(16, 0), b(16, 0);
  a[0] = b[0] = kOne16;
  a[1] = b[1] = kTwoToMinus12;
  a[2] = kTwoToMinus12, b[2] = kTwoToMinus13;
  const mma::FloatClass c = tcgen05_f16();
  EXPECT_EQ(mma::dot(mma::Model::Sm90, c, a.data(), b.data(), 0), 0x3f800000u);
  EXPECT_EQ(mma::dot(mma::Model::Exact, c, a.data(), b.data(), 0), 0x3f800001u);
}

TEST(Sm100Model, TermsBelowTwentyFiveFractionBitsAreTruncated) {
  // 1 + 2^-21 + eight terms of 2^-26: each 2^-26 lies below 2^(0 - 25) and is dropped (model:
  // 1 + 2^-21), though together they make 2^-23, one f32 ulp (exact: 1 + 2^-21 + 2^-23).
  std::vector<uint64_t> a(16, 0), b(16, 0);
  a[0] = b[0] = kOne16;
  a[1] = kTwoToMinus12, b[1] = 0x1800;  // 2^-12 * 2^-9
  for (unsigned k = 2; k < 10; ++k) a[k] = b[k] = kTwoToMinus13;
  const mma::FloatClass c = tcgen05_f16();
  EXPECT_EQ(mma::dot(mma::Model::Sm90, c, a.data(), b.data(), 0), 0x3f800004u);
  EXPECT_EQ(mma::dot(mma::Model::Exact, c, a.data(), b.data(), 0), 0x3f800005u);
}

TEST(Sm100Model, ScaleInputDScalesCExactly) {
  std::vector<uint64_t> a(16, 0), b(16, 0);
  mma::FloatClass c = tcgen05_f16();
  c.c_scale = 3;
  EXPECT_EQ(mma::dot(mma::Model::Sm90, c, a.data(), b.data(), 0x41000000u), 0x3f800000u);   // 8 * 2^-3 = 1
  EXPECT_EQ(mma::dot(mma::Model::Exact, c, a.data(), b.data(), 0x41000000u), 0x3f800000u);
}

}  // namespace
}  // namespace ptxvm::test
