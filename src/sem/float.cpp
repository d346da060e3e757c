// Floating-point arithmetic, PTX §9.7.3 (001_23fdd5978b24a3ed.txt), and the exact rounding
// core that §9.7.4/§9.7.5 (half.cpp) share. Every IEEE form (add sub mul fma mad div rcp sqrt
// with .rn .rz .rm .rp) computes the exact result with integer arithmetic and rounds it once
// through src/numeric's encoder: no host floating-point environment is involved.
// .ftz flushes subnormal inputs and results to sign-preserving zero; .sat clamps to [0, 1]
// (NaN gives +0). NaN results as sm_90 writes them (tests/hw/float): the canonical NaN for
// f32 (0x7fffffff) and f16/bf16 (0x7fff); f64 propagates a NaN operand (see arith).
// The .approx forms follow the ISA's error bounds (tests/sem/float_hw_test.cpp reports how
// often they match the H200 bit for bit).
#include <bit>
#include <cmath>
#include <optional>
#include <span>

#include "exec/warp.h"
#include "numeric/cvt_float.h"
#include "numeric/sfu.h"
#include "sem/dispatch.h"
#include "sem/fp.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace fp {


constexpr uint64_t kQuiet64 = uint64_t{1} << 51;
inline bool is_nan64(uint64_t v) { return (v & ~(uint64_t{1} << 63)) > 0x7ff0000000000000ull; }

