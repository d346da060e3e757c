// The tensor-core arithmetic models (arith.h). PTX §9.7.14.5.14 (001_23fdd5978b24a3ed.txt) leaves
// the accumulation order and rounding open; `Sm90` is what the Hopper tensor cores do, fitted on
// the vectors of tests/hw/mma (see README.md there for the fit):
//  - f16/bf16/tf32 (HMMA): all K products of the instruction and C in one block. Products are
//    exact; each term is truncated toward zero at 2^(emax-25), emax the largest nominal exponent
//    of the block (a product's is the sum of its factors' exponents, a subnormal's the format's
//    minimum), the truncated terms are summed exactly and rounded once: toward zero into f32,
//    to nearest even into f16; overflow gives infinity either way.
//  - e4m3/e5m2 (emulated by ptxas: each element converted to f16, then two chained HMMAs of half
//    the K starting from zero — the first takes k with k%4 in {0,1}, the second k%4 in {2,3} —
//    and C added last by one f32/f16 addition rounding to nearest even).
//  - f16 m8n8k4 (emulated: per output a chain of f32 FFMAs over k = 0..3 from zero, then C added
//    by one f32 addition, each rounding to nearest even).
//  - f64 (DMMA): a chain of fused multiply-adds over k = 0..K-1 starting from C, each rounded by
//    the instruction's .rnd.
//  - .kind::f8f6f4 and the block-scaled kinds (sm_120a only, never recorded): summed exactly, as
//    `Exact`.
// tcgen05.mma (sm_100) has no GPU here to record: its rows below are MODELLED, not measured, on
// the public measurements of the Blackwell tensor cores (Xie et al., MMA-Sim, arXiv:2511.10909;
// Khattak & Mikaitis, arXiv:2512.07004): for f16/bf16/tf32/f8f6f4, all K products of the
// instruction and C in one block, exact products aligned 25 fraction bits below the block's
// largest exponent with truncation, an f32 result rounded toward zero (the HMMA block below with
// each operand's own format); for the block-scaled .kind::mxf8f6f4 the same block over the
// scaled products, and for .kind::mxf4/mxf4nvf4 blocks of 16 products summed exactly, each
// times its scale pair, then one such block with C (sm100_scaled). A measurement that disagrees
// corrects the row, not the code.
// NaN results are the canonical NaN; Inf x 0 and Inf - Inf give it too.
#include "mma/arith.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "mma/exact_sum.h"
#include "numeric/decode.h"
#include "numeric/encode.h"

