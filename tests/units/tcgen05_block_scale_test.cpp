// tcgen05.mma with block scaling (PTX §9.7.16.10.7, 000_70a4b524dfe259fa.txt): .kind::mxf8f6f4,
// .kind::mxf4 and .kind::mxf4nvf4, every .scale_vec / .blockN, both scale types, scale-factor
// IDs and addresses moving between MMAs. The references are the test's own: operands laid out
// from the canonical layouts (tcgen05_layouts.h), the scale-factor matrices placed in Tensor
// Memory as CUTLASS lays them out (row r of A in lane r % 32 of every lane quarter, column r / 32;
// column j of B likewise; the k-block's factor in byte sf_id + k of the cell), and an exact
// GEMM of small integers times powers of two (and ue4m3 halves), exact in every model.
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

// Element formats: exponent and mantissa bits, bias (§5.2.5), and the idesc code (Tables 43-44).
struct Format {
  unsigned e, m, bias, code;
};
const Format kE4M3{4, 3, 7, 0}, kE5M2{5, 2, 15, 1}, kE2M3{2, 3, 1, 3}, kE3M2{3, 2, 3, 4}, kE2M1{2, 1, 1, 5};

// A small integer (|v| <= 3, exact in every format here) in format f.
uint32_t encode(const Format& f, int v) {
  if (v == 0) return 0;
  const unsigned a = static_cast<unsigned>(std::abs(v)), exp = a >= 2 ? 1 : 0;
  const unsigned man = (a << f.m >> exp) & ((1u << f.m) - 1);  // a / 2^exp = 1.man
  return (v < 0 ? 1u : 0u) << (f.e + f.m) | (exp + f.bias) << f.m | man;
}

struct Case {
  const char* name;
  const char* kind;  // .kind:: suffix
  const char* vec;   // the .scale_vectorsize qualifier, or ""
  Format a, b;
  unsigned m, n, steps;
  bool ue4m3 = false;    // scale type UE4M3 (idesc bit 23 clear)
  bool move_ids = true;  // step the scale-factor IDs (else the scale addresses) between MMAs
  Swz swz = Swz::None;
  bool b_k_major = true;
  bool subnormal_a = false;  // every scale of A the ue4m3 subnormal 2^-7 (code 0x04)
};

class Tcgen05BlockScale : public ::testing::TestWithParam<Case> {};

