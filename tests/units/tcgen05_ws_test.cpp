// tcgen05.mma.ws and .ws.sp (PTX §9.7.16.10.9.3-4, 000_70a4b524dfe259fa.txt): M = 32, 64, 128
// with D's columns split over 128 / M lane groups (Layouts G, E, D: row i, column j of group
// q = j / (N/g) in lane qM + i, column j % (N/g)), each group reading A (from Tensor Memory) and
// the sparsity metadata from its own lanes; the zero-column mask descriptor (§9.7.16.4.3 Table
// 45: runs from the first span, start counts dropped, a column shift); the B collector buffers.
// References are the test's own: layouts written out here, exact products of small integers.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "tcgen05_image_gemm.h"
#include "tcgen05_layouts.h"

namespace ptxvm::test {
namespace {

// f16 small integers, s8 bytes, tf32 as f32.
uint32_t encode(unsigned ebits, int v) {
  if (ebits == 8) return static_cast<uint32_t>(v) & 0xff;
  const float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (ebits == 32 || v == 0) return ebits == 32 ? u : 0;
  return (u >> 31) << 15 | (((u >> 23) & 0xff) - 127 + 15) << 10 | (u & 0x7fffff) >> 13;
}

struct Case {
  const char* name;
  const char* kind;
  unsigned ebits;  // 16 f16, 32 tf32, 8 s8
  unsigned m, n, steps;
  bool a_tmem = false;
  bool sparse = false;
  uint64_t zero_mask = 0;  // the descriptor, 0 for none
};

// Table 45 as its examples show it: whether column j of D takes zeros for B.
bool zeroed(uint64_t mask, unsigned m, unsigned n, unsigned j) {
  if (!((mask >> 39) & 1)) return false;
  const unsigned width = n / (128 / m), q = j / width;
  const unsigned ones = static_cast<unsigned>((mask >> 40) & 0xff) + 1, zeros = static_cast<unsigned>((mask >> 48) & 0xff) + 1;
  const unsigned t = (j % width + static_cast<unsigned>((mask >> (8 * q)) & 0xff)) % (ones + zeros);
  return (mask >> (32 + q)) & 1 ? t < ones : t >= zeros;
}

// The reference's reading of Table 45 reproduces the table's example 4 (M = 32, N = 128).
TEST(Tcgen05WsMask, ReadingReproducesTable45Example4) {
  const uint64_t mask = 0ull | 1ull << 8 | 2ull << 16 | 1ull << 24 | 3ull << 32 | 1ull << 39 | 2ull << 40 | 3ull << 48 | 2ull << 56;
  const char* want[4] = {"1110000111", "1100001110", "0011100001", "0001110000"};  // bits 0.. of mask0..3
  for (unsigned q = 0; q < 4; ++q)
    for (unsigned b = 0; b < 10; ++b) EXPECT_EQ(zeroed(mask, 32, 128, 32 * q + b), want[q][b] == '1') << "mask" << q << " bit " << b;
}

class Tcgen05Ws : public ::testing::TestWithParam<Case> {};

TEST_P(Tcgen05Ws, MatchesTheExactProduct) {
  const Case& c = GetParam();
  const unsigned groups = 128 / c.m, width = c.n / groups, shift = static_cast<unsigned>((c.zero_mask >> 56) & 0x3f);
  const unsigned kd = (c.sparse ? 512 : 256) / c.ebits, K = kd * c.steps, ka = c.sparse ? K / 2 : K;
  uint32_t seed = 5;
  auto next = [&](unsigned range) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % range;
  };
  // A (dense M x K; with .sp 2:4 from kept values and nibbles), B (K x (N + shift)).
  const unsigned kValid[] = {0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110};
  const unsigned cols = c.n + shift;
  std::vector<int> A(size_t{c.m} * K, 0), kept(size_t{c.m} * ka), B(size_t{K} * cols);
  std::vector<unsigned> nib(c.sparse ? size_t{c.m} * K / 4 : 0);
  for (unsigned i = 0; i < c.m; ++i)
    for (unsigned k = 0; k < ka; ++k) kept[size_t{i} * ka + k] = static_cast<int>(next(7)) - 3;
  for (unsigned i = 0; i < c.m; ++i) {
    if (!c.sparse) {
      std::copy_n(&kept[size_t{i} * K], K, &A[size_t{i} * K]);
      continue;
    }
    for (unsigned g = 0; g < K / 4; ++g) {
      const unsigned x = kValid[next(7)];
      nib[size_t{i} * (K / 4) + g] = x;
      A[size_t{i} * K + 4 * g + (x & 3)] = kept[size_t{i} * ka + 2 * g];
      A[size_t{i} * K + 4 * g + (x >> 2)] = kept[size_t{i} * ka + 2 * g + 1];
    }
  }
  for (int& x : B) x = static_cast<int>(next(7)) - 3;