namespace ptxvm::mma {
namespace {

using numeric::Class;
using numeric::Format;
using numeric::Round;
using numeric::Unpacked;

const Format& format_of(Type t) {
  switch (t) {
  case Type::F16: return numeric::kF16;
  case Type::BF16: return numeric::kBF16;
  case Type::TF32: return numeric::kTF32;
  case Type::F32: return numeric::kF32;
  case Type::F64: return numeric::kF64;
  case Type::E4M3: return numeric::kE4M3;
  case Type::E5M2: return numeric::kE5M2;
  case Type::E3M2: return numeric::kE3M2;
  case Type::E2M3: return numeric::kE2M3;
  case Type::UE8M0: return numeric::kUE8M0;
  case Type::UE4M3: return numeric::kUE4M3;
  default: return numeric::kE2M1;
  }
}

uint64_t canonical_nan(const Format& f) { return f.nan_bits; }
uint64_t infinity(const Format& f, bool negative) {
  return (negative ? f.sign_bit() : 0) | (((uint64_t{1} << f.exp_bits) - 1) << f.man_bits);
}

// An element decoded: value sig * 2^exp, and the exponent the tensor core aligns it by.
struct Term {
  bool negative = false;
  Class cls = Class::Zero;
  uint64_t sig = 0;
  int exp = 0;
  int nominal = 0;  // the exponent an HMMA aligns it by (set by decode_for_hmma)
};

Term decode(Type t, uint64_t bits) {
  const Unpacked u = numeric::decode(format_of(t), bits);
  return {u.negative, u.cls, u.sig, u.exp};
}

// The exponent of a value's leading bit, but no lower than `emin` (a subnormal's nominal exponent).
int nominal(uint64_t sig, int exp, int emin) { return std::max(63 - std::countl_zero(sig) + exp, emin); }

// Special operands of a dot product: NaN if any input is NaN, or Inf x 0, or infinities of both
// signs meet; otherwise the sign of the infinity, if any.
struct Special {
  bool nan = false, inf = false, inf_negative = false;
  void infinity_of(bool negative) {
    if (inf && inf_negative != negative) nan = true;
    inf = true;
    inf_negative = negative;
  }
  void product(const Term& a, const Term& b) {
    if (a.cls == Class::NaN || b.cls == Class::NaN) nan = true;
    else if (a.cls == Class::Inf || b.cls == Class::Inf) {
      if (a.cls == Class::Zero || b.cls == Class::Zero) nan = true;
      else infinity_of(a.negative != b.negative);
    }
  }
  void addend(const Term& c) {
    if (c.cls == Class::NaN) nan = true;
    else if (c.cls == Class::Inf) infinity_of(c.negative);
  }
  bool any() const { return nan || inf; }
  uint64_t bits(const Format& f) const { return nan ? canonical_nan(f) : infinity(f, inf_negative); }
};

// The sign of an exact zero sum of zero terms: negative only if every term is a negative zero.
uint64_t zero_bits(const Format& f, bool all_negative) { return all_negative ? f.sign_bit() : 0; }

// ---- Sm90: one HMMA block ------------------------------------------------------------------
// Terms are products (pairs) and an accumulator, aligned at the largest nominal exponent and
// truncated toward zero 25 bits below it, summed exactly, rounded once into `out`.
constexpr int kHmmaFractionBits = 25;

struct Product {
  bool negative;
  uint64_t sig;  // < 2^48
  int exp;
  int nominal;
};

// The longest float dot product: K = 96 (tcgen05's sm_103a block-scaled e2m1; m16n8k64 is 64).
constexpr unsigned kMaxK = 96;

// A block's products, without allocation (arith runs once per output element).
struct Products {
  std::array<Product, kMaxK> items;
  unsigned n = 0;
  void push_back(const Product& p) { items[n++] = p; }
  const Product* begin() const { return items.data(); }
  const Product* end() const { return items.data() + n; }
};

// sig * 2^exp (negated if `negative`) truncated toward zero to a multiple of 2^q, in units of
// 2^q. Every significand here is below 2^25 (products of 11-bit significands, f32
// accumulators), and exp - q <= 25, so the term is (sig << 39) >> (q + 39 - exp) with a right
// shift of at least 14 — computed without branches.
inline int64_t truncated(uint64_t sig, int exp, int q, bool negative) {
  const unsigned shift = static_cast<unsigned>(q + 39 - exp);
  const uint64_t keep = -static_cast<uint64_t>(shift < 64);
  const int64_t v = static_cast<int64_t>(((sig << 39) >> (shift & 63)) & keep);
  const int64_t negate = -static_cast<int64_t>(negative);  // 0 or -1
  return (v ^ negate) - negate;
}

// The block's exact sum (units of 2^q) rounded once into `out`; overflow gives infinity.
uint64_t round_block_sum(int64_t sum, int q, const Format& out, Round r) {
  if (sum == 0) return 0;
  const bool neg = sum < 0;
  const numeric::Encoded e = numeric::encode_magnitude(out, neg, static_cast<uint64_t>(neg ? -sum : sum), q, r);
  return e.overflow ? infinity(out, neg) : (neg ? out.sign_bit() : 0) | e.code;
}

// A block's sum with its significand truncated to `precision` fraction bits (0: all kept).
int64_t keep_precision(int64_t sum, int precision) {
  if (!precision || sum == 0) return sum;
  uint64_t magnitude = sum < 0 ? 0 - static_cast<uint64_t>(sum) : static_cast<uint64_t>(sum);
  const int msb = 63 - std::countl_zero(magnitude);
  if (msb > precision) magnitude &= ~((uint64_t{1} << (msb - precision)) - 1);
  return sum < 0 ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
}

uint64_t hmma_block(const Products& ps, const Term& acc, int acc_emin, const Format& out,
                    Round r, int fraction_bits = kHmmaFractionBits, int precision = 0) {
  int emax = INT_MIN;
  for (const Product& p : ps) emax = std::max(emax, p.sig ? p.nominal : INT_MIN);
  const bool acc_nonzero = acc.cls == Class::Normal || acc.cls == Class::Subnormal;
  if (acc_nonzero) emax = std::max(emax, nominal(acc.sig, acc.exp, acc_emin));
  if (emax == INT_MIN) return 0;  // only zeros: +0 whatever their signs (H200)
  const int q = emax - fraction_bits;
  int64_t sum = 0;
  for (const Product& p : ps) sum += truncated(p.sig, p.exp, q, p.negative);
  if (acc_nonzero) sum += truncated(acc.sig, acc.exp, q, acc.negative);
  return round_block_sum(keep_precision(sum, precision), q, out, r);
}

Term as_term(const Format& f, uint64_t bits) {
  const Unpacked u = numeric::decode(f, bits);
  return {u.negative, u.cls, u.sig, u.exp};
}

bool is_fp8(Type t) { return t == Type::E4M3 || t == Type::E5M2; }

// ---- Sm90: how each class is computed (the model's data) ---------------------------------
enum class Path : uint8_t {
  Hmma,        // native HMMA: blocks of `block` products, chained in k order from C
  HmmaHalves,  // fp8 emulation: two HMMAs over k%4 in {0,1} then {2,3} from zero, then + C
  FfmaChain,   // f16 m8n8k4, f32 result: FFMAs over k from zero, then + C
  FfmaPairs,   // f16 m8n8k4, f16 result: (C + (a0b0 + a1b1)) + (a2b2 + a3b3), then to f16
};
struct Recipe {
  Path path;
  unsigned block = 0;  // Hmma: products per HMMA (0: all K)
  int fraction_bits = kHmmaFractionBits;  // Hmma: bits kept below the block's largest exponent
  int precision = 0;  // Hmma: fraction bits the block's sum keeps below its own leading bit (0: all)
};
struct RecipeRow {
  bool (*matches)(const FloatClass&);
  Recipe recipe;
};
// First match wins. Read from the SASS ptxas 13.0 emits for sm_90 and confirmed by the vectors.
const RecipeRow kSm90Recipes[] = {
    // sm100 (modelled, see the top of this file): one block of all K, 25 fraction bits
    {[](const FloatClass& c) { return c.tcgen05; }, {Path::Hmma, 0, 25}},
    {[](const FloatClass& c) { return !c.wgmma && (c.a == Type::E4M3 || c.a == Type::E5M2); }, {Path::HmmaHalves}},
    // wgmma fp8: one block of all K products and C, aligned 13 bits below the largest nominal
    // exponent (each fp8 operand's own); an f32 result keeps 13 fraction bits of the sum (H100,
    // tests/hw/wgmma)
    {[](const FloatClass& c) { return c.wgmma && is_fp8(c.a) && c.d == Type::F32; }, {Path::Hmma, 0, 13, 13}},
    {[](const FloatClass& c) { return c.wgmma && is_fp8(c.a); }, {Path::Hmma, 0, 13}},
    {[](const FloatClass& c) { return c.a == Type::F16 && c.k == 4 && c.d == Type::F32; }, {Path::FfmaChain}},
    {[](const FloatClass& c) { return c.a == Type::F16 && c.k == 4; }, {Path::FfmaPairs}},
    // wmma m16n16k8 .tf32 is two HMMA.1684 (k = 0..3, then 4..7)
    {[](const FloatClass& c) { return c.wmma && c.a == Type::TF32 && c.k == 8; }, {Path::Hmma, 4}},
    {[](const FloatClass&) { return true; }, {Path::Hmma}},
};

Recipe recipe(const FloatClass& cls) {
  for (const RecipeRow& row : kSm90Recipes)
    if (row.matches(cls)) {
      Recipe r = row.recipe;
      if (r.block == 0) r.block = cls.k;
      return r;
    }
  return {Path::Hmma, cls.k};
}

// ---- IEEE arithmetic of the emulations (FFMA/FADD, HADD2; canonical NaN, nearest even) -----
Term ieee_fma(const Term& x, const Term& y, const Term& z, const Format& f) {
  Special sp;
  sp.product(x, y);
  sp.addend(z);
  if (sp.any()) return as_term(f, sp.bits(f));
  const bool pz = x.cls == Class::Zero || y.cls == Class::Zero;
  const bool pneg = x.negative != y.negative;
  ExactSum s;
  if (!pz) s.add(pneg, static_cast<u128>(x.sig) * y.sig, x.exp + y.exp);
  if (z.cls != Class::Zero) s.add(z.negative, z.sig, z.exp);
  if (s.zero()) {  // IEEE 754 §6.3: zeros of one sign keep it, else +0
    const bool neg = pz && z.cls == Class::Zero && pneg && z.negative;
    return {neg, Class::Zero, 0, 0};
  }
  return as_term(f, s.round(f, Round::RN));
}

Term ieee_add(const Term& x, const Term& z, const Format& f) {
  const Term one{false, Class::Normal, 1, 0};
  return ieee_fma(x, one, z, f);
}

// A value into `out`, rounding to nearest even (exact when it is one of out's values); NaN
// becomes canonical.
uint64_t to_format(const Format& out, const Term& t) {
  if (t.cls == Class::NaN) return canonical_nan(out);
  if (t.cls == Class::Inf) return infinity(out, t.negative);
  if (t.cls == Class::Zero) return zero_bits(out, t.negative);
  ExactSum s;
  s.add(t.negative, t.sig, t.exp);
  return s.round(out, Round::RN);
}

// The minimum exponent of the format an HMMA sees operand type t in: f16 for mma.sync's fp8
// emulation, the operand's own format on wgmma's native fp8 datapath.
int hmma_input_emin(const FloatClass& cls, Type t) {
  return 1 - (is_fp8(t) && !cls.wgmma && !cls.tcgen05 ? numeric::kF16 : format_of(t)).bias;
}

Term decode_for_hmma(Type t, uint64_t bits, int emin) {
  Term x = decode(t, bits);
  if (x.cls == Class::Normal || x.cls == Class::Subnormal) x.nominal = nominal(x.sig, x.exp, emin);
  return x;
}

// C as the block sees it: scaled by 2^-c_scale exactly (scale-input-d), its nominal exponent
// lowered with it.
Term decode_c(const FloatClass& cls, uint64_t bits) {
  const int scale = static_cast<int>(cls.c_scale);
  Term x = decode_for_hmma(cls.c, bits, 1 - format_of(cls.c).bias - scale);
  if (x.cls == Class::Normal || x.cls == Class::Subnormal) x.exp -= scale, x.nominal -= scale;
  return x;
}

// One element of D from decoded operands: at[0..k) a row of A, bt[0..k) a column of B.
uint64_t sm90_dot(const FloatClass& cls, const Recipe& rc, const Term* at, const Term* bt, const Term& ct) {
  const Format& out = format_of(cls.d);
  if (rc.path == Path::FfmaChain || rc.path == Path::FfmaPairs) {
    // f16 m8n8k4 as ptxas emulates it: f32 FMUL/FFMA/FADD, each IEEE, rounding to nearest even.
    const Format& f32 = numeric::kF32;
    auto p = [&](unsigned k, const Term& acc) { return ieee_fma(at[k], bt[k], acc, f32); };
    const Term zero{false, Class::Zero, 0, 0};
    Term sum;
    if (rc.path == Path::FfmaChain) {  // ((((0 + a0b0) + a1b1) + a2b2) + a3b3) + C
      sum = zero;
      for (unsigned k = 0; k < 4; ++k) sum = p(k, sum);
      sum = ieee_add(ct, sum, f32);
    } else {  // (C + (a0b0 + a1b1)) + (a2b2 + a3b3), each pair an FMUL then an FFMA
      const Term negative_zero{true, Class::Zero, 0, 0};
      sum = ieee_add(ieee_add(ct, p(1, p(0, negative_zero)), f32), p(3, p(2, negative_zero)), f32);
    }
    return to_format(out, sum);
  }

  // HMMA blocks (the operands' nominal exponents are those of the HMMA's input format).
  auto product = [&](unsigned k) {
    const bool nz = at[k].sig && bt[k].sig && at[k].cls != Class::Zero && bt[k].cls != Class::Zero;
    return Product{at[k].negative != bt[k].negative, nz ? at[k].sig * bt[k].sig : 0, at[k].exp + bt[k].exp,
                   at[k].nominal + bt[k].nominal};
  };
  const Round r = cls.d == Type::F32 ? Round::RZ : Round::RN;
  const int out_emin = 1 - out.bias;
  if (rc.path == Path::Hmma) {  // blocks of rc.block products in k order, the first starting at C
    Term acc = ct;
    int acc_emin = 1 - format_of(cls.c).bias - static_cast<int>(cls.c_scale);
    uint64_t bits = 0;
    for (unsigned k0 = 0; k0 < cls.k; k0 += rc.block) {  // each block one HMMA, specials and all
      Products ps;
      Special block;
      for (unsigned k = k0; k < k0 + rc.block && k < cls.k; ++k) {
        ps.push_back(product(k));
        block.product(at[k], bt[k]);
      }
      block.addend(acc);
      bits = block.any() ? block.bits(out) : hmma_block(ps, acc, acc_emin, out, r, rc.fraction_bits, rc.precision);
      acc = as_term(out, bits);
      acc_emin = out_emin;
    }
    return bits;
  }
  // fp8: two chained half-K blocks from zero, then C added by one IEEE addition rounding to
  // nearest even. Each block sees its own special operands: an infinity from an overflowed first
  // block meets the second block's infinities and C as IEEE arithmetic would.
  Special running;
  Term acc{false, Class::Zero, 0, 0};
  for (unsigned half = 0; half < 2; ++half) {
    Products ps;
    Special block = running;
    for (unsigned k = 0; k < cls.k; ++k)
      if ((k % 4) / 2 == half) {
        ps.push_back(product(k));
        block.product(at[k], bt[k]);
      }
    if (block.nan) return canonical_nan(out);
    if (block.inf) {
      running = block;
      continue;
    }
    acc = as_term(out, hmma_block(ps, acc, out_emin, out, r));
    if (acc.cls == Class::Inf) running.infinity_of(acc.negative);
  }
  running.addend(ct);
  if (running.any()) return running.bits(out);
  return to_format(out, ieee_add(ct, acc, out));
}

uint64_t sm90_float(const FloatClass& cls, const uint64_t* a, const uint64_t* b, uint64_t c) {
  if (cls.k > kMaxK) return canonical_nan(format_of(cls.d));  // unreachable: float K <= 96
  const int emin_a = hmma_input_emin(cls, cls.a), emin_b = hmma_input_emin(cls, cls.b);
  std::array<Term, kMaxK> at, bt;
  for (unsigned k = 0; k < cls.k; ++k) {
    at[k] = decode_for_hmma(cls.a, a[k], emin_a);
    bt[k] = decode_for_hmma(cls.b, b[k], emin_b);
  }
  return sm90_dot(cls, recipe(cls), at.data(), bt.data(), decode_c(cls, c));
}

// The NaN the H200's DMMA creates for Inf x 0 and Inf - Inf: negative, quiet, no payload.
constexpr uint64_t kDmmaDefaultNan = 0xfff8000000000000ull;

// Sm90 f64: fused multiply-adds over k in order, starting from C.
uint64_t fma_chain_f64(const FloatClass& cls, const uint64_t* a, const uint64_t* b, uint64_t c) {
  const Format& f = numeric::kF64;
  uint64_t acc_bits = c;
  Term acc = decode(Type::F64, c);
  for (unsigned k = 0; k < cls.k; ++k) {
    const Term x = decode(Type::F64, a[k]), y = decode(Type::F64, b[k]);
    // A NaN operand passes through quieted, b's before the accumulator's before a's (H200).
    const uint64_t quiet = uint64_t{1} << 51;
    if (x.cls == Class::NaN || y.cls == Class::NaN || acc.cls == Class::NaN) {
      const uint64_t nan = y.cls == Class::NaN ? b[k] : acc.cls == Class::NaN ? acc_bits : a[k];
      acc_bits = nan | quiet;
      acc = as_term(f, acc_bits);
      continue;
    }
    Special sp;
    sp.product(x, y);
    sp.addend(acc);
    if (sp.any()) {
      acc_bits = sp.nan ? kDmmaDefaultNan : sp.bits(f);
      acc = as_term(f, acc_bits);
      continue;
    }
    const bool pz = x.cls == Class::Zero || y.cls == Class::Zero;
    ExactSum s;
    if (!pz) s.add(x.negative != y.negative, static_cast<u128>(x.sig) * y.sig, x.exp + y.exp);
    if (acc.cls != Class::Zero) s.add(acc.negative, acc.sig, acc.exp);
    uint64_t bits;
    if (s.zero()) {
      // IEEE 754 §6.3: zeros of one sign keep it; otherwise +0, or -0 when rounding toward -inf.
      const bool pneg = x.negative != y.negative;
      if (pz && acc.cls == Class::Zero && pneg == acc.negative) bits = zero_bits(f, pneg);
      else bits = cls.rnd == Round::RM ? f.sign_bit() : 0;
    } else {
      bits = s.round(f, cls.rnd);
    }
    acc_bits = bits;
    acc = as_term(f, bits);
  }
  if (acc.cls == Class::Inf || acc.cls == Class::NaN) return acc_bits;
  if (acc.cls == Class::Zero) return zero_bits(f, acc.negative);
  ExactSum s;
  s.add(acc.negative, acc.sig, acc.exp);
  return s.round(f, Round::RZ);  // exact: acc is an f64
}

// Exact: every product and C summed exactly, one rounding (to nearest even, or f64's .rnd).
// factors(k) gives the two factors of product k.
template <typename Factors>
uint64_t exact_sum_of(const FloatClass& cls, Factors factors, uint64_t c) {
  const Format& out = format_of(cls.d);
  Term ct = decode(cls.c, c);
  ct.exp -= static_cast<int>(cls.c_scale);
  Special sp;
  ExactSum s;
  bool any_nonzero = false, all_negative_zero = ct.cls != Class::Zero || ct.negative;
  for (unsigned k = 0; k < cls.k; ++k) {
    const auto [x, y] = factors(k);
    sp.product(x, y);
    if (x.cls == Class::Zero || y.cls == Class::Zero || x.cls == Class::Inf || y.cls == Class::Inf || x.cls == Class::NaN || y.cls == Class::NaN) {
      all_negative_zero = all_negative_zero && (x.negative != y.negative);
      continue;
    }
    s.add(x.negative != y.negative, static_cast<u128>(x.sig) * y.sig, x.exp + y.exp);
    any_nonzero = true;
  }
  sp.addend(ct);
  if (sp.any()) return sp.bits(out);
  if (ct.cls != Class::Zero) {
    s.add(ct.negative, ct.sig, ct.exp);
    any_nonzero = true;
  }
  if (!any_nonzero) return zero_bits(out, all_negative_zero);
  if (s.zero()) return cls.rnd == Round::RM ? out.sign_bit() : 0;
  return s.round(out, cls.d == Type::F64 ? cls.rnd : Round::RN);
}

uint64_t exact_float(const FloatClass& cls, const uint64_t* a, const uint64_t* b, uint64_t c) {
  return exact_sum_of(cls, [&](unsigned k) { return std::pair{decode(cls.a, a[k]), decode(cls.b, b[k])}; }, c);
}

// x times a scale factor s (positive, or NaN; ue4m3 may be zero) as one Term: NaN if either is,
// or Inf x 0; else Inf, zero, or the exact product (significands below 2^8).
Term scaled(const Term& x, const Term& s) {
  Term r{x.negative, x.cls, x.sig * s.sig, x.exp + s.exp};
  if (x.cls == Class::NaN || s.cls == Class::NaN || (x.cls == Class::Inf && s.cls == Class::Zero))
    r.cls = Class::NaN;
  else if (x.cls != Class::Inf && s.cls == Class::Zero)
    r.cls = Class::Zero;
  return r;
}

// tcgen05's block-scaled kinds (modelled, see the top of this file). Each term is a scaled
// product (.kind::mxf8f6f4) or, for .kind::mxf4/mxf4nvf4, the exact sum of a block of
// kSm100Fp4Block products times its scale pair; the terms and C form one block aligned 25
// fraction bits below its largest exponent with truncation, rounded toward zero into f32.
constexpr unsigned kSm100Fp4Block = 16;

uint64_t sm100_scaled(const FloatClass& cls, Type scale, const uint64_t* a, const uint64_t* b, const uint8_t* sa,
                      const uint8_t* sb, uint64_t c) {
  const Format& out = format_of(cls.d);
  const unsigned block = cls.mxf4 ? kSm100Fp4Block : 1;
  const int emin_a = hmma_input_emin(cls, cls.a), emin_b = hmma_input_emin(cls, cls.b);
  const uint64_t scale_mask = scale == Type::UE4M3 ? 0x7f : 0xff;  // ue4m3: its low 7 bits
  Special sp;
  Products ps;
  for (unsigned k0 = 0; k0 < cls.k; k0 += block) {
    const Term s = scaled(decode(scale, sa[k0] & scale_mask), decode(scale, sb[k0] & scale_mask));
    if (s.cls == Class::NaN) sp.nan = true;
    int64_t sum = 0;  // the block's products, exactly, in units of 2^lsb
    int lsb = INT_MAX, nominal_sum = INT_MIN;
    for (unsigned k = k0; k < k0 + block; ++k) {
      const Term x = decode_for_hmma(cls.a, a[k], emin_a), y = decode_for_hmma(cls.b, b[k], emin_b);
      sp.product(x, y);
      if ((x.cls == Class::Inf || y.cls == Class::Inf) && s.cls == Class::Zero) sp.nan = true;
      if (x.cls != Class::Normal && x.cls != Class::Subnormal) continue;
      if (y.cls != Class::Normal && y.cls != Class::Subnormal) continue;
      const int e = x.exp + y.exp;
      const int64_t p = static_cast<int64_t>(x.sig * y.sig) * (x.negative != y.negative ? -1 : 1);
      if (block == 1) sum = p, lsb = e, nominal_sum = x.nominal + y.nominal;
      else if (lsb == INT_MAX) sum = p, lsb = e;
      else if (e >= lsb) sum += p << (e - lsb);  // e2m1 exponents differ by at most 4
      else sum = (sum << (lsb - e)) + p, lsb = e;
    }
    if (sum == 0 || (s.cls != Class::Normal && s.cls != Class::Subnormal)) continue;  // subnormal ue4m3 scales are exact too
    const uint64_t magnitude = static_cast<uint64_t>(sum < 0 ? -sum : sum) * s.sig;
    const int exp = lsb + s.exp;
    // A scaled product aligns by its factors' nominal exponents (as in an HMMA block), a block
    // sum by its leading bit.
    const int nom = block == 1 ? nominal_sum + nominal(s.sig, s.exp, INT_MIN) : nominal(magnitude, exp, INT_MIN);
    ps.push_back(Product{sum < 0, magnitude, exp, nom});
  }
  const Term ct = decode_c(cls, c);
  sp.addend(ct);
  if (sp.any()) return sp.bits(out);
  return hmma_block(ps, ct, 1 - format_of(cls.c).bias, out, Round::RZ, kHmmaFractionBits);
}

// ---- hmma_tile: the common case of gemm, one HMMA block per element (the whole K) ----------
// The arithmetic of hmma_block in 32-bit integers, vectorised over the columns of D. An input
// element (f16, tf32: m = 10 fraction bits; bf16: m = 7) is sig * 2^(n - m), n its nominal
// exponent; a product of nominal P = na + nb is prod * 2^(P - 2m), which at the block's alignment
// q = emax - 25 is prod * 2^(S - d) units of 2^q, with S = 25 - 2m and d = emax - P >= 0. With B's
// significands stored shifted left by S, a term is (sa * sb') >> d truncated toward zero: below
// 2^(2m + 2 + S) = 2^27, so up to 16 of them sum exactly in an int32. The same holds for the
// narrow formats of tcgen05 (fp8, fp6, fp4; A and B of different m: S = 25 - ma - mb) and for
// their products scaled by powers of two (ue8m0 factors add to the nominal exponents).
constexpr int32_t kZeroNominal = -(1 << 20);  // a zero's: far below any real one, never emax
constexpr unsigned kTileMaxK = 16;             // the int32 bound above: K is summed in chunks of it

// A tile's operands decoded (decode_fields): A (rows x k), B (k x cols) and C (rows x cols),
// row-major, and per element of D its alignment exponent and, per chunk of kTileMaxK products,
// its sum (sum[(chunk * rows + i) * cols + j]); buffers kept by the thread.
struct TileOperands {
  std::vector<uint32_t> as, bs, cs;
  std::vector<int32_t> an, ag, bn, bg, cn, cg, emax, sum;
  void resize(unsigned rows, unsigned cols, unsigned k) {
    as.resize(size_t{rows} * k), bs.resize(size_t{k} * cols), cs.resize(size_t{rows} * cols);
    an.resize(as.size()), ag.resize(as.size()), bn.resize(bs.size()), bg.resize(bs.size());
    cn.resize(cs.size()), cg.resize(cs.size()), emax.resize(cs.size());
    sum.resize(cs.size() * chunks(k));
  }
  static unsigned chunks(unsigned k) { return (k + kTileMaxK - 1) / kTileMaxK; }
};

// Whether bits of F (an IEEE format with subnormals: f16, bf16, tf32, f32) are an Inf or NaN.
template <const Format& F> constexpr bool inf_or_nan(uint64_t bits) {
  constexpr uint64_t top = (uint64_t{1} << F.exp_bits) - 1;
  return ((bits >> (F.pad_bits + F.man_bits)) & top) == top;
}

// L int32, uint32, float, uint64 or double lanes (the GCC/Clang vector extension): the tile path steps
// through 16 columns at a time, or 8 where the tile's shape is a multiple of 8 only (an AVX-512
// register holds 16 int32, an AVX2 register 8).
template <unsigned L> struct Lanes;
template <> struct Lanes<8> {
  using F32 = float __attribute__((vector_size(32)));
  using I32 = int32_t __attribute__((vector_size(32)));
  using U32 = uint32_t __attribute__((vector_size(32)));
  using U64 = uint64_t __attribute__((vector_size(64)));
  using F64 = double __attribute__((vector_size(64)));
};
template <> struct Lanes<16> {
  using F32 = float __attribute__((vector_size(64)));
  using I32 = int32_t __attribute__((vector_size(64)));
  using U32 = uint32_t __attribute__((vector_size(64)));
  using U64 = uint64_t __attribute__((vector_size(128)));
  using F64 = double __attribute__((vector_size(128)));
};
#define PTXVM_LANE_TYPES(L)                                                              \
  using I32s = typename Lanes<L>::I32;                                                   \
  using U32s = typename Lanes<L>::U32;                                                   \
  using U64s [[maybe_unused]] = typename Lanes<L>::U64;                                  \
  using F64s [[maybe_unused]] = typename Lanes<L>::F64

// n elements of F (n a multiple of L) as significands (shifted left by `shift`), nominal
// exponents (the format's minimum for a subnormal, kZeroNominal for a zero) and sign masks (0 or
// -1), L at a time; false if any is an Inf or NaN (whose entries are meaningless).
template <const Format& F, unsigned L>
[[gnu::always_inline]] inline bool decode_fields(const uint64_t* bits, unsigned n, unsigned shift, uint32_t* sig,
                                                 int32_t* nom, int32_t* neg) {
  PTXVM_LANE_TYPES(L);
  static_assert(F.specials == numeric::Specials::Ieee && F.has_subnormals);
  constexpr uint32_t top = (1u << F.exp_bits) - 1, hidden = 1u << F.man_bits;
  I32s bad = {};
  for (unsigned i = 0; i < n; i += L) {
    U64s w;
    std::memcpy(&w, &bits[i], sizeof w);
    const U32s x = __builtin_convertvector(w >> F.pad_bits, U32s);
    const U32s field = (x >> F.man_bits) & top;
    const U32s s = (x & (hidden - 1)) | (field != 0 ? hidden : 0u);
    const I32s f = reinterpret_cast<I32s>(field);
    const I32s v = reinterpret_cast<I32s>(s << shift), exponent = s != 0 ? (f > 1 ? f : 1) - F.bias : kZeroNominal,
               sign = -reinterpret_cast<I32s>((x >> (F.exp_bits + F.man_bits)) & 1);
    bad |= field == top;
    std::memcpy(&sig[i], &v, sizeof v);
    std::memcpy(&nom[i], &exponent, sizeof exponent);
    std::memcpy(&neg[i], &sign, sizeof sign);
  }
  for (unsigned l = 0; l < L; ++l)
    if (bad[l]) return false;
  return true;
}

// x >>= d per lane for 0 <= d, 0 from d = 32 on: one variable shift where the build targets AVX2
// or AVX-512, whose shifts give 0 for counts past 31 (C++'s >> needs the count clamped).
template <unsigned L>
[[gnu::always_inline]] inline void shift_right(typename Lanes<L>::U32& x, typename Lanes<L>::I32 const& d) {
  using U32s = typename Lanes<L>::U32;
#if defined(__AVX512F__)
  if constexpr (L == 16) {
    const __m512i shifted = _mm512_maskz_srlv_epi32(0xffff, reinterpret_cast<__m512i>(x), reinterpret_cast<__m512i>(d));
    x = reinterpret_cast<U32s>(shifted);
    return;
  }
#endif
#if defined(__AVX2__)
  if constexpr (L == 8) {
    x = reinterpret_cast<U32s>(_mm256_srlv_epi32(reinterpret_cast<__m256i>(x), reinterpret_cast<__m256i>(d)));
    return;
  }
#endif
  x >>= reinterpret_cast<U32s>(d < 31 ? d : 31);  // x is below 2^27: 31 places leave 0
}

// Whether any lane of x is not 0.
template <typename V> [[gnu::always_inline]] inline bool any_lane(const V& x) {
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) return _mm512_test_epi32_mask(reinterpret_cast<__m512i>(x), reinterpret_cast<__m512i>(x));
#endif
#if defined(__AVX__)
  if constexpr (sizeof(V) == 32) return !_mm256_testz_si256(reinterpret_cast<__m256i>(x), reinterpret_cast<__m256i>(x));
#endif
  uint64_t words[sizeof(V) / 8];
  std::memcpy(words, &x, sizeof x);
  return std::any_of(std::begin(words), std::end(words), [](uint64_t w) { return w != 0; });
}

// tile_sums for rows i .. i + R - 1 and the L columns from j0: each vector of B read once for
// the R rows.
template <unsigned L, unsigned R, bool kChunked>
[[gnu::always_inline]] inline void row_sums(TileOperands& t, unsigned i, unsigned j0, unsigned rows, unsigned cols,
                                            unsigned k) {
  PTXVM_LANE_TYPES(L);
  const uint32_t* as[R];
  const int32_t *an[R], *ag[R];
  I32s e[R];
  for (unsigned r = 0; r < R; ++r) {
    as[r] = t.as.data() + size_t{i + r} * k, an[r] = t.an.data() + size_t{i + r} * k, ag[r] = t.ag.data() + size_t{i + r} * k;
    std::memcpy(&e[r], &t.emax[size_t{i + r} * cols + j0], sizeof e[r]);
  }
  const uint32_t* bs_all = t.bs.data();
  const int32_t *bn_all = t.bn.data(), *bg_all = t.bg.data();
  I32s bn, bg;
  U32s bs;
  for (unsigned kk = 0; kk < k; ++kk) {
    std::memcpy(&bn, &bn_all[size_t{kk} * cols + j0], sizeof bn);
    for (unsigned r = 0; r < R; ++r) {
      const I32s p = an[r][kk] + bn;
      e[r] = p > e[r] ? p : e[r];
    }
  }
  // The truncated terms of products from..to-1, added to s.
  auto terms = [&](unsigned from, unsigned to, I32s (&s)[R]) __attribute__((always_inline)) {
    for (unsigned r = 0; r < R; ++r) s[r] = I32s{};
    for (unsigned kk = from; kk < to; ++kk) {
      std::memcpy(&bs, &bs_all[size_t{kk} * cols + j0], sizeof bs);
      std::memcpy(&bn, &bn_all[size_t{kk} * cols + j0], sizeof bn);
      std::memcpy(&bg, &bg_all[size_t{kk} * cols + j0], sizeof bg);
      for (unsigned r = 0; r < R; ++r) {
        U32s product = as[r][kk] * bs;
        shift_right<L>(product, e[r] - an[r][kk] - bn);  // e is the maximum: a count >= 0
        const I32s v = reinterpret_cast<I32s>(product);
        const I32s neg = ag[r][kk] ^ bg;
        s[r] += (v ^ neg) - neg;
      }
    }
  };
  I32s s[R];
  for (unsigned chunk = 0; chunk < (kChunked ? TileOperands::chunks(k) : 1); ++chunk) {
    terms(chunk * kTileMaxK, kChunked ? std::min(k, (chunk + 1) * kTileMaxK) : k, s);
    for (unsigned r = 0; r < R; ++r) std::memcpy(&t.sum[(size_t{chunk} * rows + i + r) * cols + j0], &s[r], sizeof s[r]);
  }
  for (unsigned r = 0; r < R; ++r) std::memcpy(&t.emax[size_t{i + r} * cols + j0], &e[r], sizeof e[r]);
}

// For every (i, j): emax, C's nominal on entry, becomes the block's alignment exponent; sum the
// products' truncated terms in units of 2^(emax - 25), L columns and four rows at a time (a
// column block of B stays in L1 while every row of A passes it).
template <unsigned L, bool kChunked>
[[gnu::always_inline]] inline void tile_sums(TileOperands& t, unsigned rows, unsigned cols, unsigned k) {
  constexpr unsigned kRows = 4;
  for (unsigned j0 = 0; j0 < cols; j0 += L) {
    unsigned i = 0;
    for (; i + kRows <= rows; i += kRows) row_sums<L, kRows, kChunked>(t, i, j0, rows, cols, k);
    for (; i < rows; ++i) row_sums<L, 1, kChunked>(t, i, j0, rows, cols, k);
  }
}

// d[0..L) for f32 results (toward zero) from the products' sums s (units of 2^(e - fraction_bits)),
// the alignments e and C's significands (in units of 2^(cn - fraction_bits): below 2^26), nominal
// exponents and sign masks: C's term truncated as a product's, the int32 total's magnitude
// converted exactly to a double, whose exponent and leading fraction bits give the f32, of which
// `kept` keeps the fraction bits the block's precision allows. `slow` becomes the mask of the
// lanes this cannot do (an int32 overflow, a zero total, a result outside the normal range, only
// zeros in the block), which round_block_sum must.
template <unsigned L, typename I32s = typename Lanes<L>::I32, typename U32s = typename Lanes<L>::U32>
[[gnu::always_inline]] inline void finish_f32_rz(const I32s& e, const I32s& s, const U32s& cs, const I32s& cn,
                                                 const I32s& cg, int fraction_bits, uint32_t kept, uint64_t* d,
                                                 I32s& slow) {
  using U64s = typename Lanes<L>::U64;
  using F64s = typename Lanes<L>::F64;
  I32s dc = e - cn;  // >= 0
  dc = dc < 31 ? dc : 31;
  const I32s cv = reinterpret_cast<I32s>(cs >> reinterpret_cast<U32s>(dc)), ct = (cv ^ cg) - cg;
  const I32s total = reinterpret_cast<I32s>(reinterpret_cast<U32s>(s) + reinterpret_cast<U32s>(ct));  // wraps
  const I32s sign = total >> 31;
  const I32s mag = (total ^ sign) - sign;  // negative only for -2^31
  I32s top;       // the place of mag's leading 1
  U32s fraction;  // the 23 bits below it, truncated
#if defined(__AVX512CD__) && defined(__AVX512VL__)
  if constexpr (sizeof(I32s) == 64 || sizeof(I32s) == 32) {  // a leading-zero count per lane
    I32s zeros;
    if constexpr (sizeof(I32s) == 64) zeros = reinterpret_cast<I32s>(_mm512_lzcnt_epi32(reinterpret_cast<__m512i>(mag)));
    else zeros = reinterpret_cast<I32s>(_mm256_lzcnt_epi32(reinterpret_cast<__m256i>(mag)));
    top = 31 - zeros;
    fraction = ((reinterpret_cast<U32s>(mag) << reinterpret_cast<U32s>(zeros)) >> 8) & 0x7fffff;
  } else
#endif
  {  // converted exactly to a double, whose exponent and leading fraction bits are those
    const F64s m = __builtin_convertvector(mag, F64s);
    U64s bits;  // of a positive double
    std::memcpy(&bits, &m, sizeof bits);
    top = __builtin_convertvector(bits >> 52, I32s) - 1023;
    fraction = __builtin_convertvector((bits >> 29) & 0x7fffff, U32s);
  }
  const I32s biased = top + e - fraction_bits + 127;
  const U32s f32 = reinterpret_cast<U32s>((sign & 0x80000000) | biased << 23) | (fraction & kept);
  const U64s out = __builtin_convertvector(f32, U64s);
  std::memcpy(d, &out, sizeof out);
  const I32s overflow = ((s ^ total) & (ct ^ total)) < 0;
  slow = overflow | (mag <= 0) | (biased < 1) | (biased > 254) | (e <= kZeroNominal / 2);
}

// D from a tile with C in FC, L columns at a time: C's nominal exponents start each emax (an Inf
// or NaN C is the result), then sums(t) turns them into the blocks' alignments and sums their
// terms (tile_sums for A and B decoded into t, A and B finite).
template <const Format& FC, unsigned L, bool kChunked, typename Sums>
[[gnu::always_inline]] inline void tile_from_operands(const FloatClass& cls, int fraction_bits, int precision,
                                                      TileOperands& t, unsigned rows, unsigned cols,
                                                      const uint64_t* c, uint64_t* d, Sums sums) {
  PTXVM_LANE_TYPES(L);
  const unsigned k = cls.k, n = rows * cols, chunks = kChunked ? TileOperands::chunks(k) : 1;
  const bool c_finite = decode_fields<FC, L>(c, n, 0, t.cs.data(), t.cn.data(), t.cg.data());
  for (unsigned i = 0; i < n; ++i) t.emax[i] = c_finite || !inf_or_nan<FC>(c[i]) ? t.cn[i] : kZeroNominal;
  sums(t);
  const int32_t *emax = t.emax.data(), *sum = t.sum.data();
  const Format& out = format_of(cls.d);
  const Round r = cls.d == Type::F32 ? Round::RZ : Round::RN;
  // n and chunks by value: a captured reference would be reloaded in every loop below.
  auto finish = [&, n, chunks](unsigned i) -> uint64_t {
    if (!c_finite && inf_or_nan<FC>(c[i])) {
      const Term ct = decode(cls.c, c[i]);
      return Special{ct.cls == Class::NaN, true, ct.negative}.bits(out);
    }
    if (emax[i] <= kZeroNominal / 2) return 0;  // only zeros: +0 (hmma_block)
    const int q = emax[i] - fraction_bits;
    int64_t total = truncated(t.cs[i], t.cn[i] - FC.man_bits, q, t.cg[i] != 0);
    for (unsigned chunk = 0; chunk < chunks; ++chunk) total += sum[size_t{chunk} * n + i];
    return round_block_sum(keep_precision(total, precision), q, out, r);
  };
  if (!c_finite || cls.d != Type::F32) {
    for (unsigned i = 0; i < n; ++i) d[i] = finish(i);
    return;
  }
  I32s e, s, part, cn, cg, slow;
  U32s cs;
  const int c_shift = fraction_bits - FC.man_bits;  // C's significand in units of 2^(cn - fraction_bits)
  const uint32_t kept = precision && precision < 23 ? ~((1u << (23 - precision)) - 1) : ~0u;
  const uint32_t* cs_all = t.cs.data();
  const int32_t *cn_all = t.cn.data(), *cg_all = t.cg.data();
  for (unsigned i = 0; i < n; i += L) {
    std::memcpy(&e, &emax[i], sizeof e), std::memcpy(&s, &sum[i], sizeof s);
    I32s wrapped = {};  // chunk sums whose int32 total wraps: the element path's
    for (unsigned chunk = 1; kChunked && chunk < chunks; ++chunk) {
      std::memcpy(&part, &sum[size_t{chunk} * n + i], sizeof part);
      const I32s total = reinterpret_cast<I32s>(reinterpret_cast<U32s>(s) + reinterpret_cast<U32s>(part));
      wrapped |= ((s ^ total) & (part ^ total)) < 0;
      s = total;
    }
    std::memcpy(&cs, &cs_all[i], sizeof cs), std::memcpy(&cn, &cn_all[i], sizeof cn), std::memcpy(&cg, &cg_all[i], sizeof cg);
    if (c_shift >= 0) cs <<= c_shift;
    else cs >>= -c_shift;  // truncated twice is truncated once: finish_f32_rz shifts right again
    finish_f32_rz<L>(e, s, cs, cn, cg, fraction_bits, kept, &d[i], slow);
    if constexpr (kChunked) slow |= wrapped;
    if (any_lane(slow))
      for (unsigned l = 0; l < L; ++l)
        if (slow[l]) d[i + l] = finish(i + l);
  }
}

// hmma_tile for inputs in FA and C in FC, L columns at a time.
template <const Format& FA, const Format& FC, unsigned L>
[[gnu::always_inline]] inline bool hmma_tile_as(const FloatClass& cls, unsigned rows, unsigned cols,
                                                const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                                uint64_t* d) {
  static_assert(FA.man_bits <= 12 && FC.man_bits <= 24);  // the int32 bound; truncated()'s bound
  constexpr unsigned shift = kHmmaFractionBits - 2 * FA.man_bits;  // S
  const unsigned k = cls.k;
  if (k > kTileMaxK || cols % L || rows * k % L) return false;
  thread_local TileOperands t;
  t.resize(rows, cols, k);
  if (!decode_fields<FA, L>(a, rows * k, 0, t.as.data(), t.an.data(), t.ag.data()) ||
      !decode_fields<FA, L>(b, k * cols, shift, t.bs.data(), t.bn.data(), t.bg.data()))
    return false;
  tile_from_operands<FC, L, false>(cls, kHmmaFractionBits, 0, t, rows, cols, c, d,
                                   [&](TileOperands& u) { tile_sums<L, false>(u, rows, cols, k); });
  return true;
}

template <const Format& FA>
[[gnu::always_inline]] inline bool hmma_tile_c(const FloatClass& cls, unsigned rows, unsigned cols,
                                               const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                               uint64_t* d) {
  const bool wide = cols % 16 == 0 && rows * cls.k % 16 == 0;
  if (cls.c == Type::F32)
    return wide ? hmma_tile_as<FA, numeric::kF32, 16>(cls, rows, cols, a, b, c, d)
                : hmma_tile_as<FA, numeric::kF32, 8>(cls, rows, cols, a, b, c, d);
  if (cls.c == Type::F16)
    return wide ? hmma_tile_as<FA, numeric::kF16, 16>(cls, rows, cols, a, b, c, d)
                : hmma_tile_as<FA, numeric::kF16, 8>(cls, rows, cols, a, b, c, d);
  return false;
}

// The narrow formats of tcgen05's .kind::f8f6f4 and .kind::mxf8f6f4 (fp8, fp6, fp4).
bool narrow(Type t) { return t == Type::E4M3 || t == Type::E5M2 || t == Type::E3M2 || t == Type::E2M3 || t == Type::E2M1; }

// n elements of t (bits[i * stride]) as decode_fields lays them out (significand shifted left by
// `shift`, nominal exponent, sign mask), element i's nominal raised by offset(i), the exponent of
// its ue8m0 factor; false if an element is an Inf or NaN.
template <typename Offset>
bool decode_narrow(const FloatClass& cls, Type t, const uint64_t* bits, size_t n, size_t stride, unsigned shift,
                   Offset offset, uint32_t* sig, int32_t* nom, int32_t* neg) {
  const int emin = hmma_input_emin(cls, t);
  for (size_t i = 0; i < n; ++i) {
    const Term x = decode_for_hmma(t, bits[i * stride], emin);
    if (x.cls == Class::NaN || x.cls == Class::Inf) return false;
    const bool zero = x.cls == Class::Zero;
    sig[i] = zero ? 0 : static_cast<uint32_t>(x.sig) << shift;
    nom[i] = zero ? kZeroNominal : x.nominal + offset(i);
    neg[i] = x.negative ? -1 : 0;
  }
  return true;
}

// The narrow kinds on the tile path: wgmma's fp8 and tcgen05's .kind::f8f6f4 (sa, sb null), one
// block aligned `fraction_bits` below its largest exponent whose sum keeps `precision` fraction
// bits (0: all), and tcgen05's .kind::mxf8f6f4 (ue8m0 factors: sa[i * blocks + u] of row i,
// sb[j * blocks + u] of column j for k-block u): a factor 2^e adds e to its elements' nominal
// exponents, which is how sm100_scaled aligns a scaled product. False, computing nothing, for
// shapes or C types the path lacks and tiles with an Inf or NaN in A, B or a factor.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
bool narrow_tile(const FloatClass& cls, int fraction_bits, int precision, unsigned rows, unsigned cols,
                 unsigned blocks, const uint64_t* a, const uint64_t* b, const uint8_t* sa, const uint8_t* sb,
                 const uint64_t* c, uint64_t* d) {
  const unsigned k = cls.k, per = k / blocks;
  const int ma = format_of(cls.a).man_bits, mb = format_of(cls.b).man_bits;
  if (!narrow(cls.a) || !narrow(cls.b) || (cls.c != Type::F32 && cls.c != Type::F16) || cls.c_scale ||
      k > kMaxK || k % blocks || cols % 8 || fraction_bits > kHmmaFractionBits || fraction_bits < ma + mb)
    return false;
  const unsigned shift = static_cast<unsigned>(fraction_bits - ma - mb);  // S: terms stay below 2^27
  auto has_nan = [](const uint8_t* f, size_t n) { return f && std::find(f, f + n, uint8_t{0xff}) != f + n; };  // ue8m0
  if (has_nan(sa, size_t{rows} * blocks) || has_nan(sb, size_t{cols} * blocks)) return false;
  auto exponent = [&](const uint8_t* f, size_t at) { return f ? static_cast<int32_t>(f[at]) - 127 : 0; };
  thread_local TileOperands t;
  t.resize(rows, cols, k);
  if (!decode_narrow(cls, cls.a, a, size_t{rows} * k, 1, 0,
                     [&](size_t i) { return exponent(sa, i / k * blocks + i % k / per); }, t.as.data(),
                     t.an.data(), t.ag.data()) ||
      !decode_narrow(cls, cls.b, b, size_t{k} * cols, 1, shift,
                     [&](size_t i) { return exponent(sb, i % cols * blocks + i / cols / per); }, t.bs.data(),
                     t.bn.data(), t.bg.data()))
    return false;
  auto sums16 = [&](TileOperands& u) { tile_sums<16, true>(u, rows, cols, k); };
  auto sums8 = [&](TileOperands& u) { tile_sums<8, true>(u, rows, cols, k); };
  const bool wide = cols % 16 == 0;
  if (cls.c == Type::F32) {
    if (wide) tile_from_operands<numeric::kF32, 16, true>(cls, fraction_bits, precision, t, rows, cols, c, d, sums16);
    else tile_from_operands<numeric::kF32, 8, true>(cls, fraction_bits, precision, t, rows, cols, c, d, sums8);
  } else {
    if (wide) tile_from_operands<numeric::kF16, 16, true>(cls, fraction_bits, precision, t, rows, cols, c, d, sums16);
    else tile_from_operands<numeric::kF16, 8, true>(cls, fraction_bits, precision, t, rows, cols, c, d, sums8);
  }
  return true;
}

// fp4_tile's sums, L columns at a time: per k-block of per (16 or more) products, 16 at a time,
// the e2m1 products summed exactly as integers (av, bv: twice each element, so a product is in
// quarters), times the scale pair's significands (sm, sn: row i's and column j's, per block) at
// their exponents' sum (em, en), form one term of nominal exponent msb + exponent.
template <unsigned L>
[[gnu::always_inline]] inline void fp4_sums(TileOperands& t, unsigned rows, unsigned cols, unsigned k, unsigned blocks,
                                            const int32_t* av, const int32_t* bv, const int32_t* sm,
                                            const int32_t* em, const int32_t* sn, const int32_t* en) {
  PTXVM_LANE_TYPES(L);
  using F32s = typename Lanes<L>::F32;
  const unsigned per = k / blocks, terms = k / kSm100Fp4Block;
  I32s mag[kMaxK / kSm100Fp4Block], nom[kMaxK / kSm100Fp4Block], msb[kMaxK / kSm100Fp4Block],
      neg[kMaxK / kSm100Fp4Block];
  for (unsigned j0 = 0; j0 < cols; j0 += L)
    for (unsigned i = 0; i < rows; ++i) {
      I32s e, bvec;
      std::memcpy(&e, &t.emax[size_t{i} * cols + j0], sizeof e);
      for (unsigned u = 0; u < terms; ++u) {
        I32s sum = {};
        for (unsigned kk = u * kSm100Fp4Block; kk < (u + 1) * kSm100Fp4Block; ++kk) {
          std::memcpy(&bvec, &bv[size_t{kk} * cols + j0], sizeof bvec);
          sum += av[size_t{i} * k + kk] * bvec;
        }
        const unsigned block = u * kSm100Fp4Block / per;
        I32s s_sig, s_exp;
        std::memcpy(&s_sig, &sn[size_t{block} * cols + j0], sizeof s_sig);
        std::memcpy(&s_exp, &en[size_t{block} * cols + j0], sizeof s_exp);
        neg[u] = sum >> 31;
        mag[u] = ((sum ^ neg[u]) - neg[u]) * (s_sig * sm[size_t{i} * blocks + block]);  // below 2^20
        const F32s f = __builtin_convertvector(mag[u], F32s);  // exact: the leading bit is the exponent
        msb[u] = (reinterpret_cast<I32s>(f) >> 23) - 127;
        nom[u] = mag[u] != 0 ? msb[u] + s_exp + em[size_t{i} * blocks + block] - 2 : kZeroNominal;
        e = nom[u] > e ? nom[u] : e;
      }
      I32s s = {};
      for (unsigned u = 0; u < terms; ++u) {  // (mag << (25 - msb)) >> (e - nom): truncated at e - 25
        U32s v = reinterpret_cast<U32s>(mag[u]) << reinterpret_cast<U32s>(mag[u] != 0 ? kHmmaFractionBits - msb[u] : 0);
        shift_right<L>(v, e - nom[u]);
        s += (reinterpret_cast<I32s>(v) ^ neg[u]) - neg[u];
      }
      std::memcpy(&t.emax[size_t{i} * cols + j0], &e, sizeof e);
      std::memcpy(&t.sum[size_t{i} * cols + j0], &s, sizeof s);
    }
}

// tcgen05's .kind::mxf4 and .kind::mxf4nvf4 on the tile path (sm100_scaled's arithmetic for
// blocks of kSm100Fp4Block e2m1 products): sa[i * blocks + u] and sb[j * blocks + u] the factors
// of row i and column j for k-block u. False, computing nothing, for shapes or C types the path
// lacks and tiles with a NaN factor.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
bool fp4_tile(const FloatClass& cls, Type scale, unsigned rows, unsigned cols, unsigned blocks, const uint64_t* a,
              const uint64_t* b, const uint8_t* sa, const uint8_t* sb, const uint64_t* c, uint64_t* d) {
  const unsigned k = cls.k;
  if (cls.a != Type::E2M1 || cls.b != Type::E2M1 || cls.c != Type::F32 || cls.c_scale || k > kMaxK ||
      k % kSm100Fp4Block || k % blocks || (k / blocks) % kSm100Fp4Block || cols % 8)
    return false;
  // Twice an e2m1 value (0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives): an integer.
  static constexpr int32_t kTwice[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};
  thread_local std::vector<int32_t> av, bv, sm, em, sn, en;
  av.resize(size_t{rows} * k), bv.resize(size_t{k} * cols);
  sm.resize(size_t{rows} * blocks), em.resize(sm.size()), sn.resize(size_t{blocks} * cols), en.resize(sn.size());
  for (size_t x = 0; x < av.size(); ++x) av[x] = kTwice[a[x] & 15];
  for (size_t x = 0; x < bv.size(); ++x) bv[x] = kTwice[b[x] & 15];
  const uint64_t scale_mask = scale == Type::UE4M3 ? 0x7f : 0xff;  // ue4m3: its low 7 bits
  auto factor = [&](uint8_t bits, int32_t& sig, int32_t& exp) {
    const Term f = decode(scale, bits & scale_mask);
    if (f.cls == Class::NaN) return false;
    sig = f.cls == Class::Zero ? 0 : static_cast<int32_t>(f.sig), exp = f.exp;  // a zero factor: no term
    return true;
  };
  for (size_t x = 0; x < sm.size(); ++x)
    if (!factor(sa[x], sm[x], em[x])) return false;
  for (unsigned j = 0; j < cols; ++j)  // sn, en: per block, the columns contiguous
    for (unsigned u = 0; u < blocks; ++u)
      if (!factor(sb[size_t{j} * blocks + u], sn[size_t{u} * cols + j], en[size_t{u} * cols + j])) return false;
  thread_local TileOperands t;
  t.resize(rows, cols, k);
  if (cols % 16 == 0)
    tile_from_operands<numeric::kF32, 16, false>(cls, kHmmaFractionBits, 0, t, rows, cols, c, d, [&](TileOperands& u) {
      fp4_sums<16>(u, rows, cols, k, blocks, av.data(), bv.data(), sm.data(), em.data(), sn.data(), en.data());
    });
  else
    tile_from_operands<numeric::kF32, 8, false>(cls, kHmmaFractionBits, 0, t, rows, cols, c, d, [&](TileOperands& u) {
      fp4_sums<8>(u, rows, cols, k, blocks, av.data(), bv.data(), sm.data(), em.data(), sn.data(), en.data());
    });
  return true;
}

// D = A·B + C for a whole tile (as gemm lays it out) as hmma_block computes each element. Returns
// false, computing nothing, for K past the int32 bound above, rows of B or A not a whole number of
// vectors, or when A or B holds an Inf or NaN.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)  // a build for AVX2 or newer needs no clones
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
bool hmma_tile(const FloatClass& cls, unsigned rows, unsigned cols, const uint64_t* a, const uint64_t* b,
               const uint64_t* c, uint64_t* d) {
  if (cls.b != cls.a) return false;
  switch (cls.a) {
  case Type::F16: return hmma_tile_c<numeric::kF16>(cls, rows, cols, a, b, c, d);
  case Type::BF16: return hmma_tile_c<numeric::kBF16>(cls, rows, cols, a, b, c, d);
  case Type::TF32: return hmma_tile_c<numeric::kTF32>(cls, rows, cols, a, b, c, d);
  default: return false;
  }
}

}  // namespace

