// Floating-point arithmetic, PTX §9.7.3 (001_23fdd5978b24a3ed.txt). Every IEEE form (add sub
// mul fma mad div rcp sqrt with .rn .rz .rm .rp) is numeric::arith (numeric/ieee_arith.h): the
// exact result rounded once, NaN results as sm_90 writes them; min and max are numeric::minmax.
// The .approx forms follow the ISA's error bounds (tests/sem/float_hw_test.cpp reports how
// often they match the H200 bit for bit).
#include <bit>
#include <cmath>
#include <optional>
#include <span>
#include <tuple>
#include <utility>

#include "exec/warp.h"
#include "numeric/compare.h"
#include "numeric/ftz.h"
#include "numeric/ieee_arith.h"
#include "numeric/minmax.h"
#include "numeric/modifiers.h"
#include "numeric/round.h"
#include "numeric/sfu.h"
#include "sem/dispatch.h"
#include "sem/fused.h"
#include "program/registry.h"

namespace ptxvm::sem {

namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;
using numeric::ArithOp;
using numeric::Format;
using numeric::kF32;
using numeric::kF64;

// Exact IEEE forms; Lanes = 2 for .f32x2 (two f32 in a .b64, element 0 in the low half).
// op.aux holds the modifier word (numeric/modifiers.h).
template <const Format& F, ArithOp K, int Lanes>
void exact(Warp& w, const Op& op, uint32_t mask) {
  const uint64_t m = op.aux;
  const int n = static_cast<int>(op.args.size()) - 1;
  constexpr unsigned kBits = F.width();
  constexpr uint64_t kMask = kBits == 64 ? ~uint64_t{0} : (uint64_t{1} << kBits) - 1;
  for_lanes(mask, [&](int l) {
    uint64_t v[3] = {0, 0, 0};
    for (int i = 0; i < n && i < 3; ++i) v[i] = w.get<uint64_t>(op.args[1 + i], l);
    uint64_t d = 0;
    for (int e = 0; e < Lanes; ++e) {
      const unsigned s = e * kBits;
      d |= numeric::arith(F, K, v[0] >> s & kMask, v[1] >> s & kMask, v[2] >> s & kMask, m) << s;
    }
    w.set<uint64_t>(op.args[0], l, d);
  });
}

// ---- .approx forms, evaluated in double and rounded to f32 --------------------------------

float flush32(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
float canonical32() { return std::bit_cast<float>(0x7fffffffu); }

enum class Fn : uint8_t { Rcp, Sqrt, Rsqrt, Sin, Cos, Lg2, Ex2, Tanh };

// rcp, sqrt and rsqrt of a finite non-zero x (positive for the roots), lg2 of a positive normal
// x, ex2, sin and cos of a finite x and tanh come from the H200's special-function unit tables
// (numeric/sfu.h), bit for bit; the special operands in double arithmetic.
float approx(Fn fn, float x) {
  const double d = x;
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  const bool table = std::isfinite(x) && x != 0 && (fn == Fn::Rcp || x > 0);
  switch (fn) {
    case Fn::Rcp:
      if (table) return std::bit_cast<float>((bits & 0x80000000u) | numeric::sfu_approx(numeric::SfuFn::Rcp, bits & 0x7fffffffu));
      return static_cast<float>(1.0 / d);
    case Fn::Sqrt:
      if (table) return std::bit_cast<float>(numeric::sfu_approx(numeric::SfuFn::Sqrt, bits));
      return static_cast<float>(std::sqrt(d));
    case Fn::Rsqrt:
      if (table) return std::bit_cast<float>(numeric::sfu_approx(numeric::SfuFn::Rsqrt, bits));
      return static_cast<float>(1.0 / std::sqrt(d));
    case Fn::Sin:
      if (std::isfinite(x)) return std::bit_cast<float>(numeric::sfu_sin(bits));
      return static_cast<float>(std::sin(d));
    case Fn::Cos:
      if (std::isfinite(x)) return std::bit_cast<float>(numeric::sfu_cos(bits));
      return static_cast<float>(std::cos(d));
    case Fn::Lg2:
      if (std::isnormal(x) && x > 0) return std::bit_cast<float>(numeric::sfu_lg2(bits));
      return static_cast<float>(std::log2(d));
    case Fn::Ex2:
      if (std::isfinite(x)) return std::bit_cast<float>(numeric::sfu_ex2(bits));
      return static_cast<float>(std::exp2(d));
    case Fn::Tanh:
      if (!std::isnan(x)) return std::bit_cast<float>(numeric::sfu_tanh(bits));
      return static_cast<float>(std::tanh(d));
  }
  return x;
}

// fn.approx{.ftz}.f32: .ftz flushes subnormal inputs and results; NaN results are canonical.
// tanh.approx.f32 supports subnormals (§9.7.3.22) and takes no .ftz.
template <Fn F>
void unary_approx(Warp& w, const Op& op, uint32_t mask) {
  // sin/cos flush a subnormal argument without .ftz too (sm_90: sin.approx.f32 of 0x007fffff
  // is 0; tests/hw/float).
  constexpr bool kAlwaysFlush = F == Fn::Sin || F == Fn::Cos;
  const bool ftz = op.aux & numeric::kFtz;
  for_lanes(mask, [&](int l) {
    float x = w.get<float>(op.args[1], l);
    if (ftz || kAlwaysFlush) x = flush32(x);
    float r = approx(F, x);
    if (ftz || kAlwaysFlush) r = flush32(r);
    if (std::isnan(r)) r = canonical32();
    w.set<float>(op.args[0], l, r);
  });
}

// The special-function unit's MUFU.RCP, MUFU.EX2 and MUFU.LG2 on f32 bits: subnormal operands
// and results flush, NaN results are canonical (the .ftz forms of rcp/ex2/lg2.approx).
uint32_t mufu(Fn fn, uint32_t x) {
  const float r = flush32(approx(fn, flush32(std::bit_cast<float>(x))));
  return std::isnan(r) ? 0x7fffffffu : std::bit_cast<uint32_t>(r);
}
uint32_t fmul(uint32_t a, uint32_t b, bool ftz) {
  return static_cast<uint32_t>(numeric::arith(kF32, ArithOp::Mul, a, b, 0, ftz ? numeric::kFtz : 0));
}

// div.approx and div.full .f32 (§9.7.3.8) as ptxas 13.0 compiles them for sm_90 (their SASS):
// a * MUFU.RCP(b), with both operands first scaled by 1/4 when |b| > 2^126 (.full) and by 2^24
// when |b| < 2^-126 (without .ftz), the scaling and the product rounding to nearest even.
// div_operands gives the last multiply's operands: a, scaled, and the reciprocal. A divisor that
// is a constant (an immediate, or a register written once by a mov of one: lower/contraction.cpp)
// ptxas folds: the reciprocal is then the nearest float to 1/b, flushed as MUFU.RCP flushes
// (tests/kernels ptx/hand_contraction.ptx; MUFU.RCP(255) is 0x3b808080, the fold 0x3b808081).
template <bool kFull>
std::pair<uint32_t, uint32_t> div_operands(uint32_t a, uint32_t b, bool ftz, bool constant = false) {
  const float mag = std::fabs(std::bit_cast<float>(b));  // compared as FSETP does: NaN fails
  if (kFull && mag > 0x1p126f) {
    a = fmul(a, 0x3e800000u, ftz);  // 0.25
    b = fmul(b, 0x3e800000u, ftz);
  }
  if (!ftz && !(mag >= 0x1p-126f)) {
    a = fmul(a, 0x4b800000u, false);  // 2^24
    b = fmul(b, 0x4b800000u, false);
  }
  if (!constant) return {a, mufu(Fn::Rcp, b)};
  const float r = flush32(1.0f / flush32(std::bit_cast<float>(b)));
  return {a, std::isnan(r) ? 0x7fffffffu : std::bit_cast<uint32_t>(r)};
}

template <bool kFull>
void div_approx(Warp& w, const Op& op, uint32_t mask) {
  const bool ftz = op.aux & numeric::kFtz;
  for_lanes(mask, [&](int l) {
    const auto [a, rcp] = div_operands<kFull>(w.get<uint32_t>(op.args[1], l), w.get<uint32_t>(op.args[2], l), ftz,
                                              op.fused == program::Fused::Constant);
    w.set<uint32_t>(op.args[0], l, fmul(rcp, a, ftz));
  });
}

// add, sub, mul, fma .rn.f32 without modifiers: numeric::arith's own fast case (the host's IEEE
// binary32 arithmetic, a NaN result being sm_90's canonical NaN), run over whole warps.
uint64_t nan_canonical(float r) { return std::isnan(r) ? kF32.nan_bits : uint64_t{std::bit_cast<uint32_t>(r)}; }

// The .ftz forms of add, sub, mul and fma .rn.f32 (every fast-math kernel's arithmetic): the
// host's IEEE arithmetic on the flushed operands is the answer wherever its result is zero, above
// the smallest normal in magnitude, infinite or NaN; a result at or below the smallest normal, where
// .ftz rounds with an unbounded exponent (numeric/ieee_arith.cpp tiny), takes numeric::arith.
float flush_subnormal(float x) { return std::fabs(x) < 0x1p-126f ? x * 0.0f : x; }

// The host's result on flushed operands, and whether it needs the exact model (a nonzero result at
// or below the smallest normal).
template <ArithOp K>
float host_ftz(float x, float y, float z) {
  x = flush_subnormal(x), y = flush_subnormal(y), z = flush_subnormal(z);
  return K == ArithOp::Add ? x + y : K == ArithOp::Sub ? x - y : K == ArithOp::Mul ? x * y : std::fma(x, y, z);
}
bool near_smallest_normal(float r) { return std::fabs(r) <= 0x1p-126f && r != 0; }

template <ArithOp K>
uint64_t ftz_f32(float x, float y, float z) {
  const float r = host_ftz<K>(x, y, z);
  if (!near_smallest_normal(r)) return nan_canonical(r);
  x = flush_subnormal(x), y = flush_subnormal(y), z = flush_subnormal(z);
  return numeric::arith(kF32, K, std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y), std::bit_cast<uint32_t>(z),
                        static_cast<uint64_t>(numeric::Round::RN) | numeric::kFtz);
}

// ftz_f32 over 32 lanes into d: the host's arithmetic for all of them in one loop (the compiler
// vectorises it; with FMA instructions where the processor has them, as fma_lanes), then
// numeric::arith for the lanes whose result is at or below the smallest normal.
template <ArithOp K>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void ftz_lanes(const float (&a)[32], const float (&b)[32], const float (&c)[32], uint64_t* d) {
  bool near[32];
  for (int l = 0; l < 32; ++l) {
    const float r = host_ftz<K>(a[l], b[l], c[l]);
    d[l] = nan_canonical(r);
    near[l] = near_smallest_normal(r);
  }
  for (int l = 0; l < 32; ++l)
    if (near[l]) d[l] = ftz_f32<K>(a[l], b[l], c[l]);
}

// An add or sub fused with the multiplication that produced its operand (sem/fused.h): args
// d, a, b, c; P names the multiplication. Elements: 2 for the packed half types.
template <const Format& F, int Elements, program::Fused P>
void fused(Warp& w, const Op& op, uint32_t mask) {
  constexpr unsigned kBits = F.width();
  constexpr uint64_t kMask = kBits == 64 ? ~uint64_t{0} : (uint64_t{1} << kBits) - 1;
  uint64_t neg_ab = 0, neg_c = 0;  // sign bits to flip: the product's (through a) and c's
  for (int e = 0; e < Elements; ++e) {
    if (op.args[1].negated) neg_ab |= F.sign_bit() << (e * kBits);
    if (op.args[3].negated) neg_c |= F.sign_bit() << (e * kBits);
  }
  if constexpr (F.width() == 32 && Elements == 1 && P == program::Fused::Mul) {  // f32
    const float sa = neg_ab ? -1.0f : 1.0f, sc = neg_c ? -1.0f : 1.0f;
    if (op.aux == static_cast<uint64_t>(numeric::Round::RN))  // no .ftz/.sat: the host's fma
      return w.lanewise<float>(mask, op.args[0], [=](float x, float y, float z) {
        return nan_canonical(std::fma(sa * x, y, sc * z));
      }, op.args[1], op.args[2], op.args[3]);
    if (op.aux == (static_cast<uint64_t>(numeric::Round::RN) | numeric::kFtz))  // .ftz alone
      return w.lanewise<float>(mask, op.args[0], [=](float x, float y, float z) {
        return ftz_f32<ArithOp::Fma>(sa * x, y, sc * z);
      }, op.args[1], op.args[2], op.args[3]);
  }
  const bool ftz = op.aux & numeric::kFtz;
  for_lanes(mask, [&](int l) {
    uint64_t a = w.get<uint64_t>(op.args[1], l), b = w.get<uint64_t>(op.args[2], l);
    const uint64_t c = w.get<uint64_t>(op.args[3], l) ^ neg_c;
    if constexpr (P != program::Fused::Mul)
      std::tie(a, b) = div_operands<P == program::Fused::DivFull>(  // an immediate divisor: a folded division's
          static_cast<uint32_t>(a), static_cast<uint32_t>(b), ftz, op.args[2].kind == program::ArgKind::Imm);
    a ^= neg_ab;
    uint64_t d = 0;
    for (int e = 0; e < Elements; ++e) {
      const unsigned s = e * kBits;
      d |= numeric::arith(F, ArithOp::Fma, a >> s & kMask, b >> s & kMask, c >> s & kMask, op.aux) << s;
    }
    w.set<uint64_t>(op.args[0], l, d);
  });
}

// lg2.approx.f32 without .ftz (§9.7.3.19), as compiled for sm_90: below 2^-126 in magnitude,
// MUFU.LG2 of x * 2^24, minus 24 (rounding to nearest even).
void lg2_approx(Warp& w, const Op& op, uint32_t mask) {
  for_lanes(mask, [&](int l) {
    const uint32_t x = w.get<uint32_t>(op.args[1], l);
    const bool small = !(std::fabs(std::bit_cast<float>(x)) >= 0x1p-126f);
    if (!small) return w.set<uint32_t>(op.args[0], l, mufu(Fn::Lg2, x));
    const uint32_t r = mufu(Fn::Lg2, fmul(x, 0x4b800000u, false));  // 2^24
    w.set<uint32_t>(op.args[0], l, static_cast<uint32_t>(numeric::arith(kF32, ArithOp::Add, r, 0xc1c00000u /* -24 */, 0, 0)));
  });
}

// ex2.approx.f32 without .ftz (§9.7.3.20), as compiled for sm_90: below -126, MUFU.EX2 of x/2,
// squared (rounding to nearest even, into the subnormals).
void ex2_approx(Warp& w, const Op& op, uint32_t mask) {
  for_lanes(mask, [&](int l) {
    const uint32_t x = w.get<uint32_t>(op.args[1], l);
    const bool small = !(std::bit_cast<float>(x) >= -126.0f);
    if (!small) return w.set<uint32_t>(op.args[0], l, mufu(Fn::Ex2, x));
    const uint32_t r = mufu(Fn::Ex2, fmul(x, 0x3f000000u, false));  // 0.5
    w.set<uint32_t>(op.args[0], l, fmul(r, r, false));
  });
}

// rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64 (§9.7.3.14, §9.7.3.17): the special-function unit's
// function of the upper word of a, as the upper word of the result, lower word zero
// (numeric/sfu.h). Subnormals flush; a NaN result is 0x7fffffff00000000 (the ISA's canonical NaN
// for these forms).
template <bool kRsqrt>
void approx_f64(Warp& w, const Op& op, uint32_t mask) {
  for_lanes(mask, [&](int l) {
    const uint64_t a = w.get<uint64_t>(op.args[1], l);
    double x = std::bit_cast<double>(a & 0xffffffff00000000ull);
    if (std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.0, x);
    if (std::isnormal(x) && (!kRsqrt || x > 0))  // the special-function unit (numeric/sfu.h)
      return w.set<uint64_t>(op.args[0], l, numeric::sfu_approx64(kRsqrt ? numeric::SfuFn::Rsqrt : numeric::SfuFn::Rcp,
                                                                   std::bit_cast<uint64_t>(x)));
    double r = kRsqrt ? 1.0 / std::sqrt(x) : 1.0 / x;
    if (std::fpclassify(r) == FP_SUBNORMAL) r = std::copysign(0.0, r);
    const uint64_t d = std::bit_cast<uint64_t>(r) & 0xffffffff00000000ull;
    w.set<uint64_t>(op.args[0], l, std::isnan(r) ? 0x7fffffff00000000ull : d);
  });
}

// rsqrt.approx.f64 (§9.7.3.16) as ptxas 13.0 compiles it for sm_90 (its SASS): y = MUFU.RSQ64H of
// the upper word (numeric/sfu.h), then one refinement y + y*e*(0.5 + 0.375 e) with e = 1 - a*y*y,
// in f64 multiplications and fused multiply-adds rounding to nearest even. Outside the positive
// normals: a subnormal is scaled by 2^54 first and the result by 2^27; ±0 gives ±Inf, +Inf gives
// 0, a NaN a + a, a negative a the NaN 0xfff8000000000000.
double rsqrt_refined(double a) {
  const double y = std::bit_cast<double>(numeric::sfu_approx64(numeric::SfuFn::Rsqrt, std::bit_cast<uint64_t>(a)));
  const double e = std::fma(a, -(y * y), 1.0);
  return std::fma(std::fma(e, 0.375, 0.5), y * e, y);
}
void rsqrt_f64(Warp& w, const Op& op, uint32_t mask) {
  for_lanes(mask, [&](int l) {
    const uint64_t a = w.get<uint64_t>(op.args[1], l);
    const double x = std::bit_cast<double>(a);
    uint64_t r;
    if (static_cast<uint32_t>(a >> 32) - 0x100000u < 0x7fe00000u) r = std::bit_cast<uint64_t>(rsqrt_refined(x));
    else if (x == 0) r = (a & 0x8000000000000000ull) | 0x7ff0000000000000ull;
    else if (std::isnan(x)) r = a | numeric::kQuiet64;
    else if (a >> 63) r = 0xfff8000000000000ull;
    else if (std::isinf(x)) r = 0;
    else r = std::bit_cast<uint64_t>(rsqrt_refined(x * 0x1p54) * 0x1p27);
    w.set<uint64_t>(op.args[0], l, r);
  });
}

// ---- sign and selection -----------------------------------------------------------------

// neg and abs change the sign bit (§9.7.3.9, §9.7.3.10); .ftz flushes a subnormal first. For
// a NaN operand sm_90 writes the canonical NaN (f32), or the operand quieted (f64), sign kept.
template <const Format& F, bool kAbs>
void sign_op(Warp& w, const Op& op, uint32_t mask) {
  const bool ftz = op.aux & numeric::kFtz;
  constexpr uint64_t kMask = (F.sign_bit() << 1) - 1;
  for_lanes(mask, [&](int l) {
    const uint64_t a = numeric::flush_input(F, w.get<uint64_t>(op.args[1], l) & kMask, ftz);
    const bool nan = numeric::is_nan(F, a);
    const uint64_t nan_result = F == kF64 ? a | numeric::kQuiet64 : F.nan_bits;
    w.set<uint64_t>(op.args[0], l, nan ? nan_result : kAbs ? a & ~F.sign_bit() : a ^ F.sign_bit());
  });
}

template <const Format& F, bool kMax>
void minmax(Warp& w, const Op& op, uint32_t mask) {
  const uint64_t m = op.aux;
  const bool three = op.args.size() > 3;
  constexpr uint64_t kMask = (F.sign_bit() << 1) - 1;
  for_lanes(mask, [&](int l) {
    uint64_t d = numeric::minmax(F, kMax, w.get<uint64_t>(op.args[1], l) & kMask, w.get<uint64_t>(op.args[2], l) & kMask, m);
    if (three) d = numeric::minmax(F, kMax, d, w.get<uint64_t>(op.args[3], l) & kMask, m);
    w.set<uint64_t>(op.args[0], l, d);
  });
}

// An .approx function of a constant, which ptxas computes at compile time, correctly rounded
// (ex2 of 1.4 is 0x4028e5a2 where MUFU.EX2 gives 0x4028e5a3; sin and cos of 1 likewise differ):
// for a normal operand (or, without .ftz, a subnormal one) in the function's domain and a normal or
// zero result; otherwise none, and the unit computes it (lower/contraction.cpp marks the op).
std::optional<uint32_t> folded(Fn fn, uint32_t bits, bool ftz) {
  const float x = std::bit_cast<float>(bits);
  if (std::fpclassify(x) != FP_NORMAL && (ftz || std::fpclassify(x) != FP_SUBNORMAL)) return std::nullopt;
  const long double d = x;  // in extended precision, then rounded once to f32
  long double y = 0;
  switch (fn) {
    case Fn::Ex2: y = std::exp2(d); break;
    case Fn::Lg2: y = d > 0 ? std::log2(d) : NAN; break;
    case Fn::Sin: y = std::sin(d); break;
    case Fn::Cos: y = std::cos(d); break;
    case Fn::Sqrt: y = d > 0 ? std::sqrt(d) : NAN; break;
    case Fn::Rsqrt: y = d > 0 ? 1 / std::sqrt(d) : NAN; break;
    case Fn::Rcp: y = 1 / d; break;
    case Fn::Tanh: return std::nullopt;
  }
  const float r = static_cast<float>(y);
  if (std::fpclassify(r) != FP_NORMAL && r != 0) return std::nullopt;
  return std::bit_cast<uint32_t>(r);
}

void constant_result(Warp& w, const Op& op, uint32_t mask) {
  for_lanes(mask, [&](int l) { w.set<uint32_t>(op.args[0], l, static_cast<uint32_t>(op.aux2)); });
}

// ---- selectors ----------------------------------------------------------------------------

std::optional<numeric::Round> round_of(const std::string& r) {
  if (r.empty() || r == ".rn") return numeric::Round::RN;
  if (r == ".rz") return numeric::Round::RZ;
  if (r == ".rm") return numeric::Round::RM;
  if (r == ".rp") return numeric::Round::RP;
  return std::nullopt;
}

uint64_t flag_bits(const isa::Bound& b) {
  return (b.value("ftz") ? numeric::kFtz : 0) | (b.value("sat") ? numeric::kSat : 0) |
         (b.value("nan") ? numeric::kNan : 0) | (b.value("xorsign") ? numeric::kXorsignAbs : 0);
}

// fma of 32 lanes into d. Where the processor has FMA instructions (x86-64-v3) a clone that uses
// them runs: the same correctly rounded results as std::fma, without a library call per lane.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)  // a build for AVX2 or newer needs no clones
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void fma_lanes(const float (&a)[32], const float (&b)[32], const float (&c)[32], uint64_t* d) {
  for (int l = 0; l < 32; ++l) d[l] = nan_canonical(std::fma(a[l], b[l], c[l]));
}

template <ArithOp K>
void host_f32(Warp& w, const Op& op, uint32_t mask) {
  if constexpr (K == ArithOp::Fma) {
    const program::Arg& d = op.args[0];
    if (mask == ~0u && d.kind == program::ArgKind::Reg && exec::plain(op.args[1]) && exec::plain(op.args[2]) &&
        exec::plain(op.args[3])) {  // Warp::lanewise's fast case, through fma_lanes
      float a[32], b[32], c[32];
      w.gather(op.args[1], a);
      w.gather(op.args[2], b);
      w.gather(op.args[3], c);
      fma_lanes(a, b, c, &w.regs[size_t{d.reg} * 32]);
      return;
    }
    w.lanewise<float>(mask, d, [](float x, float y, float z) { return nan_canonical(std::fma(x, y, z)); },
                      op.args[1], op.args[2], op.args[3]);
  } else {
    w.lanewise<float>(mask, op.args[0], [&](float a, float b) {
      return nan_canonical(K == ArithOp::Add ? a + b : K == ArithOp::Sub ? a - b : a * b);
    }, op.args[1], op.args[2]);
  }
}

template <ArithOp K>
void host_f32_ftz(Warp& w, const Op& op, uint32_t mask) {
  const program::Arg& d = op.args[0];
  constexpr bool kFma = K == ArithOp::Fma;
  if (mask == ~0u && d.kind == program::ArgKind::Reg && exec::plain(op.args[1]) && exec::plain(op.args[2]) &&
      (!kFma || exec::plain(op.args[3]))) {  // a whole warp at once
    float a[32], b[32], c[32] = {};
    w.gather(op.args[1], a);
    w.gather(op.args[2], b);
    if constexpr (kFma) w.gather(op.args[3], c);
    ftz_lanes<K>(a, b, c, &w.regs[size_t{d.reg} * 32]);
    return;
  }
  if constexpr (kFma)
    w.lanewise<float>(mask, d, [](float x, float y, float z) { return ftz_f32<K>(x, y, z); }, op.args[1], op.args[2],
                      op.args[3]);
  else
    w.lanewise<float>(mask, d, [](float x, float y) { return ftz_f32<K>(x, y, 0.0f); }, op.args[1], op.args[2]);
}

template <ArithOp K>
bool pick_exact(const std::string& t, Op& op, std::string& why) {
  constexpr bool kHostable = K == ArithOp::Add || K == ArithOp::Sub || K == ArithOp::Mul || K == ArithOp::Fma;
  if (kHostable && t == ".f32" && op.aux == static_cast<uint64_t>(numeric::Round::RN)) op.fn = &host_f32<K>;
  else if (kHostable && t == ".f32" && op.aux == (static_cast<uint64_t>(numeric::Round::RN) | numeric::kFtz))
    op.fn = &host_f32_ftz<K>;
  else if (t == ".f32") op.fn = &exact<kF32, K, 1>;
  else if (t == ".f64") op.fn = &exact<kF64, K, 1>;
  else if (t == ".f32x2") op.fn = &exact<kF32, K, 2>;
  return op.fn || unsupported(why, t);
}

template <ArithOp K>
bool select_arith(const isa::Bound& b, Op& op, std::string& why) {
  const auto r = round_of(axis(b, "rnd"));
  if (!r) return unsupported(why, "rounding " + axis(b, "rnd"));
  op.aux = static_cast<uint64_t>(*r) | flag_bits(b);
  if (op.fused != program::Fused::None) return select_fused(axis(b, "type"), op, why);
  return pick_exact<K>(axis(b, "type"), op, why);
}

bool select_div(const isa::Bound& b, Op& op, std::string& why) {
  const std::string mode = axis(b, "mode"), t = axis(b, "type");
  if (mode == ".approx" || mode == ".full") {
    if (t != ".f32") return unsupported(why, "div" + mode + t);
    op.fn = mode == ".full" ? &div_approx<true> : &div_approx<false>;
    op.aux = flag_bits(b);
    return true;
  }
  const auto r = round_of(mode);
  if (!r) return unsupported(why, "div" + mode);
  op.aux = static_cast<uint64_t>(*r) | flag_bits(b);
  return pick_exact<ArithOp::Div>(t, op, why);
}

template <Fn F>
bool select_unary_approx(const isa::Bound& b, Op& op, std::string& why) {
  if (axis(b, "type") != ".f32") return unsupported(why, axis(b, "type"));
  op.aux = flag_bits(b);
  if (F != Fn::Tanh && op.fused == program::Fused::Constant)
    if (const auto v = folded(F, static_cast<uint32_t>(op.args[1].imm), op.aux & numeric::kFtz)) {
      op.aux2 = *v;
      op.fn = &constant_result;
      return true;
    }
  const bool ftz = op.aux & numeric::kFtz;
  op.fn = F == Fn::Ex2 && !ftz ? &ex2_approx : F == Fn::Lg2 && !ftz ? &lg2_approx : &unary_approx<F>;
  return true;
}

// rcp (§9.7.3.13): .approx (f32) or an exact rounding of 1/a.
template <ArithOp K, Fn F>
bool select_rcp_sqrt(const isa::Bound& b, Op& op, std::string& why) {
  const std::string mode = axis(b, "mode");
  if (mode == ".approx") return select_unary_approx<F>(b, op, why);
  const auto r = round_of(mode);
  if (!r) return unsupported(why, mode);
  op.aux = static_cast<uint64_t>(*r) | flag_bits(b);
  return pick_exact<K>(axis(b, "type"), op, why);
}

// rcp.rnd: 1/a is a division of the constant 1.
template <const Format& F>
void rcp_exact(Warp& w, const Op& op, uint32_t mask) {
  const uint64_t m = op.aux;
  const uint64_t one = static_cast<uint64_t>(F.bias) << F.man_bits;
  for_lanes(mask, [&](int l) {
    w.set<uint64_t>(op.args[0], l, numeric::arith(F, ArithOp::Div, one, w.get<uint64_t>(op.args[1], l), 0, m));
  });
}

bool select_rcp(const isa::Bound& b, Op& op, std::string& why) {
  const std::string mode = axis(b, "mode"), t = axis(b, "type");
  if (mode == ".approx") return select_unary_approx<Fn::Rcp>(b, op, why);
  const auto r = round_of(mode);
  if (!r) return unsupported(why, mode);
  op.aux = static_cast<uint64_t>(*r) | flag_bits(b);
  if (t == ".f32") op.fn = &rcp_exact<kF32>;
  else if (t == ".f64") op.fn = &rcp_exact<kF64>;
  return op.fn || unsupported(why, t);
}

bool select_rsqrt(const isa::Bound& b, Op& op, std::string& why) {
  if (axis(b, "type") == ".f64") {
    op.fn = &rsqrt_f64;
    return true;
  }
  return select_unary_approx<Fn::Rsqrt>(b, op, why);
}

// neg or abs .f32 folded into the selp that reads it (program::Fused::Select): FSEL's operand
// modifier, which changes the sign bit and nothing else.
template <bool kAbs>
void sign_bit(Warp& w, const Op& op, uint32_t mask) {
  w.lanewise<uint32_t>(mask, op.args[0], [](uint32_t a) { return kAbs ? a & 0x7fffffffu : a ^ 0x80000000u; },
                       op.args[1]);
}

template <bool kAbs>
bool select_sign(const isa::Bound& b, Op& op, std::string& why) {
  const std::string t = axis(b, "type");
  op.aux = flag_bits(b);
  if (op.fused == program::Fused::Select) op.fn = &sign_bit<kAbs>;  // .f32 without .ftz (lower/contraction.cpp)
  else if (t == ".f32") op.fn = &sign_op<kF32, kAbs>;
  else if (t == ".f64") op.fn = &sign_op<kF64, kAbs>;
  return op.fn || unsupported(why, t);
}

template <bool kMax>
bool select_minmax(const isa::Bound& b, Op& op, std::string& why) {
  const std::string t = axis(b, "type");
  op.aux = flag_bits(b);
  if (t == ".f32") op.fn = &minmax<kF32, kMax>;
  else if (t == ".f64") op.fn = &minmax<kF64, kMax>;
  return op.fn || unsupported(why, t);
}

template <program::Handler H>
bool fixed(const isa::Bound&, Op& op, std::string&) {
  op.fn = H;
  return true;
}

}  // namespace

