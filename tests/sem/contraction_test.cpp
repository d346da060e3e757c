// Floating-point contraction (lower/contraction.h): which mul/add pairs run as one fused
// multiply-add, as ptxas fuses them for sm_90 (PTX §9.7.3.3: "mul/add sequences with no rounding
// modifiers may be optimized to use fused-multiply-add instructions"). The H200's own results
// for these rules are tests/kernels' hand_contraction launches; here each rule on operands whose
// product needs more than 24 bits, so that fused and separate results differ.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"

namespace ptxvm::test {
namespace {

// a*b = 1 + 2^-11 + 2^-24: rounded, 1 + 2^-11 (the tie goes to even), so a*b + c is 0 when the
// product rounds first and 2^-24 when fused.
const float kA = 1 + 0x1p-12f, kB = 1 + 0x1p-12f, kC = -(1 + 0x1p-11f);

// Runs `body` with %f1..%f4 = in[0..3] and returns what it leaves in %f9..%f9+n-1.
std::vector<float> run(const std::string& body, std::vector<float> in, int n = 1, const std::string& target = "sm_90") {
  in.resize(4);
  std::string ptx = "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd_in];\n" + body;
  for (int i = 0; i < n; ++i)
    ptx += "\nst.global.f32 [%rd_out+" + std::to_string(4 * i) + "], %f" + std::to_string(9 + i) + ";";
  Harness h;
  h.load(kernel_ptx(ptx, target));
  const uint64_t din = h.buffer(in), dout = h.buffer(std::vector<float>(n));
  const auto r = h.launch("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, {arg(dout), arg(din)});
  EXPECT_TRUE(r.ok) << r.error;
  return h.read<float>(dout, n);
}
float run1(const std::string& body, const std::string& target = "sm_90") { return run(body, {kA, kB, kC}, 1, target)[0]; }

const float kFused = 0x1p-24f, kSeparate = 0.0f;

TEST(Contraction, MulThenAddIsOneFusedMultiplyAdd) {
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;"), kFused);
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f3, %f5;"), kFused);
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nsub.f32 %f9, %f5, %f3;"), std::fma(kA, kB, -kC));
  EXPECT_EQ(run1("neg.f32 %f3, %f3;\nmul.f32 %f5, %f1, %f2;\nsub.f32 %f9, %f3, %f5;"), -kFused);  // c - a*b
  // other instructions between them, an immediate operand, a guarded add
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nmov.f32 %f6, %f1;\nadd.f32 %f7, %f6, %f6;\nadd.f32 %f9, %f5, %f3;"), kFused);
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, 0fBF801000;"), kFused);
  EXPECT_EQ(run1("setp.eq.f32 %p1, %f1, %f1;\nmov.f32 %f9, 0f3F800000;\nmul.f32 %f5, %f1, %f2;\n@%p1 add.f32 %f9, %f5, %f3;"),
            kFused);
}

TEST(Contraction, OnlyWhereTheProductHasNoOtherUseAndNoRoundingIsWritten) {
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;\nadd.f32 %f10, %f5, %f3;"), kSeparate);
  EXPECT_EQ(run1("mul.rn.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;"), kSeparate);
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nadd.rn.f32 %f9, %f5, %f3;"), kSeparate);
  EXPECT_EQ(run1("mul.ftz.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;"), kSeparate);
  EXPECT_EQ(run1("mul.ftz.f32 %f5, %f1, %f2;\nadd.ftz.f32 %f9, %f5, %f3;"), kFused);
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f5;"), 2 * (1 + 0x1p-11f));
  // an add in the next basic block, and in a module compiled for debugging
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nsetp.ne.f32 %p1, %f1, %f1;\n@%p1 bra SKIP;\nadd.f32 %f9, %f5, %f3;\nSKIP:"),
            kSeparate);
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;", "sm_90, debug"), kSeparate);
}

TEST(Contraction, AcrossBlocksOnlyAProductByAnImmediate) {
  // kA * (1 + 2^-12) by an immediate: the same product as kA * kB
  const std::string imm = "mul.f32 %f5, %f1, 0f3F800800;\n";
  const std::string branch = "setp.ne.f32 %p1, %f1, %f1;\n@%p1 bra SKIP;\nmov.f32 %f6, %f1;\nSKIP:\n";
  EXPECT_EQ(run1(imm + branch + "add.f32 %f9, %f5, %f3;"), kFused);
  EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\n" + branch + "add.f32 %f9, %f5, %f3;"), kSeparate);
  // an instruction that ptxas expands behind a branch, or a memory barrier, ends the block for a
  // product of two registers only
  for (const char* between : {"div.rn.f32 %f7, %f1, %f2;", "sqrt.rn.f64 %fd7, %fd1;", "div.s32 %r7, %r1, %r2;",
                              "membar.gl;", "fence.acq_rel.gpu;"}) {
    EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\n" + std::string(between) + "\nadd.f32 %f9, %f5, %f3;"), kSeparate) << between;
    EXPECT_EQ(run1(imm + between + "\nadd.f32 %f9, %f5, %f3;"), kFused) << between;
  }
  for (const char* between : {"div.full.f32 %f7, %f1, %f2;", "div.u32 %r7, %r1, %r2;", "sqrt.approx.f32 %f7, %f1;",
                              "bar.sync 0;", "fence.proxy.async;"})
    EXPECT_EQ(run1("mul.f32 %f5, %f1, %f2;\n" + std::string(between) + "\nadd.f32 %f9, %f5, %f3;"), kFused) << between;
  // the register operand written in a loop, in the multiply's block: the add reads what it read
  EXPECT_EQ(run1("mov.u32 %r1, 0;\nLOOP:\nmov.f32 %f6, %f1;\nmul.f32 %f5, %f6, 0f3F800800;\n"
                 "setp.eq.u32 %p1, %r1, 7;\n@%p1 bra LOOP;\nadd.f32 %f9, %f5, %f3;"), kFused);
}

TEST(Contraction, ASignChangeThatOnlyASelectReadsKeepsANaN) {
  // neg/abs .f32 alone are additions (FADD -R, -RZ): a NaN comes out canonical. Read only by a
  // selp, ptxas folds them into FSEL's operand, which flips or clears the sign bit and nothing else.
  const std::vector<float> nan = {std::bit_cast<float>(0x7fc01234u)};
  auto bits = [&](const std::string& body) { return std::bit_cast<uint32_t>(run(body, nan)[0]); };
  const std::string pick = "setp.eq.f32 %p1, %f1, 0f00000000;\n";
  EXPECT_EQ(bits("neg.f32 %f9, %f1;"), 0x7fffffffu);
  EXPECT_EQ(bits("abs.f32 %f9, %f1;"), 0x7fffffffu);
  EXPECT_EQ(bits(pick + "neg.f32 %f5, %f1;\nselp.f32 %f9, %f1, %f5, %p1;"), 0xffc01234u);
  EXPECT_EQ(bits(pick + "abs.f32 %f5, %f1;\nselp.f32 %f9, %f5, %f1, %p1;"), 0x7fc01234u);
  EXPECT_EQ(bits(pick + "neg.ftz.f32 %f5, %f1;\nselp.f32 %f9, %f1, %f5, %p1;"), 0x7fffffffu);  // not folded
  EXPECT_EQ(bits(pick + "neg.f32 %f5, %f1;\nselp.f32 %f9, %f1, %f5, %p1;\nadd.f32 %f10, %f5, %f5;"), 0x7fffffffu);
}

TEST(Contraction, SaturationOnlyOnTheAdd) {
  const float big = 1 + 0x1p-2f;  // a*b + c > 1: saturates to 1 either way; below 0 to 0
  EXPECT_EQ(run("mul.f32 %f5, %f1, %f2;\nadd.sat.f32 %f9, %f5, %f3;", {kA, kB, kC})[0], kFused);
  EXPECT_EQ(run("mul.f32 %f5, %f1, %f2;\nadd.sat.f32 %f9, %f5, %f3;", {big, big, 0})[0], 1.0f);
  // mul.sat clamps the product first (to 1 here), so the pair is not fused: 1 + c
  EXPECT_EQ(run("mul.sat.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;", {big, big, -0.5f})[0], 0.5f);
}

TEST(Contraction, TheFirstOperandOfTwoProductsIsFused) {
  // a*b + c*d: FMUL of c*d, then FFMA(a, b, that) (ptxas 13.0, sm_90)
  const float c = 1 + 0x1p-12f, d = -(1 + 0x1p-12f);
  const std::vector<float> in = {kA, kB, c, d};
  const float cd = c * d;  // rounded: -(1 + 2^-11)
  EXPECT_EQ(run("mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nadd.f32 %f9, %f5, %f6;", in)[0], std::fma(kA, kB, cd));
  EXPECT_EQ(run("mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nsub.f32 %f9, %f6, %f5;", in)[0], std::fma(c, d, -(kA * kB)));
}

TEST(Contraction, DivisionsFuseTheirLastMultiply) {
  // div.full and div.approx compute a * MUFU.RCP(b): the add fuses that multiply (rcp.approx.ftz
  // is MUFU.RCP for a normal b).
  const std::vector<float> in = {1.25f, 3.0f, -0.41666666f};
  for (const char* div : {"div.full.f32", "div.approx.f32", "div.full.ftz.f32"}) {
    const std::string add = std::string(div).find("ftz") != std::string::npos ? "add.ftz.f32" : "add.f32";
    const auto got = run(std::string(div) + " %f5, %f1, %f2;\n" + add + " %f9, %f5, %f3;\nrcp.approx.ftz.f32 %f10, %f2;", in, 2);
    EXPECT_EQ(got[0], std::fma(in[0], got[1], in[2])) << div;
    EXPECT_NE(got[0], in[0] * got[1] + in[2]) << div << ": these operands tell fused from separate";
  }
  const auto got = run("div.full.f32 %f5, %f1, %f2;\nsub.f32 %f9, %f3, %f5;\nrcp.approx.ftz.f32 %f10, %f2;", in, 2);
  EXPECT_EQ(got[0], std::fma(-in[0], got[1], in[2]));
}

TEST(Contraction, ADivisionByAConstantMultipliesByTheNearestReciprocal) {
  // ptxas folds 1/255 to 0x3b808081 where MUFU.RCP(255) gives 0x3b808080 (rcp.approx.ftz).
  const float a = 0x1.fffffep+0f, nearest = a * std::bit_cast<float>(0x3b808081u);
  const std::vector<float> in = {a, 255.0f};
  for (const char* body : {"div.full.f32 %f9, %f1, 0f437F0000;", "div.approx.ftz.f32 %f9, %f1, 0f437F0000;",
                           "mov.f32 %f5, 0f437F0000;\ndiv.full.f32 %f9, %f1, %f5;"})
    EXPECT_EQ(run(body, in)[0], nearest) << body;
  const auto mufu = run("div.full.f32 %f9, %f1, %f2;\nrcp.approx.ftz.f32 %f10, %f2;", in, 2);
  EXPECT_EQ(std::bit_cast<uint32_t>(mufu[1]), 0x3b808080u);
  EXPECT_EQ(mufu[0], a * mufu[1]);
  EXPECT_NE(mufu[0], nearest) << "these operands tell the two reciprocals apart";
  // div.full.ftz keeps MUFU.RCP for a register, even one a mov of a constant writes
  EXPECT_EQ(run("mov.f32 %f5, 0f437F0000;\ndiv.full.ftz.f32 %f9, %f1, %f5;", in)[0], mufu[0]);
}

TEST(Contraction, DoubleAndHalfPrecision) {
  Harness h;
  h.load(kernel_ptx(
      "ld.global.v2.f64 {%fd1, %fd2}, [%rd_in];\nld.global.f64 %fd3, [%rd_in+16];\n"
      "mul.f64 %fd5, %fd1, %fd2;\nadd.f64 %fd9, %fd5, %fd3;\nst.global.f64 [%rd_out], %fd9;\n"
      "ld.global.v2.b32 {%r1, %r2}, [%rd_in+24];\nld.global.b32 %r3, [%rd_in+32];\n"
      "mul.f16x2 %r5, %r1, %r2;\nadd.f16x2 %r6, %r5, %r3;\nst.global.b32 [%rd_out+8], %r6;\n"
      "mul.bf16x2 %r7, %r1, %r2;\nadd.bf16x2 %r8, %r7, %r3;\nst.global.b32 [%rd_out+12], %r8;"));
  const double a = 1 + 0x1p-27, c = -(1 + 0x1p-26);
  // f16: a = b = 1 + 2^-6, c = -(1 + 2^-5): fused 2^-12 (0x0c00); bf16 halves: the same with 2^-4
  const uint32_t f16 = 0x3c10, f16c = 0xbc20, bf16 = 0x3f88, bf16c = 0xbf90;
  std::vector<uint64_t> in(5);
  in[0] = std::bit_cast<uint64_t>(a), in[1] = std::bit_cast<uint64_t>(a), in[2] = std::bit_cast<uint64_t>(c);
  in[3] = (uint64_t{f16 | bf16 << 16} << 32) | (f16 | bf16 << 16);
  in[4] = f16c | bf16c << 16;
  const uint64_t din = h.buffer(in), dout = h.buffer(std::vector<uint64_t>(2));
  ASSERT_TRUE(h.launch("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, {arg(dout), arg(din)}).ok);
  const auto out = h.read<uint64_t>(dout, 2);
  EXPECT_EQ(std::bit_cast<double>(out[0]), 0x1p-54);
  EXPECT_EQ(out[1] & 0xffff, 0x0c00u);                 // f16 element 0: 2^-12
  EXPECT_EQ(out[1] >> 48, 0x3b80u);                    // bf16 element 1: 2^-8
}

}  // namespace
}  // namespace ptxvm::test
