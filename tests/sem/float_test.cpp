// Floating-point arithmetic (PTX §9.7.3) against references written from the ISA's
// definitions: the exact result (computed in double where it is exact) rounded by the named
// mode. Covers what tests/hw/float cannot record on sm_90 (.f32x2, PTX 8.8's three-operand
// min/max) and every rounding mode over many generated operands.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "numeric/format.h"
#include "numeric/ieee_arith.h"
#include "numeric/modifiers.h"

namespace ptxvm::test {
namespace {

// Runs `insn d, a, b[, c]` for element i of each operand vector (registers of class `reg`,
// "f" .f32, "fd" .f64, "rd" .b64) in one launch, returning d per element.
template <typename T>
std::vector<T> run(const std::string& insn, const std::string& reg, int arity, const std::vector<T>& a,
                   const std::vector<T>& b = {}, const std::vector<T>& c = {}, const std::string& target = "sm_90") {
  const size_t n = a.size(), eb = sizeof(T);
  const std::string ld = reg == "f" ? "f32" : reg == "fd" ? "f64" : "b64";
  std::vector<T> in(a);
  in.insert(in.end(), b.begin(), b.end());
  in.insert(in.end(), c.begin(), c.end());
  in.resize(3 * n);
  std::string body =
      "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\nmad.lo.u32 %r4, %r1, %r2, %r3;\n"
      "setp.ge.u32 %p0, %r4, " + std::to_string(n) + ";\n@%p0 bra DONE;\nmul.wide.u32 %rd1, %r4, " +
      std::to_string(eb) + ";\nadd.u64 %rd2, %rd_in, %rd1;\nadd.u64 %rd3, %rd_out, %rd1;\n";
  std::string ops;
  for (int i = 0; i < arity; ++i) {
    const std::string r = "%" + reg + std::to_string(i + 11);
    body += "ld.global." + ld + " " + r + ", [%rd2+" + std::to_string(i * n * eb) + "];\n";
    ops += ", " + r;
  }
  body += insn + " %" + reg + "19" + ops + ";\nst.global." + ld + " [%rd3], %" + reg + "19;\nDONE:\n";
  Harness h;
  h.load(kernel_ptx(body, target));
  const uint64_t din = h.buffer(in), dout = h.buffer(std::vector<T>(n));
  const auto r = h.launch("k", Dim3{static_cast<unsigned>((n + 127) / 128), 1, 1}, Dim3{128, 1, 1}, {arg(dout), arg(din)});
  EXPECT_TRUE(r.ok) << r.error;
  return h.read<T>(dout, n);
}

enum class Mode { RN, RZ, RM, RP };
const char* kModes[] = {".rn", ".rz", ".rm", ".rp"};

// An exact value (a double) rounded to f32 by `m`: RN is the conversion; the directed modes
// step to the neighbour when the RN result lies on the wrong side of the exact value.
float round_f32(double x, Mode m) {
  float r = static_cast<float>(x);
  if (std::isnan(x) || static_cast<double>(r) == x) return r;
  const bool above = static_cast<double>(r) > x;
  if ((m == Mode::RZ && above == (x > 0)) || (m == Mode::RM && above) || (m == Mode::RP && !above))
    r = std::nextafter(r, above ? -INFINITY : INFINITY);
  if (std::isinf(r) && m != Mode::RN) {  // overflow: RZ and the mode toward zero keep MAX
    const bool toward_inf = (m == Mode::RP && x > 0) || (m == Mode::RM && x < 0);
    if (!toward_inf) r = std::copysign(3.4028234663852886e38f, static_cast<float>(x));
  }
  return r;
}

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

// f32 operands whose sums, differences and products are exact in double: exponents within
// 2^-20..2^20, random mantissas, both signs; plus exact-tie constructions.
std::vector<float> operands(uint64_t seed, size_t n) {
  std::vector<float> v;
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t man = static_cast<uint32_t>(s >> 20) & 0x7fffff;
    const uint32_t e = 127 - 20 + static_cast<uint32_t>(s >> 50) % 41;
    v.push_back(std::bit_cast<float>((static_cast<uint32_t>(s >> 63) << 31) | e << 23 | man));
  }
  return v;
}

TEST(Float, AddSubMulEveryRoundingMode) {
  const auto a = operands(1, 2048), b = operands(2, 2048);
  for (int m = 0; m < 4; ++m)
    for (const char* op : {"add", "sub", "mul"}) {
      const auto d = run<float>(std::string(op) + kModes[m] + ".f32", "f", 2, a, b);
      for (size_t i = 0; i < a.size(); ++i) {
        const double x = a[i], y = b[i];
        const double exact = op[0] == 'a' ? x + y : op[0] == 's' ? x - y : x * y;
        ASSERT_EQ(bits(d[i]), bits(round_f32(exact, static_cast<Mode>(m)))) << op << kModes[m] << " " << x << " " << y;
      }
    }
}

TEST(Float, FmaEveryRoundingModeOneRounding) {
  // a*b is exact in double (48 bits); c = -(a*b rounded to f32) makes the sum exact in double
  // too (a cancellation that a separate multiply would lose).
  const auto a = operands(3, 2048), b = operands(4, 2048);
  std::vector<float> c(a.size());
  for (size_t i = 0; i < a.size(); ++i) c[i] = -static_cast<float>(static_cast<double>(a[i]) * b[i]);
  for (int m = 0; m < 4; ++m)
    for (const char* op : {"fma", "mad"}) {
      const auto d = run<float>(std::string(op) + kModes[m] + ".f32", "f", 3, a, b, c);
      for (size_t i = 0; i < a.size(); ++i) {
        const double exact = static_cast<double>(a[i]) * b[i] + c[i];
        ASSERT_EQ(bits(d[i]), bits(round_f32(exact, static_cast<Mode>(m)))) << op << kModes[m] << " " << a[i];
      }
    }
}

TEST(Float, FlushToZeroFormsAgreeWithTheExactModel) {
  // add/sub/mul/fma.ftz.f32 take the host's arithmetic away from the smallest normal and
  // numeric::arith near it (sem/float.cpp ftz_f32): both must give numeric::arith's bits, on
  // operands around 2^-126 (subnormals, products and sums that land on either side of it) and
  // cancellations.
  std::vector<float> a, b, c;
  uint64_t seed = 0x9e3779b97f4a7c15u;
  auto next = [&] { return seed = seed * 6364136223846793005u + 1442695040888963407u; };
  for (int i = 0; i < 8192; ++i) {
    const uint64_t r = next();
    auto near = [&](int lo, int hi) {  // a float with a random mantissa and an exponent in [lo, hi]
      const uint32_t e = static_cast<uint32_t>(lo + static_cast<int>((next() >> 40) % static_cast<uint64_t>(hi - lo + 1)));
      return std::bit_cast<float>(static_cast<uint32_t>((next() >> 63) << 31 | e << 23 | (next() >> 41)));
    };
    const float x = near(0, 4), y = r & 1 ? near(60, 66) : near(0, 4);  // products near 2^-126, sums of tiny ones
    const float cancel = std::bit_cast<float>((bits(x) ^ 0x80000000u) + static_cast<uint32_t>(next() >> 60));
    a.push_back(x), b.push_back(r & 8 ? cancel : r & 2 ? y : near(120, 134)), c.push_back(r & 4 ? -x : near(0, 3));
  }
  for (const char* op : {"add", "sub", "mul", "fma"}) {
    const numeric::ArithOp k = op[0] == 'a' ? numeric::ArithOp::Add : op[0] == 's' ? numeric::ArithOp::Sub
                               : op[0] == 'm' ? numeric::ArithOp::Mul : numeric::ArithOp::Fma;
    const auto d = run<float>(std::string(op) + (op[0] == 'f' ? ".rn" : "") + ".ftz.f32", "f", op[0] == 'f' ? 3 : 2, a, b, c);
    int tiny = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      const uint64_t want = numeric::arith(numeric::kF32, k, bits(a[i]), bits(b[i]), bits(c[i]), numeric::kFtz);
      ASSERT_EQ(bits(d[i]), want) << op << " " << a[i] << " " << b[i] << " " << c[i];
      tiny += std::fabs(d[i]) <= 0x1p-126f;
    }
    EXPECT_GT(tiny, 100) << op << ": the operands reach the smallest normal";
  }
}