uint64_t dot(Model m, const FloatClass& cls, const uint64_t* a, const uint64_t* b, uint64_t c) {
  if (m == Model::Exact || cls.f8f6f4) return exact_float(cls, a, b, c);
  if (cls.d == Type::F64) return fma_chain_f64(cls, a, b, c);
  return sm90_float(cls, a, b, c);
}

uint64_t dot_scaled(Model m, const FloatClass& cls, Type scale, const uint64_t* a, const uint64_t* b,
                    const uint8_t* sa, const uint8_t* sb, uint64_t c) {
  if (m == Model::Sm90 && cls.tcgen05) return sm100_scaled(cls, scale, a, b, sa, sb, c);
  return exact_sum_of(cls, [&](unsigned k) {
    return std::pair{scaled(decode(cls.a, a[k]), decode(scale, sa[k])),
                     scaled(decode(cls.b, b[k]), decode(scale, sb[k]))};
  }, c);
}

void gemm_scaled(Model m, const FloatClass& cls, Type scale, unsigned rows, unsigned cols, unsigned blocks,
                 const uint64_t* a, const uint64_t* b, const uint8_t* sa, const uint8_t* sb, const uint64_t* c,
                 uint64_t* d) {
  if (m == Model::Sm90 && cls.tcgen05 &&
      ((!cls.mxf4 && scale == Type::UE8M0 &&
        narrow_tile(cls, kHmmaFractionBits, 0, rows, cols, blocks, a, b, sa, sb, c, d)) ||
       (cls.mxf4 && fp4_tile(cls, scale, rows, cols, blocks, a, b, sa, sb, c, d))))
    return;
  const unsigned k = cls.k, per = k / blocks;
  thread_local std::vector<uint64_t> col;
  thread_local std::vector<uint8_t> fa, fb;
  col.resize(k), fa.resize(k), fb.resize(k);
  for (unsigned j = 0; j < cols; ++j) {
    for (unsigned kk = 0; kk < k; ++kk) col[kk] = b[size_t{kk} * cols + j], fb[kk] = sb[size_t{j} * blocks + kk / per];
    for (unsigned i = 0; i < rows; ++i) {
      for (unsigned kk = 0; kk < k; ++kk) fa[kk] = sa[size_t{i} * blocks + kk / per];
      d[size_t{i} * cols + j] =
          dot_scaled(m, cls, scale, a + size_t{i} * k, col.data(), fa.data(), fb.data(), c[size_t{i} * cols + j]);
    }
  }
}

