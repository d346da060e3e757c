// IEEE arithmetic on bit patterns (ieee_arith.h). NaN results as sm_90 writes them
// (tests/hw/float): the canonical NaN for f32 (0x7fffffff) and f16/bf16 (0x7fff); f64 propagates
// a NaN operand (see arith). .ftz flushes subnormal inputs and results to sign-preserving zero;
// .sat clamps to [0, 1] (NaN gives +0).
#include "numeric/ieee_arith.h"

#include <bit>
#include <cmath>
#include <span>
#include <utility>

#include "numeric/cvt_float.h"
#include "numeric/decode.h"
#include "numeric/ftz.h"
#include "numeric/modifiers.h"
#include "numeric/round.h"
#include "numeric/u128.h"

namespace ptxvm::numeric {
namespace {

bool is_nan64(uint64_t v) { return (v & ~(uint64_t{1} << 63)) > 0x7ff0000000000000ull; }

// f64 NaN results on sm_90 (tests/hw/float): a NaN operand propagates quieted (which one of
// several: see arith); an invalid operation gives 0xfff8000000000000.
constexpr uint64_t kInvalid64 = 0xfff8000000000000ull;

struct Mods {
  Round round = Round::RN;
  bool ftz = false, sat = false, relu = false;
};
Mods mods_of(uint64_t flags) {
  Mods m;
  m.round = static_cast<Round>(flags & 7);
  m.ftz = flags & kFtz;
  m.sat = flags & kSat;
  m.relu = flags & kRelu;
  return m;
}

// An exact value (-1)^neg * sig * 2^exp; sig == 0 is a signed zero. `nan`/`inf` mark specials.
struct Exact {
  bool neg = false, nan = false, inf = false;
  u128 sig = 0;
  int exp = 0;
};

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

// .ftz flushes a result that is tiny after rounding to the format's precision with an
// unbounded exponent (sm_90, tests/hw/float: mul.ftz of 2^-126 by 1-2^-24 gives 0, while
// fma.ftz of -2^-126 + 2^-252 gives -2^-126).
bool tiny(const Format& f, bool neg, uint64_t sig, int exp, const Mods& m) {
  if (!m.ftz) return false;
  int e = 63 - std::countl_zero(sig) + exp;
  const int q = e - f.man_bits;
  if (round_to_quantum(sig, exp, q, m.round, neg) >> (f.man_bits + 1)) ++e;
  return e < 1 - f.bias;
}

// The result's bits: canonical NaN (+0 under .sat), one rounding with the encoder
// (.sat, .relu, overflow per rounding mode), then the .ftz flush of a subnormal.
uint64_t round_exact_value(const Format& f, const Exact& x, const Mods& m) {
  if (x.nan) return m.sat ? 0 : f == kF64 ? kInvalid64 : f.nan_bits;
  Unpacked u;
  u.negative = x.neg;
  if (x.inf) {
    u.cls = Class::Inf;
  } else if (x.sig != 0) {
    u128 sig = x.sig;
    int exp = x.exp;
    const int top = msb(sig);
    if (top > 63) {
      sig = shift_sticky(sig, top - 63);
      exp += top - 63;
    }
    u.cls = tiny(f, x.neg, static_cast<uint64_t>(sig), exp, m) ? Class::Zero : Class::Normal;
    u.sig = static_cast<uint64_t>(sig);
    u.exp = exp;
  }
  FloatMods fm;
  fm.round = m.round;
  fm.sat = m.sat;
  fm.relu = m.relu;
  return flush_input(f, encode_value(f, f, u, fm), m.ftz);
}

Exact load(const Format& f, uint64_t bits, bool ftz) { return of(decode(f, flush_input(f, bits, ftz))); }

}  // namespace

uint64_t arith(const Format& f, ArithOp k, uint64_t a, uint64_t b, uint64_t c, uint64_t flags) {
  const Mods m = mods_of(flags);
  if (f == kF64) {
    // Operand priority: b then a (add sub mul), b c a (fma), a then b (div, rcp, sqrt).
    const uint64_t two[] = {b, a}, three[] = {b, c, a}, first[] = {a, b};
    const std::span<const uint64_t> order = k == ArithOp::Fma  ? std::span<const uint64_t>(three)
                                            : k >= ArithOp::Div ? std::span<const uint64_t>(first)
                                                                : std::span<const uint64_t>(two);
    for (uint64_t v : order.first(k == ArithOp::Sqrt ? 1 : order.size()))
      if (is_nan64(v)) return v | kQuiet64;
  }
  // Round-to-nearest without modifiers is the host's own IEEE arithmetic, exact and fast; NaN
  // results take the sm_90 encodings (f64 NaN operands were handled above).
  if (m.round == Round::RN && !m.ftz && !m.sat && !m.relu && (f == kF32 || f == kF64)) {
    auto host = [&](auto x, auto y, auto z) {
      switch (k) {
        case ArithOp::Add: return x + y;
        case ArithOp::Sub: return x - y;
        case ArithOp::Mul: return x * y;
        case ArithOp::Fma: return std::fma(x, y, z);
        case ArithOp::Div: return x / y;
        default: return std::sqrt(x);
      }
    };
    if (f == kF32) {
      float r = host(std::bit_cast<float>(static_cast<uint32_t>(a)), std::bit_cast<float>(static_cast<uint32_t>(b)),
                     std::bit_cast<float>(static_cast<uint32_t>(c)));
      return std::isnan(r) ? f.nan_bits : std::bit_cast<uint32_t>(r);
    }
    double r = host(std::bit_cast<double>(a), std::bit_cast<double>(b), std::bit_cast<double>(c));
    return std::isnan(r) ? kInvalid64 : std::bit_cast<uint64_t>(r);
  }
  const Exact x = load(f, a, m.ftz), y = load(f, b, m.ftz);
  switch (k) {
    case ArithOp::Add: return round_exact_value(f, add(x, y, m.round), m);
    case ArithOp::Sub: {
      Exact ny = y;
      ny.neg = !ny.neg;
      return round_exact_value(f, add(x, ny, m.round), m);
    }
    case ArithOp::Mul: return round_exact_value(f, mul(x, y), m);
    case ArithOp::Fma: return round_exact_value(f, add(mul(x, y), load(f, c, m.ftz), m.round), m);
    case ArithOp::Div: return round_exact_value(f, div(x, y), m);
    case ArithOp::Sqrt: return round_exact_value(f, sqrt(x), m);
  }
  return f.nan_bits;
}

}  // namespace ptxvm::numeric