namespace {

// f64 NaN results on sm_90 (tests/hw/float): a NaN operand propagates quieted (which one of
// several: see arith); an invalid operation gives 0xfff8000000000000.
constexpr uint64_t kInvalid64 = 0xfff8000000000000ull;

struct Mods {
  numeric::Round round = numeric::Round::RN;
  bool ftz = false, sat = false, relu = false;
};
Mods mods_of(uint64_t flags) {
  Mods m;
  m.round = static_cast<numeric::Round>(flags & 7);
  m.ftz = flags & kFtz;
  m.sat = flags & kSat;
  m.relu = flags & kRelu;
  return m;
}

using numeric::Class;
using numeric::Format;
using numeric::Round;
using numeric::Unpacked;
__extension__ typedef unsigned __int128 u128;

// An exact value (-1)^neg * sig * 2^exp; sig == 0 is a signed zero. `nan`/`inf` mark specials.
struct Exact {
  bool neg = false, nan = false, inf = false;
  u128 sig = 0;
  int exp = 0;
};

int msb(u128 x) {
  const uint64_t hi = static_cast<uint64_t>(x >> 64);
  return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(static_cast<uint64_t>(x));
}

Exact of(const Unpacked& u) {
  Exact e;
  e.neg = u.negative;
  e.nan = u.cls == Class::NaN;
  e.inf = u.cls == Class::Inf;
  if (u.finite_nonzero()) e.sig = u.sig, e.exp = u.exp;
  return e;
}

Exact nan_value() {
  Exact e;
  e.nan = true;
  return e;
}

// Shift right by n, OR-ing what falls off into bit 0 (a sticky bit far below any rounding point).
u128 shift_sticky(u128 x, int n) {
  if (n <= 0) return x;
  if (n >= 128) return x != 0;
  return (x >> n) | ((x & ((u128{1} << n) - 1)) != 0);
}

Exact mul(const Exact& a, const Exact& b) {
  Exact r;
  r.neg = a.neg != b.neg;
  if (a.nan || b.nan || (a.inf && !b.inf && b.sig == 0) || (b.inf && !a.inf && a.sig == 0)) return nan_value();
  if (a.inf || b.inf) {
    r.inf = true;
    return r;
  }
  r.sig = a.sig * b.sig;  // at most 2 x 53 bits
  r.exp = a.exp + b.exp;
  return r;
}

// a + b with one exact rounding to follow: both are normalised to bit 125 and the smaller is
// shifted with a sticky bit. An exact zero sum is +0, or -0 under .rm (IEEE 754 §6.3).
Exact add(Exact a, Exact b, Round rnd) {
  if (a.nan || b.nan) return nan_value();
  if (a.inf || b.inf) {
    if (a.inf && b.inf && a.neg != b.neg) return nan_value();
    return a.inf ? a : b;
  }
  if (a.sig == 0 && b.sig == 0) {
    Exact z;
    z.neg = a.neg == b.neg ? a.neg : rnd == Round::RM;
    return z;
  }
  if (a.sig == 0) return b;
  if (b.sig == 0) return a;
  for (Exact* x : {&a, &b}) {
    const int s = 125 - msb(x->sig);
    x->sig <<= s;
    x->exp -= s;
  }
  if (a.exp < b.exp) std::swap(a, b);
  b.sig = shift_sticky(b.sig, a.exp - b.exp);
  Exact r;
  r.exp = a.exp;
  if (a.neg == b.neg) {
    r.neg = a.neg;
    r.sig = a.sig + b.sig;
  } else if (a.sig >= b.sig) {
    r.neg = a.neg;
    r.sig = a.sig - b.sig;
  } else {
    r.neg = b.neg;
    r.sig = b.sig - a.sig;
  }
  if (r.sig == 0) r.neg = rnd == Round::RM;
  return r;
}

Exact div(const Exact& a, const Exact& b) {
  Exact r;
  r.neg = a.neg != b.neg;
  if (a.nan || b.nan || (a.inf && b.inf) || (a.sig == 0 && !a.inf && b.sig == 0 && !b.inf)) return nan_value();
  if (a.inf || (b.sig == 0 && !b.inf)) {
    r.inf = true;
    return r;
  }
  if (b.inf || a.sig == 0) return r;  // signed zero
  // Normalise a to bit 127 and b to bit 63: the quotient has 64..65 bits; the remainder is sticky.
  const int sa = 127 - msb(a.sig), sb = 63 - msb(b.sig);
  const u128 n = a.sig << sa, d = b.sig << sb;
  const u128 q = n / d;
  r.sig = q | (n % d != 0);
  r.exp = a.exp - sa - (b.exp - sb);
  return r;
}

// floor(sqrt(n)) by the bitwise method.
u128 isqrt(u128 n) {
  u128 res = 0, bit = u128{1} << 126;
  while (bit > n) bit >>= 2;
  while (bit) {
    if (n >= res + bit) {
      n -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  return res;
}

Exact sqrt(const Exact& a) {
  if (a.nan || (a.neg && (a.inf || a.sig != 0))) return nan_value();
  if (a.inf || a.sig == 0) return a;  // +Inf, +-0
  // Shift the significand to bit 124 or 125 so that the exponent is even: the root has 63 bits.
  int s = 124 - msb(a.sig);
  if ((a.exp - s) & 1) ++s;
  const u128 n = a.sig << s;
  const u128 r = isqrt(n);
  Exact e;
  e.sig = r | (r * r != n);
  e.exp = (a.exp - s) / 2;
  return e;
}

bool is_subnormal_code(const Format& f, uint64_t bits) {
  const uint64_t mag = (bits >> f.pad_bits) & (f.sign_bit() - 1);
  return mag != 0 && mag < (uint64_t{1} << f.man_bits);
}

}  // namespace

uint64_t flush_input(const numeric::Format& f, uint64_t bits, bool ftz) {
  return ftz && is_subnormal_code(f, bits) ? bits & f.sign_bit() : bits;
}

namespace {
// .ftz flushes a result that is tiny after rounding to the format's precision with an
// unbounded exponent (sm_90, tests/hw/float: mul.ftz of 2^-126 by 1-2^-24 gives 0, while
// fma.ftz of -2^-126 + 2^-252 gives -2^-126).
bool tiny(const Format& f, bool neg, uint64_t sig, int exp, const Mods& m) {
  if (!m.ftz) return false;
  int e = 63 - std::countl_zero(sig) + exp;
  const int q = e - f.man_bits;
  if (numeric::round_to_quantum(sig, exp, q, m.round, neg) >> (f.man_bits + 1)) ++e;
  return e < 1 - f.bias;
}

// The result's bits: canonical NaN (+0 under .sat), one rounding with the encoder of
// src/numeric (.sat, .relu, overflow per rounding mode), then the .ftz flush of a subnormal.
uint64_t round_exact_value(const Format& f, bool neg, bool nan, bool inf, u128 sig, int exp, const Mods& m) {
  if (nan) return m.sat ? 0 : f == numeric::kF64 ? kInvalid64 : f.nan_bits;
  Unpacked u;
  u.negative = neg;
  if (inf) {
    u.cls = Class::Inf;
  } else if (sig != 0) {
    const int top = msb(sig);
    if (top > 63) {
      sig = shift_sticky(sig, top - 63);
      exp += top - 63;
    }
    u.cls = tiny(f, neg, static_cast<uint64_t>(sig), exp, m) ? Class::Zero : Class::Normal;
    u.sig = static_cast<uint64_t>(sig);
    u.exp = exp;
  }
  numeric::FloatMods fm;
  fm.round = m.round;
  fm.sat = m.sat;
  fm.relu = m.relu;
  const uint64_t r = numeric::encode_value(f, f, u, fm);
  return flush_input(f, r, m.ftz);
}
uint64_t finish(const Format& f, const Exact& e, const Mods& m) {
  return round_exact_value(f, e.neg, e.nan, e.inf, e.sig, e.exp, m);
}
Exact load(const Format& f, uint64_t bits, bool ftz) { return of(numeric::decode(f, flush_input(f, bits, ftz))); }

}  // namespace

// One IEEE operation on the bits of format f, rounded once.
uint64_t arith(const numeric::Format& f, unsigned k, uint64_t a, uint64_t b, uint64_t c, uint64_t flags) {
  const Mods m = mods_of(flags);
  if (f == numeric::kF64) {
    // Operand priority: b then a (add sub mul), b c a (fma), a then b (div, rcp, sqrt).
    const uint64_t two[] = {b, a}, three[] = {b, c, a}, first[] = {a, b};
    const std::span<const uint64_t> order = k == Kind::Fma ? std::span<const uint64_t>(three)
                                            : k >= Kind::Div ? std::span<const uint64_t>(first)
                                                             : std::span<const uint64_t>(two);
    for (uint64_t v : order.first(k == Kind::Sqrt ? 1 : order.size()))
      if (is_nan64(v)) return v | kQuiet64;
  }
  // Round-to-nearest without modifiers is the host's own IEEE arithmetic, exact and fast; NaN
  // results take the sm_90 encodings (f64 NaN operands were handled above).
  if (m.round == numeric::Round::RN && !m.ftz && !m.sat && !m.relu && (f == numeric::kF32 || f == numeric::kF64)) {
    auto host = [&](auto x, auto y, auto z) {
      switch (k) {
        case Kind::Add: return x + y;
        case Kind::Sub: return x - y;
        case Kind::Mul: return x * y;
        case Kind::Fma: return std::fma(x, y, z);
        case Kind::Div: return x / y;
        default: return std::sqrt(x);
      }
    };
    if (f == numeric::kF32) {
      float r = host(std::bit_cast<float>(static_cast<uint32_t>(a)), std::bit_cast<float>(static_cast<uint32_t>(b)),
                     std::bit_cast<float>(static_cast<uint32_t>(c)));
      return std::isnan(r) ? f.nan_bits : std::bit_cast<uint32_t>(r);
    }
    double r = host(std::bit_cast<double>(a), std::bit_cast<double>(b), std::bit_cast<double>(c));
    return std::isnan(r) ? kInvalid64 : std::bit_cast<uint64_t>(r);
  }
  const Exact x = load(f, a, m.ftz), y = load(f, b, m.ftz);
  switch (k) {
    case Kind::Add: return finish(f, add(x, y, m.round), m);
    case Kind::Sub: {
      Exact ny = y;
      ny.neg = !ny.neg;
      return finish(f, add(x, ny, m.round), m);
    }
    case Kind::Mul: return finish(f, mul(x, y), m);
    case Kind::Fma: return finish(f, add(mul(x, y), load(f, c, m.ftz), m.round), m);
    case Kind::Div: return finish(f, div(x, y), m);
    case Kind::Sqrt: return finish(f, sqrt(x), m);
  }
  return f.nan_bits;
}

}  // namespace fp

namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;
using numeric::Format;
using numeric::kF32;
using numeric::kF64;

// Exact IEEE forms; Lanes = 2 for .f32x2 (two f32 in a .b64, element 0 in the low half).
// op.aux holds the fp flags.
template <const Format& F, fp::Kind K, int Lanes>
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
      d |= fp::arith(F, K, v[0] >> s & kMask, v[1] >> s & kMask, v[2] >> s & kMask, m) << s;
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
  const bool ftz = op.aux & 8;
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
  return static_cast<uint32_t>(fp::arith(kF32, fp::Kind::Mul, a, b, 0, ftz ? fp::kFtz : 0));
}

