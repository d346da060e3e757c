// tcgen05.mma with K = 96 (sm_103a: PTX §9.7.16.2.1.1, instruction descriptor bit 31 of Table 44,
// 000_70a4b524dfe259fa.txt): .kind::mxf4 and .kind::mxf4nvf4 on 48 bytes of e2m1 per row, read
// through the absolute leading-dimension mode (descriptor bit 52, §9.7.16.3.1.2) where a row's 48
// bytes would cross its 128-byte swizzle row, with 3 (.block32) or 6 (.block16) scale factors per
// row that run on into the next Tensor Memory cell. The ISA draws both layouts only in figures;
// the test lays them out as CUTLASS's sm_103a kernels rely on them
// (sm103_blockscaled_mma_warpspecialized.hpp), written here from that description:
// - the 16-byte chunks of a row past the 128-byte row its start lies in come from the absolute
//   address, from its first chunk on, each under the 128-byte swizzle of its own address;
// - scale factor u of a row or column with ID id is byte (id + u) % 4 of the cell (id + u) / 4
//   cells on, cells being 4 columns apart for A's 128 rows and B's N <= 128 columns, 8 for N > 128.
// The reference is an exact GEMM of small integers times powers of two, exact in every model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "tcgen05_image_gemm.h"
#include "tcgen05_layouts.h"

namespace ptxvm::test {
namespace {

constexpr unsigned kM = 128, kK = 96;

struct Case {
  const char* name;
  const char* qualifiers;  // .kind and .block_scale
  unsigned n;
  unsigned a_column, b_column;  // the 16-byte column of the 128-byte row each operand's rows start at
  unsigned sfa_id, sfb_id;
  bool absolute = true;  // descriptor bit 52
  std::string target = "sm_103a";
  uint64_t desc_bits = 0;      // more bits in both descriptors
  uint32_t idesc_flip = 0;     // bits of the instruction descriptor flipped
};

// e2m1 of a small integer (|v| <= 3: 0, 1, 2, 3 are exact, §5.2.5.3).
uint8_t e2m1(int v) {
  static const uint8_t kCodes[] = {0, 2, 4, 5};  // 0, 1.0, 2.0, 3.0
  return static_cast<uint8_t>((v < 0 ? 8 : 0) | kCodes[v < 0 ? -v : v]);
}

struct Outcome {
  bool ok;
  std::string error;
  std::vector<uint32_t> d;
  std::vector<double> want;  // D, exactly
};

Outcome run(const Case& c) {
  const bool block16 = std::string(c.qualifiers).find("block16") != std::string::npos;
  const unsigned blocks = block16 ? 6 : 3, block = kK / blocks;
  uint32_t seed = 96;
  auto next = [&](unsigned range) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % range;
  };
  std::vector<int> A(size_t{kM} * kK), B(size_t{kK} * c.n);
  for (int& x : A) x = static_cast<int>(next(7)) - 3;
  for (int& x : B) x = static_cast<int>(next(7)) - 3;
  std::vector<unsigned> sa(size_t{kM} * blocks), sb(size_t{c.n} * blocks);  // scale 2^(s - 2)
  for (unsigned& x : sa) x = next(5);
  for (unsigned& x : sb) x = next(5);

  // Each operand in two 1024-aligned buffers of 128-byte swizzle rows (8-row groups 1024 bytes
  // apart), not adjacent: A at 0 and 16 KiB, B at 32 KiB and (N <= 128) 48 KiB.
  std::vector<uint8_t> img(65536, 0);
  auto put = [&](uint32_t first, uint32_t second, unsigned column0, unsigned mn, unsigned k, int v) {
    const unsigned column = column0 + k / 32;  // 32 e2m1 to a 16-byte chunk
    uint32_t at = (column < 8 ? first + column * 16 : second + (column - 8) * 16) + (mn % 8) * 128 + (mn / 8) * 1024 +
                  (k % 32) / 2;
    at ^= ((at >> 7) & 7) << 4;  // Swizzle<3,4,3>
    img[at] |= static_cast<uint8_t>(e2m1(v) << (4 * (k % 2)));
  };
  const uint32_t b_second = c.n <= 128 ? 49152 : 32768 + 16384;  // N > 128: no split (column 0)
  for (unsigned i = 0; i < kM; ++i)
    for (unsigned k = 0; k < kK; ++k) put(0, 16384, c.a_column, i, k, A[size_t{i} * kK + k]);
  for (unsigned j = 0; j < c.n; ++j)
    for (unsigned k = 0; k < kK; ++k) put(32768, b_second, c.b_column, j, k, B[size_t{k} * c.n + j]);
  std::vector<uint32_t> words(img.size() / 4);
  std::memcpy(words.data(), img.data(), img.size());
  // The absolute address counts from the image like the start address; the kernel adds the
  // image's shared address to both fields.
  auto desc = [&](uint32_t first, uint32_t second, unsigned column) {
    return sdesc(first + column * 16, second, 1024, Swz::B128) | (c.absolute ? uint64_t{1} << 52 : 0) | c.desc_bits;
  };

