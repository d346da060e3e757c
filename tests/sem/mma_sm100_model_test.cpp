// The modelled sm100 rows of the tensor-core arithmetic (src/mma/arith.cpp, tcgen05.mma): all K
// products and C in one block, each term truncated 25 fraction bits below the block's largest
// exponent, the sum rounded toward zero into f32 — values worked out by hand here; scale-input-d
// entering C as C * 2^-s exactly; and the block-scaled kinds: scaled products in that block
// (.kind::mxf8f6f4), blocks of 16 e2m1 products summed exactly before their scale pair (mxf4*).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
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

// gemm_scaled and gemm (the tile paths tcgen05.mma takes) give dot_scaled's and dot's bits for
// every element: random tiles of every block-scaled form and of .kind::f8f6f4, with zeros, the
// formats' extremes, zero and subnormal ue4m3 factors, and now and then a NaN or Inf in A, B, a
// factor or C (the tile falls back to elements).
TEST(Sm100Model, ScaledTilesMatchTheElementPath) {
  struct Form {
    Type a, b, scale;
    unsigned k, blocks;
    bool mxf4;
  };
  const Form forms[] = {{Type::E4M3, Type::E4M3, Type::UE8M0, 32, 1, false},
                        {Type::E5M2, Type::E2M1, Type::UE8M0, 32, 1, false},
                        {Type::E3M2, Type::E2M3, Type::UE8M0, 32, 1, false},
                        {Type::E2M1, Type::E2M1, Type::UE8M0, 64, 2, true},
                        {Type::E2M1, Type::E2M1, Type::UE8M0, 64, 4, true},
                        {Type::E2M1, Type::E2M1, Type::UE4M3, 64, 4, true}};
  auto bits_of = [](Type t) { return t == Type::E2M1 ? 4 : t == Type::E3M2 || t == Type::E2M3 ? 6 : 8; };
  std::mt19937_64 rng(7);
  const unsigned rows = 8;
  for (const Form& f : forms)
    for (int round = 0; round < 40; ++round) {
      const unsigned cols = round % 3 == 0 ? 12 : round % 3 == 1 ? 16 : 24;  // the tile path takes 8 or 16 lanes
      mma::FloatClass cls{f.a, f.b, Type::F32, Type::F32, f.k};
      cls.tcgen05 = true;
      cls.mxf4 = f.mxf4;
      const bool special = round % 4 == 3;
      auto element = [&](Type t) {
        const uint64_t r = rng(), mask = (uint64_t{1} << bits_of(t)) - 1;
        if (r % 5 == 0) return uint64_t{0};
        if (r % 7 == 0) return mask >> 1;  // the largest magnitude (e4m3: NaN, e5m2: Inf)
        uint64_t v = (r >> 8) & mask;
        if (!special && t == Type::E4M3 && (v & 0x7f) == 0x7f) v ^= 1;
        if (!special && t == Type::E5M2 && (v & 0x7c) == 0x7c) v &= ~uint64_t{0x40};
        return v;
      };
      std::vector<uint64_t> a(size_t{rows} * f.k), b(size_t{f.k} * cols), c(size_t{rows} * cols), d(c.size());
      for (uint64_t& x : a) x = element(f.a);
      for (uint64_t& x : b) x = element(f.b);
      for (uint64_t& x : c) {
        const uint64_t r = rng();
        x = r % 6 == 0 ? 0 : r % 6 == 1 ? 0x80000000u : static_cast<uint32_t>(r) & 0x87ffffffu;
        if (special && r % 29 == 0) x = r % 2 ? 0x7f800000u : 0x7fc00000u;
      }
      std::vector<uint8_t> sa(size_t{rows} * f.blocks), sb(size_t{cols} * f.blocks);
      for (auto* v : {&sa, &sb})
        for (uint8_t& x : *v) {
          const uint64_t r = rng();
          if (f.scale == Type::UE8M0)
            x = static_cast<uint8_t>(special && r % 31 == 0 ? 0xff : 112 + r % 32);  // 2^-15 .. 2^16
          else
            x = static_cast<uint8_t>(r % 9 == 0 ? 0 : r % 9 == 1 ? 1 + (r >> 8) % 7 : (r >> 8) % 0x7f);  // zero, subnormal
        }
      mma::gemm_scaled(mma::Model::Sm90, cls, f.scale, rows, cols, f.blocks, a.data(), b.data(), sa.data(), sb.data(),
                       c.data(), d.data());
      const unsigned per = f.k / f.blocks;
      std::vector<uint64_t> col(f.k);
      std::vector<uint8_t> fa(f.k), fb(f.k);
      for (unsigned i = 0; i < rows; ++i)
        for (unsigned j = 0; j < cols; ++j) {
          for (unsigned kk = 0; kk < f.k; ++kk)
            col[kk] = b[size_t{kk} * cols + j], fa[kk] = sa[size_t{i} * f.blocks + kk / per],
            fb[kk] = sb[size_t{j} * f.blocks + kk / per];
          const uint64_t want = mma::dot_scaled(mma::Model::Sm90, cls, f.scale, &a[size_t{i} * f.k], col.data(),
                                                fa.data(), fb.data(), c[size_t{i} * cols + j]);
          ASSERT_EQ(d[size_t{i} * cols + j], want) << "form " << (&f - forms) << " round " << round << " (" << i
                                                   << ", " << j << ")";
        }
      if (f.mxf4) continue;
      // The same operands unscaled (.kind::f8f6f4) through gemm and dot.
      mma::FloatClass plain{f.a, f.b, Type::F32, Type::F32, f.k};
      plain.tcgen05 = true;
      mma::gemm(mma::Model::Sm90, plain, rows, cols, a.data(), b.data(), c.data(), d.data());
      for (unsigned i = 0; i < rows; ++i)
        for (unsigned j = 0; j < cols; ++j) {
          for (unsigned kk = 0; kk < f.k; ++kk) col[kk] = b[size_t{kk} * cols + j];
          ASSERT_EQ(d[size_t{i} * cols + j],
                    mma::dot(mma::Model::Sm90, plain, &a[size_t{i} * f.k], col.data(), c[size_t{i} * cols + j]))
              << "unscaled form " << (&f - forms) << " round " << round << " (" << i << ", " << j << ")";
        }
    }
}

}  // namespace
}  // namespace ptxvm::test