TEST(Float, SpecialValuesAndModifiers) {
  const float inf = INFINITY, mn = 1.17549435e-38f, sub = 1e-40f;
  // add{.rnd}{.ftz}{.sat}.f32 on edge operands: expected results from the IEEE definitions.
  struct Case {
    const char* insn;
    float a, b;
    uint32_t want;
  };
  const Case cases[] = {
      {"add.rn.f32", inf, -inf, 0x7fffffff},           // invalid: canonical NaN
      {"add.rn.f32", 1.0f, -1.0f, 0x00000000},         // exact zero: +0
      {"add.rm.f32", 1.0f, -1.0f, 0x80000000},         // ... -0 rounding down
      {"add.rn.f32", -0.0f, -0.0f, 0x80000000},
      {"add.rz.f32", 3.4028235e38f, 3.4028235e38f, 0x7f7fffff},  // overflow toward zero: MAX
      {"add.rp.f32", 3.4028235e38f, 3.4028235e38f, 0x7f800000},
      {"add.rm.f32", 3.4028235e38f, 3.4028235e38f, 0x7f7fffff},
      {"add.rn.ftz.f32", sub, 0.0f, 0x00000000},       // subnormal input flushed
      {"add.rn.f32", sub, 0.0f, bits(sub)},
      {"add.rn.ftz.f32", mn * 1.5f, -mn, 0x00000000},  // subnormal result flushed
      {"add.rn.sat.f32", 0.75f, 0.5f, 0x3f800000},     // clamped to 1
      {"add.rn.sat.f32", -0.75f, 0.5f, 0x00000000},    // clamped to +0
      {"add.rn.sat.f32", inf, -inf, 0x00000000},       // NaN -> +0
      {"mul.rn.f32", 0.0f, inf, 0x7fffffff},
      {"mul.rn.f32", -2.0f, 0.0f, 0x80000000},
      {"mul.rn.sat.f32", -2.0f, 0.0f, 0x00000000},
      {"div.rn.f32", 1.0f, 0.0f, 0x7f800000},
      {"div.rn.f32", -1.0f, 0.0f, 0xff800000},
      {"div.rn.f32", 0.0f, 0.0f, 0x7fffffff},
      {"div.rz.f32", 1.0f, 3.0f, 0x3eaaaaaa},
      {"div.rp.f32", 1.0f, 3.0f, 0x3eaaaaab},
      {"div.rn.f32", 2.0f, 3.0f, 0x3f2aaaab},
      {"div.rm.f32", -2.0f, 3.0f, 0xbf2aaaab},
      {"min.f32", NAN, 2.0f, bits(2.0f)},              // a NaN operand: the other
      {"max.f32", -0.0f, 0.0f, 0x00000000},            // +0 > -0
      {"min.f32", 0.0f, -0.0f, 0x80000000},
      {"min.NaN.f32", NAN, 2.0f, 0x7fffffff},
      {"max.xorsign.abs.f32", -3.0f, 2.0f, bits(-3.0f)},  // |max| with sign a^b
      {"min.xorsign.abs.f32", -3.0f, -2.0f, bits(2.0f)},
      {"copysign.f32", -1.0f, 5.0f, bits(-5.0f)},
  };
  for (const Case& c : cases) {
    const auto d = run<float>(c.insn, "f", 2, {c.a}, {c.b});
    EXPECT_EQ(bits(d[0]), c.want) << c.insn << " " << c.a << " " << c.b;
  }
  // sqrt and rcp in every mode: sqrt(2) and 1/3 neighbours.
  const uint32_t sqrt2_down = 0x3fb504f3, third_down = 0x3eaaaaaa;
  for (int m = 0; m < 4; ++m) {
    const auto s = run<float>(std::string("sqrt") + kModes[m] + ".f32", "f", 1, {2.0f, 4.0f, -1.0f, -0.0f});
    const uint32_t want = m == 3 ? sqrt2_down + 1 : sqrt2_down;  // RN: 1.41421354 is nearer
    EXPECT_EQ(bits(s[0]), want) << kModes[m];
    EXPECT_EQ(bits(s[1]), bits(2.0f));
    EXPECT_EQ(bits(s[2]), 0x7fffffffu);
    EXPECT_EQ(bits(s[3]), 0x80000000u);
    const auto r = run<float>(std::string("rcp") + kModes[m] + ".f32", "f", 1, {3.0f, -0.0f});
    EXPECT_EQ(bits(r[0]), m == 0 || m == 3 ? third_down + 1 : third_down) << kModes[m];
    EXPECT_EQ(bits(r[1]), 0xff800000u);
  }
}

