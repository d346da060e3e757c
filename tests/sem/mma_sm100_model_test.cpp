// The modelled sm100 rows of the tensor-core arithmetic (src/mma/arith.cpp, tcgen05.mma): all K
// products and C in one block, each term truncated 25 fraction bits below the block's largest
// exponent, the sum rounded toward zero into f32 — values worked out by hand here; scale-input-d
// entering C as C * 2^-s exactly; and the block-scaled kinds: scaled products in that block
// (.kind::mxf8f6f4), blocks of 16 e2m1 products summed exactly before their scale pair (mxf4*).
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

TEST(Sm100Model, ScaledProductsShareTheTruncatedBlock) {  // .kind::mxf8f6f4
  // 256 * 256 + (1.5 * 2^-4) * 2^-4 = 2^16 + 0.75 ulp(f32 2^16): the model keeps the small
  // product (2^-9 units, 25 bits below 2^16) and rounds toward zero to 2^16; exact rounding gives
  // 2^16 + 2^-7. Scale factors 2^0 (ue8m0 127).
  std::vector<uint64_t> a(32, 0), b(32, 0);
  a[0] = b[0] = 0x78;      // e4m3 256
  a[1] = 0x1c, b[1] = 0x18;  // 1.5 * 2^-4, 2^-4
  const std::vector<uint8_t> ones(32, 127);
  mma::FloatClass c{Type::E4M3, Type::E4M3, Type::F32, Type::F32, 32};
  c.tcgen05 = true;
  EXPECT_EQ(mma::dot_scaled(mma::Model::Sm90, c, Type::UE8M0, a.data(), b.data(), ones.data(), ones.data(), 0), 0x47800000u);
  EXPECT_EQ(mma::dot_scaled(mma::Model::Exact, c, Type::UE8M0, a.data(), b.data(), ones.data(), ones.data(), 0), 0x47800001u);
}

TEST(Sm100Model, Fp4BlocksSumExactlyBeforeTheirScales) {  // .kind::mxf4nvf4, 16 elements per factor
  // Block 0: 6*6 - 6*6 = 0 at scale 2^30 x 2^0; block 1: 0.5 * 0.5 at scale 2^0. Summed per
  // block first, block 0 vanishes and 0.25 remains; aligned product by product, 6*6*2^30 would set
  // the block's exponent and truncate 0.25 away.
  std::vector<uint64_t> a(64, 0), b(64, 0);
  a[0] = b[0] = 0x7, a[1] = 0xf, b[1] = 0x7;  // e2m1 6, -6
  a[16] = b[16] = 0x1;                        // e2m1 0.5
  std::vector<uint8_t> sa(64, 127), sb(64, 127);
  for (unsigned k = 0; k < 16; ++k) sa[k] = 127 + 30;
  mma::FloatClass c{Type::E2M1, Type::E2M1, Type::F32, Type::F32, 64};
  c.tcgen05 = true;
  c.mxf4 = true;
  EXPECT_EQ(mma::dot_scaled(mma::Model::Sm90, c, Type::UE8M0, a.data(), b.data(), sa.data(), sb.data(), 0), 0x3e800000u);
}

}  // namespace
}  // namespace ptxvm::test