namespace {
void sm90_gemm(const FloatClass& cls, const Recipe& rc, unsigned rows, unsigned cols, const uint64_t* a,
               const uint64_t* b, const uint64_t* c, uint64_t* d);
}  // namespace

void gemm(Model m, const FloatClass& cls, unsigned rows, unsigned cols, const uint64_t* a,
          const uint64_t* b, const uint64_t* c, uint64_t* d) {
  const unsigned k = cls.k;
  if (m == Model::Exact || cls.f8f6f4 || cls.d == Type::F64 || k > kMaxK) {
    thread_local std::vector<uint64_t> col;  // column j of B, contiguous for dot()
    col.resize(k);
    for (unsigned j = 0; j < cols; ++j) {
      for (unsigned kk = 0; kk < k; ++kk) col[kk] = b[size_t{kk} * cols + j];
      for (unsigned i = 0; i < rows; ++i) d[i * cols + j] = dot(m, cls, a + size_t{i} * k, col.data(), c[i * cols + j]);
    }
    return;
  }
  const Recipe rc = recipe(cls);
  if (rc.path == Path::Hmma && rc.block == k && (cls.tcgen05 || cls.wgmma) &&
      narrow_tile(cls, rc.fraction_bits, rc.precision, rows, cols, 1, a, b, nullptr, nullptr, c, d))
    return;
  if (rc.path != Path::Hmma || rc.block != k || k > kTileMaxK || cls.c_scale) return sm90_gemm(cls, rc, rows, cols, a, b, c, d);
  // One HMMA block per element: the vector tile path, or the element path when the tile holds an
  // Inf or NaN in A or B.
  if (!hmma_tile(cls, rows, cols, a, b, c, d)) sm90_gemm(cls, rc, rows, cols, a, b, c, d);
}