// div.approx and div.full .f32 (§9.7.3.8) as ptxas 13.0 compiles them for sm_90 (their SASS):
// a * MUFU.RCP(b), with both operands first scaled by 1/4 when |b| > 2^126 (.full) and by 2^24
// when |b| < 2^-126 (without .ftz), the scaling and the product rounding to nearest even.
template <bool kFull>
void div_approx(Warp& w, const Op& op, uint32_t mask) {
  const bool ftz = op.aux & fp::kFtz;
  for_lanes(mask, [&](int l) {
    uint32_t a = w.get<uint32_t>(op.args[1], l), b = w.get<uint32_t>(op.args[2], l);
    const float mag = std::fabs(std::bit_cast<float>(b));  // compared as FSETP does: NaN fails
    if (kFull && mag > 0x1p126f) {
      a = fmul(a, 0x3e800000u, ftz);  // 0.25
      b = fmul(b, 0x3e800000u, ftz);
    }
    if (!ftz && !(mag >= 0x1p-126f)) {
      a = fmul(a, 0x4b800000u, false);  // 2^24
      b = fmul(b, 0x4b800000u, false);
    }
    w.set<uint32_t>(op.args[0], l, fmul(mufu(Fn::Rcp, b), a, ftz));
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
    w.set<uint32_t>(op.args[0], l, static_cast<uint32_t>(fp::arith(kF32, fp::Kind::Add, r, 0xc1c00000u /* -24 */, 0, 0)));
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
    else if (std::isnan(x)) r = a | fp::kQuiet64;
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
  const bool ftz = op.aux & fp::kFtz;
  constexpr uint64_t kMask = (F.sign_bit() << 1) - 1;
  for_lanes(mask, [&](int l) {
    const uint64_t a = fp::flush_input(F, w.get<uint64_t>(op.args[1], l) & kMask, ftz);
    const bool nan = numeric::decode(F, a).cls == numeric::Class::NaN;
    const uint64_t nan_result = F == kF64 ? a | fp::kQuiet64 : F.nan_bits;
    w.set<uint64_t>(op.args[0], l, nan ? nan_result : kAbs ? a & ~F.sign_bit() : a ^ F.sign_bit());
  });
}

}  // namespace

namespace fp {

// min/max (§9.7.3.11-12, §9.7.4.7-8): a NaN operand yields the other, two NaNs (or any NaN
// with .NaN) the canonical NaN; +0 > -0; .xorsign.abs compares magnitudes and gives the
// result the XOR of the operand signs (not to a NaN result). f64 (sm_90): two NaNs give b quieted.
uint64_t minmax(const numeric::Format& f, bool is_max, uint64_t a, uint64_t b, uint64_t flags) {
  const bool ftz = flags & kFtz, nan = flags & kNan, xorsign_abs = flags & kXorsignAbs;
  a = flush_input(f, a, ftz);
  b = flush_input(f, b, ftz);
  const uint64_t sign = f.sign_bit();
  const bool xs = ((a ^ b) & sign) != 0;
  if (xorsign_abs) a &= ~sign, b &= ~sign;
  const numeric::Unpacked ua = numeric::decode(f, a), ub = numeric::decode(f, b);
  const bool na = ua.cls == numeric::Class::NaN, nb = ub.cls == numeric::Class::NaN;
  if ((na && nb) || (nan && (na || nb))) return f == numeric::kF64 ? b | kQuiet64 : f.nan_bits;
  uint64_t d;
  if (na) d = b;
  else if (nb) d = a;
  else {
    // Order of IEEE bit patterns: map sign-magnitude to a monotone integer.
    auto key = [&](uint64_t v) -> int64_t {
      const int64_t mag = static_cast<int64_t>(v & ~sign);
      return (v & sign) ? -mag - 1 : mag;
    };
    d = (key(a) > key(b)) == is_max ? a : b;
  }
  if (xorsign_abs) d = (d & ~sign) | (xs ? sign : 0);
  return d;
}

}  // namespace fp

namespace {

template <const Format& F, bool kMax>
void minmax(Warp& w, const Op& op, uint32_t mask) {
  const uint64_t m = op.aux;
  const bool three = op.args.size() > 3;
  constexpr uint64_t kMask = (F.sign_bit() << 1) - 1;
  for_lanes(mask, [&](int l) {
    uint64_t d = fp::minmax(F, kMax, w.get<uint64_t>(op.args[1], l) & kMask, w.get<uint64_t>(op.args[2], l) & kMask, m);
    if (three) d = fp::minmax(F, kMax, d, w.get<uint64_t>(op.args[3], l) & kMask, m);
    w.set<uint64_t>(op.args[0], l, d);
  });
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
  return (b.value("ftz") ? 8 : 0) | (b.value("sat") ? 16 : 0) | (b.value("nan") ? 32 : 0) |
         (b.value("xorsign") ? 64 : 0);
}

// add, sub, mul, fma .rn.f32 without modifiers: fp::arith's own fast case (the host's IEEE
// binary32 arithmetic, a NaN result being sm_90's canonical NaN), run over whole warps.
uint64_t nan_canonical(float r) { return std::isnan(r) ? kF32.nan_bits : uint64_t{std::bit_cast<uint32_t>(r)}; }

// fma of 32 lanes into d. Where the processor has FMA instructions (x86-64-v3) a clone that uses
// them runs: the same correctly rounded results as std::fma, without a library call per lane.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)  // a build for AVX2 or newer needs no clones
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void fma_lanes(const float (&a)[32], const float (&b)[32], const float (&c)[32], uint64_t* d) {
  for (int l = 0; l < 32; ++l) d[l] = nan_canonical(std::fma(a[l], b[l], c[l]));
}

template <fp::Kind K>
void host_f32(Warp& w, const Op& op, uint32_t mask) {
  if constexpr (K == fp::Kind::Fma) {
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
      return nan_canonical(K == fp::Kind::Add ? a + b : K == fp::Kind::Sub ? a - b : a * b);
    }, op.args[1], op.args[2]);
  }
}