bool select_fused(const std::string& type, Op& op, std::string& why) {
  using program::Fused;
  using numeric::kBF16;
  using numeric::kF16;
  if (op.fused != Fused::Mul) {  // div.approx/div.full, .f32 only (lower/contraction.cpp)
    op.fn = op.fused == Fused::DivFull ? &fused<kF32, 1, Fused::DivFull> : &fused<kF32, 1, Fused::DivApprox>;
    return true;
  }
  if (type == ".f32") op.fn = &fused<kF32, 1, Fused::Mul>;
  else if (type == ".f64") op.fn = &fused<kF64, 1, Fused::Mul>;
  else if (type == ".f16") op.fn = &fused<kF16, 1, Fused::Mul>;
  else if (type == ".f16x2") op.fn = &fused<kF16, 2, Fused::Mul>;
  else if (type == ".bf16") op.fn = &fused<kBF16, 1, Fused::Mul>;
  else if (type == ".bf16x2") op.fn = &fused<kBF16, 2, Fused::Mul>;
  return op.fn || unsupported(why, "fused multiply-add of " + type);
}

const program::Registration registered([](program::Registry& r) {
  r["add §9.7.3.3"] = select_arith<ArithOp::Add>;
  r["sub §9.7.3.4"] = select_arith<ArithOp::Sub>;
  r["mul §9.7.3.5"] = select_arith<ArithOp::Mul>;
  r["fma §9.7.3.6"] = select_arith<ArithOp::Fma>;
  r["mad §9.7.3.7"] = select_arith<ArithOp::Fma>;
  r["div §9.7.3.8"] = select_div;
  r["abs §9.7.3.9"] = select_sign<true>;
  r["neg §9.7.3.10"] = select_sign<false>;
  r["min §9.7.3.11"] = select_minmax<false>;
  r["max §9.7.3.12"] = select_minmax<true>;
  r["rcp §9.7.3.13"] = select_rcp;
  r["rcp.approx.ftz.f64 §9.7.3.14"] = fixed<&approx_f64<false>>;
  r["sqrt §9.7.3.15"] = select_rcp_sqrt<ArithOp::Sqrt, Fn::Sqrt>;
  r["rsqrt §9.7.3.16"] = select_rsqrt;
  r["rsqrt.approx.ftz.f64 §9.7.3.17"] = fixed<&approx_f64<true>>;
  r["sin §9.7.3.18"] = select_unary_approx<Fn::Sin>;
  r["cos §9.7.3.19"] = select_unary_approx<Fn::Cos>;
  r["lg2 §9.7.3.20"] = select_unary_approx<Fn::Lg2>;
  r["ex2 §9.7.3.21"] = select_unary_approx<Fn::Ex2>;
  r["tanh §9.7.3.22"] = select_unary_approx<Fn::Tanh>;
});

}  // namespace ptxvm::sem