namespace {

// The Sm90 element path over a tile: each element of A and B decoded once.
void sm90_gemm(const FloatClass& cls, const Recipe& rc, unsigned rows, unsigned cols, const uint64_t* a,
               const uint64_t* b, const uint64_t* c, uint64_t* d) {
  const unsigned k = cls.k;
  thread_local std::vector<Term> at, bt;
  at.resize(size_t{rows} * k);
  bt.resize(size_t{cols} * k);
  const int emin_a = hmma_input_emin(cls, cls.a), emin_b = hmma_input_emin(cls, cls.b);
  for (size_t i = 0; i < at.size(); ++i) at[i] = decode_for_hmma(cls.a, a[i], emin_a);
  for (unsigned kk = 0; kk < k; ++kk)  // bt: column-major, each column's k terms contiguous
    for (unsigned j = 0; j < cols; ++j) bt[size_t{j} * k + kk] = decode_for_hmma(cls.b, b[size_t{kk} * cols + j], emin_b);
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned j = 0; j < cols; ++j)
      d[i * cols + j] = sm90_dot(cls, rc, &at[size_t{i} * k], &bt[size_t{j} * k],
                                 decode_c(cls, c[i * cols + j]));
}

}  // namespace

int32_t dot_int(Type a, Type b, unsigned k, const uint64_t* av, const uint64_t* bv, int32_t c,
                bool satfinite) {
  auto value = [](Type t, uint64_t bits) -> int64_t {
    switch (t) {
    case Type::S8: return static_cast<int8_t>(bits);
    case Type::U8: return static_cast<uint8_t>(bits);
    case Type::S4: return static_cast<int64_t>(bits & 7) - static_cast<int64_t>(bits & 8);
    default: return static_cast<int64_t>(bits & 15);  // U4
    }
  };
  int64_t sum = c;  // |sum| < 2^31 + 256 * 2^16: no overflow in 64 bits
  for (unsigned i = 0; i < k; ++i) sum += value(a, av[i]) * value(b, bv[i]);
  if (satfinite) return static_cast<int32_t>(std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX));
  return static_cast<int32_t>(static_cast<uint32_t>(sum));
}

int32_t dot_b1(bool xor_op, unsigned k, const uint32_t* a, const uint32_t* b, int32_t c) {
  uint32_t count = 0;
  for (unsigned w = 0; w < k / 32; ++w) count += std::popcount(xor_op ? a[w] ^ b[w] : a[w] & b[w]);
  return static_cast<int32_t>(static_cast<uint32_t>(c) + count);
}

}  // namespace ptxvm::mma