template <fp::Kind K>
bool pick_exact(const std::string& t, Op& op, std::string& why) {
  constexpr bool kHostable = K == fp::Kind::Add || K == fp::Kind::Sub || K == fp::Kind::Mul || K == fp::Kind::Fma;
  if (kHostable && t == ".f32" && op.aux == static_cast<uint64_t>(numeric::Round::RN)) op.fn = &host_f32<K>;
  else if (t == ".f32") op.fn = &exact<kF32, K, 1>;
  else if (t == ".f64") op.fn = &exact<kF64, K, 1>;
  else if (t == ".f32x2") op.fn = &exact<kF32, K, 2>;
  return op.fn || unsupported(why, t);
}

template <fp::Kind K>
bool select_arith(const isa::Bound& b, Op& op, std::string& why) {
  const auto r = round_of(axis(b, "rnd"));
  if (!r) return unsupported(why, "rounding " + axis(b, "rnd"));
  op.aux = static_cast<uint64_t>(*r) | flag_bits(b);
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
  return pick_exact<fp::Kind::Div>(t, op, why);
}

template <Fn F>
bool select_unary_approx(const isa::Bound& b, Op& op, std::string& why) {
  if (axis(b, "type") != ".f32") return unsupported(why, axis(b, "type"));
  op.aux = flag_bits(b);
  const bool ftz = op.aux & fp::kFtz;
  op.fn = F == Fn::Ex2 && !ftz ? &ex2_approx : F == Fn::Lg2 && !ftz ? &lg2_approx : &unary_approx<F>;
  return true;
}