  // Scale factors from column 256: A's at columns 0.., B's at 8...
  constexpr unsigned kTcols = 24, kBColumn = 8;
  std::vector<uint32_t> sf(size_t{128} * kTcols, 0);
  auto place = [&](unsigned index, unsigned column0, unsigned cells, unsigned id, unsigned u, unsigned s) {
    const unsigned t = id + u, column = column0 + index / 32 + t / 4 * cells;
    for (unsigned q = 0; q < 4; ++q)  // a copy in every lane quarter
      sf[size_t{32 * q + index % 32} * kTcols + column] |= uint32_t{127 + s - 2} << (8 * (t % 4));
  };
  for (unsigned u = 0; u < blocks; ++u) {
    for (unsigned i = 0; i < kM; ++i) place(i, 0, 4, c.sfa_id, u, sa[size_t{i} * blocks + u]);
    for (unsigned j = 0; j < c.n; ++j) place(j, kBColumn, c.n > 128 ? 8 : 4, c.sfb_id, u, sb[size_t{j} * blocks + u]);
  }
  // idesc (Table 44): B's scale ID, atype = btype = E2M1, N >> 3, UE8M0, M >> 7, A's scale ID, K = 96.
  const uint32_t idesc = (c.sfb_id << 4 | 1u << 7 | 1u << 10 | (c.n >> 3) << 17 | 1u << 23 | (kM >> 7) << 27 |
                          c.sfa_id << 29 | 1u << 31) ^ c.idesc_flip;