TEST(Float, F64EveryRoundingMode) {
  // 1/3, 2/3 and sqrt(2) in f64: exact neighbours known from their binary expansions.
  for (int m = 0; m < 4; ++m) {
    const auto d = run<double>(std::string("div") + kModes[m] + ".f64", "fd", 2, {1.0, -2.0}, {3.0, 3.0});
    // 1/3 and 2/3 round down in magnitude under .rn (the next bits are 0101...).
    const uint64_t third = 0x3fd5555555555555ull, two_thirds = 0xbfe5555555555555ull;
    EXPECT_EQ(std::bit_cast<uint64_t>(d[0]), m == 3 ? third + 1 : third) << kModes[m];
    EXPECT_EQ(std::bit_cast<uint64_t>(d[1]), m == 2 ? two_thirds + 1 : two_thirds) << kModes[m];
    const auto s = run<double>(std::string("sqrt") + kModes[m] + ".f64", "fd", 1, {2.0});
    const uint64_t sqrt2_down = 0x3ff6a09e667f3bccull;  // RN rounds up: ...3bcd is nearer
    EXPECT_EQ(std::bit_cast<uint64_t>(s[0]), m == 0 || m == 3 ? sqrt2_down + 1 : sqrt2_down) << kModes[m];
    const auto f = run<double>(std::string("mad") + kModes[m] + ".f64", "fd", 3, {1.0 + 0x1p-52}, {1.0 - 0x1p-52}, {-1.0});
    EXPECT_EQ(f[0], -0x1p-104) << kModes[m];  // exact: one rounding of a*b+c
  }
}