// rcp (§9.7.3.13): .approx (f32) or an exact rounding of 1/a.
template <fp::Kind K, Fn F>
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
    w.set<uint64_t>(op.args[0], l, fp::arith(F, fp::Kind::Div, one, w.get<uint64_t>(op.args[1], l), 0, m));
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

template <bool kAbs>
bool select_sign(const isa::Bound& b, Op& op, std::string& why) {
  const std::string t = axis(b, "type");
  op.aux = flag_bits(b);
  if (t == ".f32") op.fn = &sign_op<kF32, kAbs>;
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

const program::Registration registered([](program::Registry& r) {
  r["add §9.7.3.3"] = select_arith<fp::Kind::Add>;
  r["sub §9.7.3.4"] = select_arith<fp::Kind::Sub>;
  r["mul §9.7.3.5"] = select_arith<fp::Kind::Mul>;
  r["fma §9.7.3.6"] = select_arith<fp::Kind::Fma>;
  r["mad §9.7.3.7"] = select_arith<fp::Kind::Fma>;
  r["div §9.7.3.8"] = select_div;
  r["abs §9.7.3.9"] = select_sign<true>;
  r["neg §9.7.3.10"] = select_sign<false>;
  r["min §9.7.3.11"] = select_minmax<false>;
  r["max §9.7.3.12"] = select_minmax<true>;
  r["rcp §9.7.3.13"] = select_rcp;
  r["rcp.approx.ftz.f64 §9.7.3.14"] = fixed<&approx_f64<false>>;
  r["sqrt §9.7.3.15"] = select_rcp_sqrt<fp::Kind::Sqrt, Fn::Sqrt>;
  r["rsqrt §9.7.3.16"] = select_rsqrt;
  r["rsqrt.approx.ftz.f64 §9.7.3.17"] = fixed<&approx_f64<true>>;
  r["sin §9.7.3.18"] = select_unary_approx<Fn::Sin>;
  r["cos §9.7.3.19"] = select_unary_approx<Fn::Cos>;
  r["lg2 §9.7.3.20"] = select_unary_approx<Fn::Lg2>;
  r["ex2 §9.7.3.21"] = select_unary_approx<Fn::Ex2>;
  r["tanh §9.7.3.22"] = select_unary_approx<Fn::Tanh>;
});

}  // namespace ptxvm::sem
