// tcgen05.mma.sp (PTX §9.7.16.10.8, 000_70a4b524dfe259fa.txt): A structured-sparse (1:2 for
// .kind::tf32, 2:4 for f16 and the 8-bit kinds, 4:8 in pairs for mxf4), its K/2 kept elements in
// shared memory (canonical layout, tcgen05_layouts.h) or Tensor Memory, the metadata nibbles in
// Tensor Memory where CUTLASS's tmem_e_frg puts them (the ISA draws them only in figures), the
// sparsity selector as a column offset. The reference expands A from the nibbles itself and
// multiplies small integers exactly.
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

enum class Elem { TF32, F16, E4M3, S8, E2M1 };

unsigned bits_of(Elem e) { return e == Elem::TF32 ? 32 : e == Elem::F16 ? 16 : e == Elem::E2M1 ? 4 : 8; }

// A small integer (|v| <= 3) in the element's encoding.
uint32_t encode(Elem e, int v) {
  if (v == 0) return 0;
  const unsigned a = static_cast<unsigned>(std::abs(v)), exp = a >= 2 ? 1 : 0, sign = v < 0;
  switch (e) {
  case Elem::TF32: {
    const float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  case Elem::F16: return sign << 15 | (exp + 15) << 10 | ((a << 10 >> exp) & 0x3ff);
  case Elem::E4M3: return sign << 7 | (exp + 7) << 3 | ((a << 3 >> exp) & 7);
  case Elem::E2M1: return sign << 3 | (exp + 1) << 1 | ((a << 1 >> exp) & 1);
  case Elem::S8: return static_cast<uint32_t>(v) & 0xff;
  }
  return 0;
}

struct Case {
  const char* name;
  const char* mma;  // the instruction: A through %rd6 (or [%r18]), metadata at [%r19]
  Elem elem;
  unsigned m, n, steps;
  bool selector = false;  // step the sparsity selector (metadata address fixed) rather than the address
  bool a_tmem = false;    // A in Tensor Memory at y
  bool scaled = false;    // block-scaled: factors at x (A's) and y (B's), 1 per MMA
};

class Tcgen05Sparse : public ::testing::TestWithParam<Case> {};

TEST_P(Tcgen05Sparse, MatchesTheExpandedProduct) {  // §9.7.16.10.8
  const Case& c = GetParam();
  const unsigned ebits = bits_of(c.elem), kd = 512 / ebits, K = kd * c.steps;  // dense K per MMA: 512 bits
  const unsigned chunk = c.elem == Elem::TF32 ? 2 : c.elem == Elem::E2M1 ? 8 : 4, nibbles = kd / chunk;
  const bool wide = c.elem == Elem::TF32 || c.elem == Elem::F16;
  uint32_t seed = 99;
  auto next = [&](unsigned range) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % range;
  };
  // Dense A with its sparsity: per chunk a meaningful nibble, the kept elements in order.
  const unsigned kValid[] = {0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110};
  std::vector<int> A(size_t{c.m} * K, 0), kept(size_t{c.m} * K / 2), B(size_t{K} * c.n);
  std::vector<unsigned> nib(size_t{c.m} * (K / chunk));
  for (unsigned i = 0; i < c.m; ++i)
    for (unsigned g = 0; g < K / chunk; ++g) {
      const unsigned x = chunk == 2 ? (next(2) ? 0b1110 : 0b0100) : kValid[next(7)], p0 = x & 3, p1 = x >> 2;
      nib[size_t{i} * (K / chunk) + g] = x;
      int* kp = &kept[size_t{i} * K / 2 + g * chunk / 2];
      for (unsigned e = 0; e < chunk / 2; ++e) kp[e] = static_cast<int>(next(7)) - 3;
      int* row = &A[size_t{i} * K + g * chunk];
      if (chunk == 2) row[p0 / 2] = kp[0];
      else if (chunk == 4) row[p0] = kp[0], row[p1] = kp[1];
      else row[2 * p0] = kp[0], row[2 * p0 + 1] = kp[1], row[2 * p1] = kp[2], row[2 * p1 + 1] = kp[3];
    }
  for (int& x : B) x = static_cast<int>(next(7)) - 3;

  // Shared memory: the kept A (M x K/2) at 0 unless in Tensor Memory, B (N x K) at 32 KiB,
  // both K-major without swizzle.
  std::vector<uint8_t> img(65536, 0);
  auto put = [&](uint32_t base, unsigned mns, unsigned ks, auto element, uint32_t& lbo, uint32_t& sbo) {
    canonical_strides(true, Swz::None, ebits, mns, lbo, sbo);
    for (unsigned mn = 0; mn < mns; ++mn)
      for (unsigned k = 0; k < ks; ++k) {
        const uint64_t bit = uint64_t{base} * 8 + canonical_bit(true, Swz::None, ebits, lbo, sbo, mn, k);
        const uint32_t x = encode(c.elem, element(mn, k));
        for (unsigned b = 0; b < ebits; ++b)
          if ((x >> b) & 1u) img[(bit + b) / 8] |= static_cast<uint8_t>(1u << ((bit + b) % 8));
      }
  };
  uint32_t alb = 0, asb = 0, blb, bsb;
  if (!c.a_tmem) put(0, c.m, K / 2, [&](unsigned i, unsigned k) { return kept[size_t{i} * K / 2 + k]; }, alb, asb);
  put(32768, c.n, K, [&](unsigned j, unsigned k) { return B[size_t{k} * c.n + j]; }, blb, bsb);
  std::vector<uint32_t> words(img.size() / 4);
  std::memcpy(words.data(), img.data(), img.size());

  // Tensor Memory from column 256: the metadata at z (one column per MMA for tf32/f16, two for
  // the others; with the selector stepping, the address stays and the selector picks the
  // column), A at y (a_tmem: row i in lane i, its K/2 per MMA in 8 columns), scale factors at x
  // (A's, 4 columns) and y (B's, N/32 columns), every factor 2^(i % 3 - 1) (2^(j % 3 - 1)).
  const unsigned meta_cols = (wide ? 1 : 2) * c.steps, a_cols = c.a_tmem ? 8 * c.steps : 0;
  const unsigned sfb_cols = (c.n + 31) / 32, sf_cols = c.scaled ? 4 + sfb_cols : 0;
  const unsigned z_col = 0, y_col = meta_cols, x_col = y_col + (c.a_tmem ? a_cols : 4);
  const unsigned tcols = (std::max(y_col + a_cols, x_col + sf_cols) + 3) / 4 * 4;
  std::vector<uint32_t> tmem(size_t{128} * tcols, 0);
  for (unsigned i = 0; i < c.m; ++i)
    for (unsigned g = 0; g < K / chunk; ++g) {
      const unsigned s = g / nibbles, gg = g % nibbles, x = nib[size_t{i} * (K / chunk) + g];
      unsigned lane, column, bit;
      if (wide) lane = (i & 7) + 16 * (i >> 4) + 8 * (gg >> 2), column = s, bit = 16 * ((i >> 3) & 1) + 4 * (gg & 3);
      else lane = i, column = 2 * s + (gg >> 3), bit = 4 * (gg & 7);
      tmem[size_t{lane} * tcols + z_col + column] |= x << bit;
    }
  if (c.a_tmem)
    for (unsigned i = 0; i < c.m; ++i)
      for (unsigned k = 0; k < K / 2; ++k)
        tmem[size_t{i} * tcols + y_col + k * ebits / 32] |= encode(c.elem, kept[size_t{i} * K / 2 + k]) << (k * ebits % 32);
  auto scale_code = [](unsigned r) { return uint32_t{127 + r % 3 - 1} * 0x01010101u; };  // in every byte (k-block)
  if (c.scaled)
    for (unsigned q = 0; q < 4; ++q) {
      for (unsigned i = 0; i < c.m; ++i) tmem[size_t{32 * q + i % 32} * tcols + x_col + i / 32] = scale_code(i);
      for (unsigned j = 0; j < c.n; ++j) tmem[size_t{32 * q + j % 32} * tcols + x_col + 4 + j / 32] = scale_code(j);
    }

  // idesc (Tables 42-44): sparsity bit 2, D f32 (Table 42) or s32, types, N >> 3, M.
  uint32_t idesc = 1u << 2 | (c.n >> 3) << 17;
  switch (c.elem) {
  case Elem::TF32: idesc |= 1u << 4 | 2u << 7 | 2u << 10 | (c.m >> 4) << 24; break;
  case Elem::F16: idesc |= 1u << 4 | (c.m >> 4) << 24; break;
  case Elem::S8: idesc |= 2u << 4 | 1u << 7 | 1u << 10 | (c.m >> 4) << 24; break;
  case Elem::E4M3: idesc |= (c.scaled ? 1u << 23 | (c.m >> 7) << 27 : 1u << 4 | (c.m >> 4) << 24); break;
  case Elem::E2M1: idesc |= 1u << 7 | 1u << 10 | 1u << 23 | (c.m >> 7) << 27; break;
  }
  Harness h;
  h.load(image_gemm(c.mma));
  const uint64_t dimg = h.buffer(words), dtmem = h.buffer(tmem),
                 out = h.buffer(std::vector<uint32_t>(size_t{128} * c.n, 0xdeadbeef));
  const LaunchConfig cfg = image_gemm_config();
  const uint64_t astep = k_step(true, Swz::None, ebits, alb, asb), bstep = 2 * k_step(true, Swz::None, ebits, blb, bsb);
  const LaunchResult r = h.module->launch(
      "gemm", cfg,
      {arg(dimg), arg(static_cast<uint32_t>(words.size())), arg(sdesc(0, alb, asb, Swz::None)),
       arg(sdesc(32768, blb, bsb, Swz::None)), arg(idesc), arg(out), arg(c.n), arg(c.steps), arg(astep), arg(bstep),
       arg(dtmem), arg(tcols), arg(x_col), arg(c.a_tmem ? y_col : x_col + 4), arg(z_col), arg(0u), arg(c.a_tmem ? 8u : 0u),
       arg(c.selector ? 0u : wide ? 1u : 2u), arg(c.selector ? 1u : 0u)});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint32_t> d = h.read<uint32_t>(out, size_t{128} * c.n);
  for (unsigned i = 0; i < c.m; ++i)
    for (unsigned j = 0; j < c.n; ++j) {
      double want = 0;
      for (unsigned k = 0; k < K; ++k) want += static_cast<double>(A[size_t{i} * K + k]) * B[size_t{k} * c.n + j];
      if (c.scaled) want *= std::ldexp(1.0, static_cast<int>(i % 3) - 1) * std::ldexp(1.0, static_cast<int>(j % 3) - 1);
      uint32_t bits;
      if (c.elem == Elem::S8) bits = static_cast<uint32_t>(static_cast<int32_t>(want));
      else {
        const float f = static_cast<float>(want);
        std::memcpy(&bits, &f, 4);
      }
      ASSERT_EQ(d[size_t{i} * c.n + j], bits) << c.name << " D[" << i << "][" << j << "] want " << want;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, Tcgen05Sparse,
    ::testing::Values(
        Case{"f16_m128n64", "tcgen05.mma.sp.cta_group::1.kind::f16 [%r8], %rd6, %rd7, [%r19], %r15, %p6;", Elem::F16, 128, 64, 2},
        Case{"f16_selector", "tcgen05.mma.sp.cta_group::1.kind::f16 [%r8], %rd6, %rd7, [%r19], %r15, %p6;", Elem::F16, 128, 32, 2, true},
        Case{"tf32_m128n48", "tcgen05.mma.sp.cta_group::1.kind::tf32 [%r8], %rd6, %rd7, [%r19], %r15, %p6;", Elem::TF32, 128, 48, 2},
        Case{"tf32_selector", "tcgen05.mma.sp.cta_group::1.kind::tf32 [%r8], %rd6, %rd7, [%r19], %r15, %p6;", Elem::TF32, 128, 16, 2, true},
        Case{"e4m3_m128n64", "tcgen05.mma.sp.cta_group::1.kind::f8f6f4 [%r8], %rd6, %rd7, [%r19], %r15, %p6;", Elem::E4M3, 128, 64, 2},
        Case{"s8_m128n32", "tcgen05.mma.sp.cta_group::1.kind::i8 [%r8], %rd6, %rd7, [%r19], %r15, %p6;", Elem::S8, 128, 32, 2},
        Case{"f16_a_tmem", "tcgen05.mma.sp.cta_group::1.kind::f16 [%r8], [%r18], %rd7, [%r19], %r15, %p6;", Elem::F16, 128, 64, 2, false, true},
        Case{"mxf8f6f4_block32", "tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale.block32 [%r8], %rd6, %rd7, [%r19], %r15, [%r17], [%r18], %p6;",
             Elem::E4M3, 128, 64, 1, false, false, true},
        Case{"mxf4_block32", "tcgen05.mma.sp.cta_group::1.kind::mxf4.block_scale.block32 [%r8], %rd6, %rd7, [%r19], %r15, [%r17], [%r18], %p6;",
             Elem::E2M1, 128, 32, 2, false, false, true}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// §9.7.16.10.8.2: a nibble outside the listed ones (here 0b0000: the same position twice) is
// undefined; ptxvm stops with a report naming it.
TEST(Tcgen05SparseRules, MeaninglessMetadataIsReported) {
  Harness h;
  h.load(image_gemm("tcgen05.mma.sp.cta_group::1.kind::f16 [%r8], %rd6, %rd7, [%r19], %r15, %p6;"));
  const LaunchConfig cfg = image_gemm_config(1'000'000);
  const uint64_t img = h.buffer(std::vector<uint32_t>(16, 0)), tmem = h.buffer(std::vector<uint32_t>(128 * 4, 0)),
                 out = h.buffer(std::vector<uint32_t>(128 * 32, 0));
  const uint32_t idesc = 1u << 2 | 1u << 4 | (32u >> 3) << 17 | (128u >> 4) << 24;
  const LaunchResult r = h.module->launch(
      "gemm", cfg,
      {arg(img), arg(16u), arg(sdesc(0, 128, 128, Swz::None)), arg(sdesc(0, 128, 128, Swz::None)), arg(idesc), arg(out),
       arg(32u), arg(1u), arg(uint64_t{0}), arg(uint64_t{0}), arg(tmem), arg(4u), arg(0u), arg(0u), arg(0u), arg(0u),
       arg(0u), arg(0u), arg(0u)});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("the sparsity metadata of row 0, chunk 0 is 0b0000, not one the ISA gives a meaning"),
            std::string::npos)
      << r.error;
}

// Sparse M = 128 on a CTA pair is Layout C (§9.7.16.10.5 table: half the data-path lanes), whose
// D and metadata the ISA draws only in figures: the MMA stops with an unsupported report.
TEST(Tcgen05SparseRules, LayoutCIsUnsupported) {
  Harness h;
  h.load(R"(
.version 8.7
.target sm_100a
.address_size 64
.visible .entry k() .reqnctapercluster 2, 1, 1
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  .shared .align 4 .b32 slot;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [slot], 64;
  tcgen05.fence::before_thread_sync;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  tcgen05.fence::after_thread_sync;
  ld.shared.u32 %r3, [slot];
  setp.eq.u32 %p2, %r1, 0;
  setp.eq.u32 %p3, %r2, 0;
  and.pred %p2, %p2, %p3;
  mov.b32 %r4, 135266324;  // sparse, f32 D, f16 A and B, N = 64, M = 128
  mov.b64 %rd1, 70368744177664;  // bit 46
  setp.ne.u32 %p3, %r1, %r1;
  @%p2 tcgen05.mma.sp.cta_group::2.kind::f16 [%r3], %rd1, %rd1, [%r3], %r4, %p3;
  ret;
}
)");
  LaunchConfig cfg;
  cfg.grid = {2};
  cfg.block = {128};
  cfg.cluster = {2, 1, 1};
  const LaunchResult r = h.module->launch("k", cfg, {});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("unsupported: sparse M = 128 with .cta_group::2 (Layout C"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ptxvm::test