TEST_P(Tcgen05BlockScale, MatchesTheExactScaledProduct) {  // §9.7.16.10.7
  const Case& c = GetParam();
  const bool fp4 = std::string(c.kind) != "mxf8f6f4";
  const unsigned kstep = fp4 ? 64 : 32, K = kstep * c.steps, nsf = c.vec == std::string(".block16") ||
                                                                            c.vec == std::string(".scale_vec::4X")
                                                                        ? 4
                                                                        : fp4 ? 2 : 1;
  const unsigned block = kstep / nsf, geometry = fp4 ? 4 : 8;
  uint32_t seed = 2024;
  auto next = [&](unsigned range) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % range;
  };
  std::vector<int> A(size_t{c.m} * K), B(size_t{K} * c.n);
  for (int& x : A) x = static_cast<int>(next(7)) - 3;
  for (int& x : B) x = static_cast<int>(next(7)) - 3;
  // Scale factors: 2^e (e in -2..2) as ue8m0, or one of 0.5, 1, 1.5, 2, 3 as ue4m3.
  const double kUe4m3Values[] = {0.5, 1, 1.5, 2, 3};
  const uint8_t kUe4m3Codes[] = {6 << 3, 7 << 3, 7 << 3 | 4, 8 << 3, 8 << 3 | 4};
  const unsigned blocks = K / block;
  std::vector<unsigned> sa(size_t{c.m} * blocks), sb(size_t{c.n} * blocks);
  for (unsigned& x : sa) x = next(5);
  for (unsigned& x : sb) x = next(5);
  auto value = [&](unsigned s) { return c.ue4m3 ? kUe4m3Values[s] : std::ldexp(1.0, static_cast<int>(s) - 2); };
  auto code = [&](unsigned s) { return c.ue4m3 ? kUe4m3Codes[s] : static_cast<uint8_t>(127 + s - 2); };
  auto value_a = [&](unsigned s) { return c.subnormal_a ? std::ldexp(1.0, -7) : value(s); };
  auto code_a = [&](unsigned s) { return c.subnormal_a ? uint8_t{0x04} : code(s); };

  // Operands: A (M x K) at 0, B (K x N) at 32 KiB. A 6- or 4-bit element of .kind::mxf8f6f4 takes
  // a byte of the layout, its 16-byte chunk packing 16 elements first (§9.7.16.10.4.4).
  std::vector<uint8_t> img(65536, 0);
  auto put = [&](uint32_t base, bool k_major, unsigned mns, const Format& f, auto element, uint32_t& lbo, uint32_t& sbo) {
    canonical_strides(k_major, c.swz, geometry, mns, lbo, sbo);
    const unsigned v = 1 + f.e + f.m;
    for (unsigned mn = 0; mn < mns; ++mn)
      for (unsigned k = 0; k < K; ++k) {
        uint64_t bit = uint64_t{base} * 8 + canonical_bit(k_major, c.swz, geometry, lbo, sbo, mn, k);
        if (geometry == 8 && v < 8) bit = bit / 128 * 128 + (bit % 128) / 8 * v;
        const uint32_t x = encode(f, element(mn, k));
        for (unsigned i = 0; i < v; ++i)
          if ((x >> i) & 1u) img[(bit + i) / 8] |= static_cast<uint8_t>(1u << ((bit + i) % 8));
      }
  };
  uint32_t alb, asb, blb, bsb;
  put(0, true, c.m, c.a, [&](unsigned i, unsigned k) { return A[size_t{i} * K + k]; }, alb, asb);
  put(32768, c.b_k_major, c.n, c.b, [&](unsigned j, unsigned k) { return B[size_t{k} * c.n + j]; }, blb, bsb);
  std::vector<uint32_t> words(img.size() / 4);
  std::memcpy(words.data(), img.data(), img.size());

  // The scale factors in Tensor Memory from column 256: A's in columns [0, 4) per step, B's
  // after them in columns [4, 4 + N/32) per step (or the same columns for every step, the IDs
  // moving). Every lane quarter holds a copy.
  const unsigned a_cols = c.m / 32, b_cols = (c.n + 31) / 32, per_step = a_cols + b_cols;
  const unsigned sfcols = ((c.move_ids ? per_step : per_step * c.steps) + 3) / 4 * 4;
  std::vector<uint32_t> sf(size_t{128} * sfcols, 0);
  const unsigned id_step = c.move_ids ? nsf : 0;
  auto place = [&](unsigned row, unsigned column, unsigned byte, uint8_t x) {
    for (unsigned q = 0; q < 4; ++q) sf[size_t{32 * q + row % 32} * sfcols + column] |= uint32_t{x} << (8 * byte);
  };
  for (unsigned t = 0; t < blocks; ++t) {
    const unsigned s = t / nsf, byte = s * id_step + t % nsf;
    const unsigned col0 = c.move_ids ? 0 : s * per_step;
    for (unsigned i = 0; i < c.m; ++i) place(i, col0 + i / 32, byte, code_a(sa[size_t{i} * blocks + t]));
    for (unsigned j = 0; j < c.n; ++j) place(j, col0 + a_cols + j / 32, byte, code(sb[size_t{j} * blocks + t]));
  }
  // idesc (Tables 43-44): B's scale ID at 4-5, atype, btype (E2M1 is 1 for .kind::mxf4*),
  // transpose B, N >> 3, the scale type, M >> 7, A's scale ID at 29-30.
  const uint32_t idesc = (fp4 ? 1u : c.a.code) << 7 | (fp4 ? 1u : c.b.code) << 10 | unsigned{!c.b_k_major} << 16 |
                         (c.n >> 3) << 17 | unsigned{!c.ue4m3} << 23 | (c.m >> 7) << 27;

  Harness h;
  h.load(image_gemm(std::string("tcgen05.mma.cta_group::1.kind::") + c.kind + ".block_scale" + c.vec +
                    " [%r8], %rd6, %rd7, %r15, [%r17], [%r18], %p6;"));
  const uint64_t dimg = h.buffer(words), dsf = h.buffer(sf),
                 out = h.buffer(std::vector<uint32_t>(size_t{128} * c.n, 0xdeadbeef));
  const LaunchConfig cfg = image_gemm_config();
  const LaunchResult r = h.module->launch(
      "gemm", cfg,
      {arg(dimg), arg(static_cast<uint32_t>(words.size())), arg(sdesc(0, alb, asb, c.swz)),
       arg(sdesc(32768, blb, bsb, c.swz)), arg(idesc), arg(out),
       arg(c.n), arg(c.steps), arg(k_step(true, c.swz, geometry, alb, asb)),
       arg(k_step(c.b_k_major, c.swz, geometry, blb, bsb)), arg(dsf), arg(sfcols), arg(0u), arg(a_cols), arg(0u),
       arg(c.move_ids ? 0u : per_step), arg(c.move_ids ? 0u : per_step), arg(0u),
       arg(c.move_ids ? (id_step << 29 | id_step << 4) : 0u)});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint32_t> d = h.read<uint32_t>(out, size_t{128} * c.n);
  for (unsigned i = 0; i < c.m; ++i)
    for (unsigned j = 0; j < c.n; ++j) {
      double want = 0;
      for (unsigned k = 0; k < K; ++k)
        want += A[size_t{i} * K + k] * value_a(sa[size_t{i} * blocks + k / block]) * B[size_t{k} * c.n + j] *
                value(sb[size_t{j} * blocks + k / block]);
      const float f = static_cast<float>(want);
      ASSERT_EQ(double{f}, want) << "the reference must be exact in f32";
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      ASSERT_EQ(d[size_t{i} * c.n + j], bits) << c.name << " D[" << i << "][" << j << "] want " << want;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, Tcgen05BlockScale,
    ::testing::Values(
        Case{"mxf8_e4m3_block32_ids", "mxf8f6f4", ".block32", kE4M3, kE4M3, 128, 64, 4},
        Case{"mxf8_e5m2_e2m1_1x", "mxf8f6f4", ".scale_vec::1X", kE5M2, kE2M1, 128, 128, 2, false, true, Swz::B64},
        Case{"mxf8_e3m2_e2m3_default", "mxf8f6f4", "", kE3M2, kE2M3, 128, 256, 1, false, false, Swz::B128},
        Case{"mxf8_e4m3_b_mn_major", "mxf8f6f4", ".block32", kE4M3, kE4M3, 128, 32, 2, false, false, Swz::None, false},
        Case{"mxf4_block32_ids", "mxf4", ".block32", kE2M1, kE2M1, 128, 128, 2, false, true, Swz::B128},
        Case{"mxf4_2x_columns", "mxf4", ".scale_vec::2X", kE2M1, kE2M1, 128, 48, 2, false, false},
        Case{"nvf4_block16_ue8m0", "mxf4nvf4", ".block16", kE2M1, kE2M1, 128, 64, 2, false, false, Swz::B64},
        Case{"nvf4_4x_ue4m3", "mxf4nvf4", ".scale_vec::4X", kE2M1, kE2M1, 128, 8, 3, true, false},
        Case{"nvf4_subnormal_ue4m3", "mxf4nvf4", ".block16", kE2M1, kE2M1, 128, 64, 2, true, false, Swz::None, true,
             true}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace ptxvm::test