  std::vector<uint8_t> img(65536, 0);
  auto put = [&](uint32_t base, unsigned mns, unsigned ks, auto element, uint32_t& lbo, uint32_t& sbo) {
    canonical_strides(true, Swz::None, c.ebits, mns, lbo, sbo);
    for (unsigned mn = 0; mn < mns; ++mn)
      for (unsigned k = 0; k < ks; ++k) {
        const uint32_t x = encode(c.ebits, element(mn, k));
        std::memcpy(&img[base + canonical(true, Swz::None, c.ebits, lbo, sbo, mn, k)], &x, c.ebits / 8);
      }
  };
  uint32_t alb = 0, asb = 0, blb, bsb;
  if (!c.a_tmem) put(0, c.m, ka, [&](unsigned i, unsigned k) { return kept[size_t{i} * ka + k]; }, alb, asb);
  put(32768, cols, K, [&](unsigned j, unsigned k) { return B[size_t{k} * cols + j]; }, blb, bsb);
  std::vector<uint32_t> words(img.size() / 4);
  std::memcpy(words.data(), img.data(), img.size());

  // Tensor Memory from column 256: A at x (row i of group q in lane qM + i, 8 columns per MMA),
  // the metadata at z (one column per MMA; f16 layout, group q's copy M lanes further).
  const unsigned a_cols = c.a_tmem ? 8 * c.steps : 0, meta_cols = c.sparse ? c.steps : 0;
  const unsigned tcols = std::max(4u, (a_cols + meta_cols + 3) / 4 * 4);
  std::vector<uint32_t> tmem(size_t{128} * tcols, 0);
  for (unsigned q = 0; q < groups; ++q)
    for (unsigned i = 0; i < c.m; ++i) {
      if (c.a_tmem)
        for (unsigned k = 0; k < ka; ++k)
          tmem[size_t{q * c.m + i} * tcols + k * c.ebits / 32] |= encode(c.ebits, kept[size_t{i} * ka + k]) << (k * c.ebits % 32);
      if (c.sparse)
        for (unsigned g = 0; g < K / 4; ++g) {
          const unsigned s = g / (kd / 4), gg = g % (kd / 4);
          const unsigned lane = (i & 7) + 16 * (i >> 4) + 8 * (gg >> 2) + q * c.m;
          tmem[size_t{lane} * tcols + a_cols + s] |= nib[size_t{i} * (K / 4) + g] << (16 * ((i >> 3) & 1) + 4 * (gg & 3));
        }
    }
  // idesc (Table 42): sparsity, D (f32, or s32 for i8), types, N >> 3, M >> 4.
  const uint32_t dtype = c.ebits == 8 ? 2 : 1, type = c.ebits == 32 ? 2 : c.ebits == 8 ? 1 : 0;
  const uint32_t idesc = unsigned{c.sparse} << 2 | dtype << 4 | type << 7 | type << 10 | (c.n >> 3) << 17 | (c.m >> 4) << 24;
  std::string mma = std::string("tcgen05.mma.ws") + (c.sparse ? ".sp" : "") + ".cta_group::1.kind::" + c.kind +
                    " [%r8], " + (c.a_tmem ? "[%r17]" : "%rd6") + ", %rd7, " + (c.sparse ? "[%r19], " : "") + "%r15, %p6";
  if (c.zero_mask) mma += ", " + std::to_string(c.zero_mask);
  Harness h;
  h.load(image_gemm(mma + ";"));
  const uint64_t dimg = h.buffer(words), dtmem = h.buffer(tmem),
                 out = h.buffer(std::vector<uint32_t>(size_t{128} * width, 0xdeadbeef));
  LaunchConfig cfg;
  cfg.grid = {1};
  cfg.block = {128};
  cfg.step_limit = 10'000'000;
  const uint64_t bstep = k_step(true, Swz::None, c.ebits, blb, bsb) * (c.sparse ? 2 : 1);
  const LaunchResult r = h.module->launch(
      "gemm", cfg,
      {arg(dimg), arg(static_cast<uint32_t>(words.size())), arg(sdesc(0, alb, asb, Swz::None)),
       arg(sdesc(32768, blb, bsb, Swz::None)), arg(idesc), arg(out), arg(width), arg(c.steps),
       arg(k_step(true, Swz::None, c.ebits, alb, asb)), arg(bstep), arg(dtmem), arg(tcols), arg(0u), arg(0u),
       arg(a_cols), arg(8u), arg(0u), arg(1u), arg(0u)});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint32_t> d = h.read<uint32_t>(out, size_t{128} * width);
  for (unsigned i = 0; i < c.m; ++i)
    for (unsigned j = 0; j < c.n; ++j) {
      int want = 0;
      if (!zeroed(c.zero_mask, c.m, c.n, j))
        for (unsigned k = 0; k < K; ++k) want += A[size_t{i} * K + k] * B[size_t{k} * cols + j + shift];
      uint32_t bits = static_cast<uint32_t>(want);
      if (c.ebits != 8) {
        const float f = static_cast<float>(want);
        std::memcpy(&bits, &f, 4);
      }
      const unsigned lane = (j / width) * c.m + i, column = j % width;
      ASSERT_EQ(d[size_t{lane} * width + column], bits) << c.name << " D[" << i << "][" << j << "] = " << want;
    }
}

// sc0 1, sc1 3, fs0 1, fs1 0, generated, runs of 3 ones and 5 zeros, column shift 8.
constexpr uint64_t kMask = 1ull | 3ull << 8 | 1ull << 32 | 1ull << 39 | 2ull << 40 | 4ull << 48 | 8ull << 56;
// M = 32: four sub-masks with their own start counts and first spans, shift 2 (Table 45's example 4).
constexpr uint64_t kMask4 = 0ull | 1ull << 8 | 2ull << 16 | 1ull << 24 | 3ull << 32 | 1ull << 39 | 2ull << 40 | 3ull << 48 |
                            2ull << 56;

INSTANTIATE_TEST_SUITE_P(
    Shapes, Tcgen05Ws,
    ::testing::Values(Case{"f16_m32n64", "f16", 16, 32, 64, 2}, Case{"f16_m64n128", "f16", 16, 64, 128, 2},
                      Case{"tf32_m128n64", "tf32", 32, 128, 64, 2}, Case{"s8_m32n256", "i8", 8, 32, 256, 1},
                      Case{"f16_m64_a_tmem", "f16", 16, 64, 64, 2, true},
                      Case{"f16_m32_a_tmem", "f16", 16, 32, 128, 1, true},
                      Case{"f16_m64_sparse", "f16", 16, 64, 64, 2, false, true},
                      Case{"f16_m32_sparse_a_tmem", "f16", 16, 32, 128, 1, true, true},
                      Case{"f16_m64_zero_mask_shift", "f16", 16, 64, 64, 2, false, false, kMask},
                      Case{"f16_m32_example4", "f16", 16, 32, 128, 1, false, false, kMask4}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// §9.7.16.10.9.3: a use of a collector buffer needs a fill still valid.
TEST(Tcgen05Ws, UsingAnEmptyCollectorIsReported) {
  auto run = [](const std::string& qualifiers) {
    Harness h;
    h.load(image_gemm("tcgen05.mma.ws.cta_group::1.kind::f16" + qualifiers + " [%r8], %rd6, %rd7, %r15, %p6;"));
    LaunchConfig cfg;
    cfg.grid = {1};
    cfg.block = {128};
    cfg.step_limit = 1'000'000;
    const uint64_t img = h.buffer(std::vector<uint32_t>(16, 0)), tmem = h.buffer(std::vector<uint32_t>(128 * 4, 0)),
                   out = h.buffer(std::vector<uint32_t>(128 * 64, 0));
    const uint32_t idesc = 1u << 4 | (64u >> 3) << 17 | (64u >> 4) << 24;
    return h.module->launch("gemm", cfg,
                            {arg(img), arg(16u), arg(sdesc(0, 128, 128, Swz::None)), arg(sdesc(0, 128, 128, Swz::None)),
                             arg(idesc), arg(out), arg(32u), arg(2u), arg(uint64_t{0}), arg(uint64_t{0}), arg(tmem),
                             arg(4u), arg(0u), arg(0u), arg(0u), arg(0u), arg(0u), arg(0u), arg(0u)});
  };
  EXPECT_TRUE(run(".collector::b1::fill").ok);
  const LaunchResult use = run(".collector::b2::use");
  ASSERT_FALSE(use.ok);
  EXPECT_NE(use.error.find("reads collector buffer b2, which no earlier ::fill of the CTA has filled"), std::string::npos)
      << use.error;
  // lastuse reads the buffer (and then empties it): without a fill it has nothing to read
  const LaunchResult last = run(".collector::b3::lastuse");
  ASSERT_FALSE(last.ok);
  EXPECT_NE(last.error.find("collector buffer b3"), std::string::npos) << last.error;
}

}  // namespace
}  // namespace ptxvm::test