  Harness h;
  h.load(image_gemm(std::string("shl.b64 %rd13, %rd12, 16;\n  add.s64 %rd14, %rd6, %rd13;\n  add.s64 %rd15, %rd7, %rd13;\n"
                                "  tcgen05.mma.cta_group::1") +
                        c.qualifiers + " [%r8], %rd14, %rd15, %r15, [%r17], [%r18], %p6;",
                    c.target));
  const uint64_t dimg = h.buffer(words), dsf = h.buffer(sf),
                 out = h.buffer(std::vector<uint32_t>(size_t{128} * c.n, 0xdeadbeef));
  const LaunchConfig cfg = image_gemm_config();
  const LaunchResult r = h.module->launch(
      "gemm", cfg,
      {arg(dimg), arg(static_cast<uint32_t>(words.size())), arg(desc(0, 16384, c.a_column)),
       arg(desc(32768, b_second, c.b_column)), arg(idesc), arg(out), arg(c.n), arg(1u), arg(uint64_t{0}),
       arg(uint64_t{0}), arg(dsf), arg(kTcols), arg(0u), arg(kBColumn), arg(0u), arg(0u), arg(0u), arg(0u), arg(0u)});
  Outcome o{r.ok, r.error, {}, {}};
  if (!r.ok) return o;
  o.d = h.read<uint32_t>(out, size_t{128} * c.n);
  for (unsigned i = 0; i < kM; ++i)
    for (unsigned j = 0; j < c.n; ++j) {
      double want = 0;
      for (unsigned k = 0; k < kK; ++k)
        want += A[size_t{i} * kK + k] * std::ldexp(1.0, static_cast<int>(sa[size_t{i} * blocks + k / block]) - 2) *
                B[size_t{k} * c.n + j] * std::ldexp(1.0, static_cast<int>(sb[size_t{j} * blocks + k / block]) - 2);
      o.want.push_back(want);
    }
  return o;
}

class Tcgen05K96 : public ::testing::TestWithParam<Case> {};

TEST_P(Tcgen05K96, MatchesTheExactScaledProduct) {
  const Case& c = GetParam();
  const Outcome o = run(c);
  ASSERT_TRUE(o.ok) << o.error;
  for (unsigned i = 0; i < kM; ++i)
    for (unsigned j = 0; j < c.n; ++j) {
      const double want = o.want[size_t{i} * c.n + j];
      const float f = static_cast<float>(want);
      ASSERT_EQ(double{f}, want) << "the reference must be exact in f32";
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      ASSERT_EQ(o.d[size_t{i} * c.n + j], bits) << c.name << " D[" << i << "][" << j << "] want " << want;
    }
}

// Start columns as CUTLASS's main loop takes them (48-byte steps through 128-byte rows: 0, 3, 6,
// then 1, 4, 7, then 2, 5) and every scale-factor ID, both sides of the N = 128 line.
INSTANTIATE_TEST_SUITE_P(
    Forms, Tcgen05K96,
    ::testing::Values(Case{"nvf4_block16_in_row", ".kind::mxf4nvf4.block_scale.block16", 64, 0, 3, 0, 0},
                      Case{"nvf4_block16_split_2_1", ".kind::mxf4nvf4.block_scale.block16", 128, 6, 6, 2, 2},
                      Case{"nvf4_block16_split_1_2", ".kind::mxf4nvf4.block_scale.block16", 32, 7, 6, 0, 2},
                      Case{"mxf4_block32_ids_1_3", ".kind::mxf4.block_scale.block32", 96, 7, 1, 1, 3},
                      Case{"mxf4_block32_ids_2_0", ".kind::mxf4.block_scale.block32", 128, 4, 6, 2, 0},
                      Case{"mxf4_block32_n16", ".kind::mxf4.block_scale.block32", 16, 2, 5, 3, 1},
                      Case{"nvf4_block16_n256", ".kind::mxf4nvf4.block_scale.block16", 256, 6, 0, 2, 2},
                      Case{"mxf4_block32_n192", ".kind::mxf4.block_scale.block32", 192, 5, 0, 3, 3},
                      Case{"relative_mode_in_row", ".kind::mxf4.block_scale.block32", 64, 5, 0, 0, 1, false}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// ---- the rules, each broken once: the launch stops with a report naming it ----

std::string failure(Case c) {
  const Outcome o = run(c);
  EXPECT_FALSE(o.ok) << c.name;
  return o.error;
}

TEST(Tcgen05K96Rules, K96IsForSm103aOnly) {  // §9.7.16.2.1.1
  Case c{"sm_100a", ".kind::mxf4nvf4.block_scale.block16", 64, 0, 0, 0, 0, false};
  c.target = "sm_100a";
  EXPECT_NE(failure(c).find("K = 96 (instruction descriptor bit 31) is supported on sm_103a only"), std::string::npos);
}

TEST(Tcgen05K96Rules, RelativeRowsMayNotCrossTheSwizzleRow) {  // §9.7.16.3.1.2
  EXPECT_NE(failure({"cross", ".kind::mxf4.block_scale.block32", 64, 6, 0, 0, 0, false}).find("overflow"),
            std::string::npos);
}

TEST(Tcgen05K96Rules, AbsoluteModeTakesThe128ByteSwizzleOnly) {  // §9.7.16.3.1.2.1
  Case c{"b64", ".kind::mxf4.block_scale.block32", 64, 0, 0, 0, 0};
  c.desc_bits = uint64_t{4} << 61;  // mode 2 | 4 = 6: the 32-byte swizzle
  EXPECT_NE(failure(c).find("128-byte swizzle (mode 2) only"), std::string::npos);
}

TEST(Tcgen05K96Rules, AbsoluteModeNeedsBaseOffsetZero) {  // §9.7.16.3.1.2.1
  Case c{"base", ".kind::mxf4.block_scale.block32", 64, 6, 0, 0, 0};
  c.desc_bits = uint64_t{1} << 49;
  EXPECT_NE(failure(c).find("base offset 0"), std::string::npos);
}

TEST(Tcgen05K96Rules, AbsoluteModeIsForSm103aOnly) {  // §9.7.16.4.1, on a K = 64 MMA
  Case c{"sm_100a", ".kind::mxf4.block_scale.block32", 64, 0, 0, 0, 0};
  c.target = "sm_100a";
  c.idesc_flip = 1u << 31;
  EXPECT_NE(failure(c).find("(descriptor bit 52) is supported on sm_103a only, not sm_100a"), std::string::npos);
}

TEST(Tcgen05K96Rules, Block16IdsAre0Or2) {  // §9.7.16.10.7.2.5
  EXPECT_NE(failure({"id1", ".kind::mxf4nvf4.block_scale.block16", 64, 0, 0, 1, 0}).find("(0 or 2,"),
            std::string::npos);
}

TEST(Tcgen05K96Rules, Bit31IsReservedForMxf8f6f4) {  // Table 43
  Case c{"mxf8", ".kind::mxf8f6f4.block_scale.block32", 64, 0, 0, 0, 0};
  EXPECT_NE(failure(c).find("reserved bit 31"), std::string::npos);
}

}  // namespace
}  // namespace ptxvm::test
