// Half-precision (PTX §9.7.4) and mixed-precision (§9.7.5) arithmetic against references
// written from the ISA's definitions: exact results (computed in double, exact for the chosen
// operand ranges) rounded once. §9.7.5 needs sm_100, so tests/hw/float (recorded on sm_90)
// has no vectors for it; these are its tests.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"

namespace ptxvm::test {
namespace {

// Runs `insn d, a, b[, c]` per element; operand registers of class ra/rb/rc ("h" .b16,
// "f" .f32, "r" .b32), result of class rd; values are raw bits.
std::vector<uint32_t> run(const std::string& insn, const std::string& rd, std::vector<std::string> rs,
                          const std::vector<std::vector<uint32_t>>& ops, const std::string& target) {
  const size_t n = ops[0].size();
  auto ld = [](const std::string& r) { return r == "h" ? std::string("b16") : r == "f" ? "f32" : "b32"; };
  auto bytes = [](const std::string& r) { return r == "h" ? 2u : 4u; };
  std::vector<uint8_t> in(ops.size() * n * 4);
  for (size_t k = 0; k < ops.size(); ++k)
    for (size_t i = 0; i < n; ++i) std::memcpy(&in[(k * n + i) * 4], &ops[k][i], bytes(rs[k]));
  std::string body =
      "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\nmad.lo.u32 %r4, %r1, %r2, %r3;\n"
      "setp.ge.u32 %p0, %r4, " + std::to_string(n) + ";\n@%p0 bra DONE;\nmul.wide.u32 %rd1, %r4, 4;\n"
      "add.u64 %rd2, %rd_in, %rd1;\nadd.u64 %rd3, %rd_out, %rd1;\n";
  std::string list;
  for (size_t k = 0; k < ops.size(); ++k) {
    const std::string r = "%" + rs[k] + std::to_string(k + 11);
    body += "ld.global." + ld(rs[k]) + " " + r + ", [%rd2+" + std::to_string(k * n * 4) + "];\n";
    list += ", " + r;
  }
  body += insn + " %" + rd + "15" + list + ";\nst.global." + ld(rd) + " [%rd3], %" + rd + "15;\nDONE:\n";
  Harness h;
  h.load(kernel_ptx(body, target));
  const uint64_t din = h.buffer(in), dout = h.buffer(std::vector<uint32_t>(n));
  const auto r = h.launch("k", Dim3{static_cast<unsigned>((n + 127) / 128), 1, 1}, Dim3{128, 1, 1}, {arg(dout), arg(din)});
  EXPECT_TRUE(r.ok) << r.error;
  auto out = h.read<uint32_t>(dout, n);
  if (rd == "h")
    for (auto& v : out) v &= 0xffff;
  return out;
}

// f16 / bf16 bits <-> double.
double f16_value(uint32_t h) {
  const int e = h >> 10 & 31, m = h & 1023;
  const double s = (h & 0x8000) ? -1 : 1;
  if (e == 31) return m ? NAN : s * INFINITY;
  return e ? s * std::ldexp(1024 + m, e - 25) : s * std::ldexp(m, -24);
}
double bf16_value(uint32_t h) { return std::bit_cast<float>(h << 16); }

enum class Mode { RN, RZ, RM, RP };
const char* kModes[] = {".rn", ".rz", ".rm", ".rp"};

// Exact x rounded to f32 by m (directed modes step from the RN result when it lies on the
// wrong side of x).
uint32_t round_f32(double x, Mode m) {
  float r = static_cast<float>(x);
  if (static_cast<double>(r) != x) {
    const bool above = static_cast<double>(r) > x;
    if ((m == Mode::RZ && above == (x > 0)) || (m == Mode::RM && above) || (m == Mode::RP && !above))
      r = std::nextafter(r, above ? -INFINITY : INFINITY);
  }
  return std::bit_cast<uint32_t>(r);
}

// Exact x rounded to nearest-even f16 (x within the normal f16 range or zero).
uint32_t round_f16(double x) {
  if (x == 0) return std::signbit(x) ? 0x8000 : 0;
  const uint32_t s = x < 0 ? 0x8000 : 0;
  const double a = std::fabs(x);
  int e = std::max(std::ilogb(a), -14);
  double q = std::ldexp(1.0, e - 10);
  double k = std::nearbyint(a / q);  // ties to even (default FE_TONEAREST)
  if (k == 2048) k = 1024, ++e;
  if (e > 15) return s | 0x7c00;
  const uint32_t man = static_cast<uint32_t>(k);
  return s | (man >= 1024 ? static_cast<uint32_t>(e + 15) << 10 | (man - 1024) : man);
}

struct Gen {
  uint64_t s;
  uint64_t next() { return s = s * 6364136223846793005ull + 1442695040888963407ull; }
  // A half value with exponent in [-lo, lo] (f16: 10-bit mantissa; bf16: 7-bit).
  uint32_t half(bool bf, int lo) {
    const uint64_t r = next();
    const int e = static_cast<int>((r >> 40) % (2 * lo + 1)) - lo;
    const uint32_t sign = static_cast<uint32_t>(r >> 63) << 15;
    if (bf) return sign | static_cast<uint32_t>(e + 127) << 7 | (r >> 20 & 0x7f);
    return sign | static_cast<uint32_t>(e + 15) << 10 | (r >> 20 & 0x3ff);
  }
  uint32_t f32(int e0, int spread) {
    const uint64_t r = next();
    const int e = e0 + static_cast<int>((r >> 40) % (2 * spread + 1)) - spread;
    return static_cast<uint32_t>(r >> 63) << 31 | static_cast<uint32_t>(e + 127) << 23 | (r >> 16 & 0x7fffff);
  }
};

TEST(Half, MixedAddSubEveryRoundingMode) {
  for (bool bf : {false, true}) {
    Gen g{bf ? 11u : 12u};
    std::vector<uint32_t> a, c;
    for (int i = 0; i < 1024; ++i) {
      a.push_back(g.half(bf, 8));
      c.push_back(g.f32(0, 8));
    }
    const std::string t = bf ? ".bf16" : ".f16";
    for (int m = 0; m < 4; ++m)
      for (bool sub : {false, true})
        for (bool sat : {false, true}) {
          const std::string insn = std::string(sub ? "sub" : "add") + kModes[m] + (sat ? ".sat" : "") + ".f32" + t;
          const auto d = run(insn, "f", {"h", "f"}, {a, c}, "sm_100a");
          for (size_t i = 0; i < a.size(); ++i) {
            const double x = bf ? bf16_value(a[i]) : f16_value(a[i]), y = std::bit_cast<float>(c[i]);
            double exact = sub ? x - y : x + y;
            uint32_t want = round_f32(exact, static_cast<Mode>(m));
            if (sat) {  // clamp to [0, 1]
              const float f = std::bit_cast<float>(want);
              want = f <= 0 ? 0 : f > 1 ? 0x3f800000 : want;
            }
            ASSERT_EQ(d[i], want) << insn << " " << x << " " << y;
          }
        }
  }
}

TEST(Half, MixedFmaEveryRoundingMode) {
  for (bool bf : {false, true}) {
    Gen g{bf ? 21u : 22u};
    std::vector<uint32_t> a, b, c;
    for (int i = 0; i < 1024; ++i) {
      a.push_back(g.half(bf, 6));
      b.push_back(g.half(bf, 6));
      c.push_back(g.f32(0, 8));  // a*b + c spans at most 53 bits: exact in double
    }
    const std::string t = bf ? ".bf16" : ".f16";
    for (int m = 0; m < 4; ++m) {
      const std::string insn = std::string("fma") + kModes[m] + ".f32" + t;
      const auto d = run(insn, "f", {"h", "h", "f"}, {a, b, c}, "sm_100a");
      for (size_t i = 0; i < a.size(); ++i) {
        const double x = bf ? bf16_value(a[i]) : f16_value(a[i]), y = bf ? bf16_value(b[i]) : f16_value(b[i]);
        ASSERT_EQ(d[i], round_f32(x * y + std::bit_cast<float>(c[i]), static_cast<Mode>(m))) << insn;
      }
    }
  }
}

TEST(Half, F16ArithmeticRoundsOnce) {
  Gen g{31};
  std::vector<uint32_t> a, b, c;
  for (int i = 0; i < 2048; ++i) {
    a.push_back(g.half(false, 5));
    b.push_back(g.half(false, 5));
    c.push_back(g.half(false, 5));
  }
  const auto add = run("add.rn.f16", "h", {"h", "h"}, {a, b}, "sm_90");
  const auto mul = run("mul.f16", "h", {"h", "h"}, {a, b}, "sm_90");
  const auto fma = run("fma.rn.f16", "h", {"h", "h", "h"}, {a, b, c}, "sm_90");
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = f16_value(a[i]), y = f16_value(b[i]), z = f16_value(c[i]);
    ASSERT_EQ(add[i], round_f16(x + y)) << x << " " << y;
    ASSERT_EQ(mul[i], round_f16(x * y)) << x << " " << y;
    ASSERT_EQ(fma[i], round_f16(x * y + z)) << x << " " << y << " " << z;
  }
}

TEST(Half, ModifiersOnEdgeValues) {
  // a, b, c bits -> expected d bits, from §9.7.4's definitions.
  struct Case {
    const char* insn;
    uint32_t a, b, c, want;
  };
  const Case cases[] = {
      {"fma.rn.relu.f16", 0x3c00, 0xbc00, 0x0000, 0x0000},  // -1 -> +0
      {"fma.rn.relu.f16", 0x7c00, 0x0000, 0x0000, 0x7fff},  // NaN -> canonical NaN
      {"fma.rn.relu.bf16", 0x3f80, 0x4000, 0x3f80, 0x4040},  // 1*2+1 = 3
      {"fma.rn.sat.f16", 0x3c00, 0x4000, 0x0000, 0x3c00},   // 2 -> 1
      {"fma.rn.sat.f16", 0x7c00, 0x0000, 0x0000, 0x0000},   // NaN -> +0
      {"fma.rn.ftz.f16", 0x0001, 0x3c00, 0x0000, 0x0000},   // subnormal input -> 0
      {"fma.rn.f16", 0x0001, 0x3c00, 0x0000, 0x0001},
      {"fma.rn.ftz.f16", 0x0400, 0x3800, 0x0000, 0x0000},   // 2^-15: subnormal result -> 0
      {"fma.rn.oob.f16", 0x7ff7, 0x3c00, 0x3c00, 0x0000},   // OOB-NaN a (sm_90's 0x7ff7) -> +0
      {"fma.rn.oob.bf16", 0x3f80, 0xfff7, 0x3f80, 0x0000},  // ... as b, either sign
      {"fma.rn.oob.f16", 0x3c00, 0x3c00, 0x7ff7, 0x7fff},   // ... not as c: a NaN like others
      {"fma.rn.oob.relu.f16", 0x3c00, 0xbc00, 0x0000, 0x0000},
      {"add.f16x2", 0x3c004000, 0x3c00bc00, 0, 0x40003c00},  // element-wise: {2-1, 1+1}
      {"mul.rn.bf16x2", 0x40004040, 0x3f80bf80, 0, 0x4000c040},
      {"min.f16", 0x7e00, 0x3c00, 0, 0x3c00},               // NaN operand: the other
      {"min.NaN.f16", 0x7e00, 0x3c00, 0, 0x7fff},
      {"max.f16", 0x8000, 0x0000, 0, 0x0000},               // +0 > -0
      {"max.xorsign.abs.bf16", 0xc040, 0x4000, 0, 0xc040},  // |-3| > |2|, sign of a^b
      {"neg.bf16", 0x3f80, 0, 0, 0xbf80},
      {"abs.ftz.f16", 0x8001, 0, 0, 0x0000},
      {"abs.f16x2", 0xbc008001, 0, 0, 0x3c000001},
  };
  for (const Case& k : cases) {
    const std::string insn = k.insn;
    const bool x2 = insn.find("x2") != std::string::npos;
    const std::string r = x2 ? "r" : "h";
    const int arity = insn.rfind("fma", 0) == 0 ? 3 : insn.rfind("neg", 0) == 0 || insn.rfind("abs", 0) == 0 ? 1 : 2;
    std::vector<std::string> rs(arity, r);
    std::vector<std::vector<uint32_t>> ops = {{k.a}, {k.b}, {k.c}};
    ops.resize(arity);
    EXPECT_EQ(run(insn, r, rs, ops, "sm_90")[0], k.want) << insn;
  }
}

TEST(Half, SetAndSetp) {
  // set.CmpOp.dtype.stype writes 1.0 or all ones; setp of f16x2 gives p from element 0 and q
  // from element 1 (§9.7.7).
  EXPECT_EQ(run("set.lt.f16.f16", "h", {"h", "h"}, {{0x3c00}, {0x4000}}, "sm_90")[0], 0x3c00u);
  EXPECT_EQ(run("set.gt.u32.f16", "r", {"h", "h"}, {{0x3c00}, {0x4000}}, "sm_90")[0], 0u);
  EXPECT_EQ(run("set.equ.u32.f16", "r", {"h", "h"}, {{0x7e00}, {0x4000}}, "sm_90")[0], 0xffffffffu);
  EXPECT_EQ(run("set.lt.bf16x2.bf16x2", "r", {"r", "r"}, {{0x3f804000}, {0x40003f80}}, "sm_90")[0], 0x3f800000u);
  EXPECT_EQ(run("set.ge.f32.s32", "f", {"r", "r"}, {{5}, {0xffffffff}}, "sm_90")[0], 0x3f800000u);
  EXPECT_EQ(run("set.lo.u32.u32", "r", {"r", "r"}, {{5}, {0xffffffff}}, "sm_90")[0], 0xffffffffu);
  EXPECT_EQ(run("set.lt.ftz.u32.f32", "r", {"f", "f"}, {{0x80000001}, {0}}, "sm_90")[0], 0u);
  Harness h;
  h.load(kernel_ptx("mov.b32 %r1, 0x3c00bc00;\nmov.b32 %r2, 0x00000000;\nsetp.lt.f16x2 %p1|%p2, %r1, %r2;\n"
                    "selp.u32 %r3, 1, 0, %p1;\nselp.u32 %r4, 2, 0, %p2;\nor.b32 %r5, %r3, %r4;\nst.global.u32 [%rd_out], %r5;\n"));
  const uint64_t out = h.buffer(std::vector<uint32_t>(1));
  ASSERT_TRUE(h.launch("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, {arg(out), arg(uint64_t{0})}).ok);
  EXPECT_EQ(h.read<uint32_t>(out, 1)[0], 1u);  // -1 < 0 (element 0, p), 1 < 0 false (q)
}

}  // namespace
}  // namespace ptxvm::test