TEST(Float, PackedF32x2) {
  // add/sub/mul/fma .f32x2 (sm_100): each f32 half independently, element 0 in the low word.
  // c = -(a*b rounded to f32): a*b + c is exact in double (as in the scalar fma test).
  const auto a = operands(5, 512), b = operands(6, 512);
  std::vector<float> c(a.size());
  for (size_t i = 0; i < a.size(); ++i) c[i] = -static_cast<float>(static_cast<double>(a[i]) * b[i]);
  auto pack = [](float lo, float hi) { return uint64_t{bits(hi)} << 32 | bits(lo); };
  std::vector<uint64_t> pa, pb, pc;
  for (size_t i = 0; i + 1 < a.size(); i += 2) {
    pa.push_back(pack(a[i], a[i + 1]));
    pb.push_back(pack(b[i], b[i + 1]));
    pc.push_back(pack(c[i], c[i + 1]));
  }
  for (int m = 0; m < 4; ++m)
    for (const char* op : {"add", "sub", "mul", "fma"}) {
      const bool fma = op[0] == 'f';
      const auto d = run<uint64_t>(std::string(op) + kModes[m] + ".f32x2", "rd", fma ? 3 : 2, pa, pb, pc, "sm_100a");
      for (size_t i = 0; i < pa.size(); ++i)
        for (int e = 0; e < 2; ++e) {
          const double x = a[2 * i + e], y = b[2 * i + e], z = c[2 * i + e];
          const double exact = op[0] == 'a' ? x + y : op[0] == 's' ? x - y : op[0] == 'm' ? x * y : x * y + z;
          ASSERT_EQ(static_cast<uint32_t>(d[i] >> (32 * e)), bits(round_f32(exact, static_cast<Mode>(m))))
              << op << kModes[m] << " element " << e;
        }
    }
}

TEST(Float, ThreeOperandMinMax) {
  const auto d = run<float>("min.f32", "f", 3, {3.0f, NAN, -0.0f}, {1.0f, 5.0f, 0.0f}, {2.0f, 4.0f, 1.0f});
  EXPECT_EQ(d[0], 1.0f);
  EXPECT_EQ(d[1], 4.0f);
  EXPECT_EQ(bits(d[2]), 0x80000000u);
  const auto e = run<float>("max.f32", "f", 3, {3.0f, NAN}, {1.0f, NAN}, {2.0f, 4.0f});
  EXPECT_EQ(e[0], 3.0f);
  EXPECT_EQ(e[1], 4.0f);
}

}  // namespace
}  // namespace ptxvm::test
