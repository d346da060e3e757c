// Half-precision (PTX §9.7.4) and mixed-precision (§9.7.5) arithmetic, 001_23fdd5978b24a3ed.txt.
// .f16/.bf16 live in the low 16 bits of a register, .f16x2/.bf16x2 pack element 0 in bits
// 0-15 and element 1 in bits 16-31; each element is computed independently. Arithmetic is
// numeric::arith (numeric/ieee_arith.h): one rounding of the exact result.
#include <bit>
#include <cmath>
#include <string>

#include "exec/warp.h"
#include "numeric/compare.h"
#include "numeric/cvt_float.h"
#include "numeric/ftz.h"
#include "numeric/ieee_arith.h"
#include "numeric/minmax.h"
#include "numeric/modifiers.h"
#include "numeric/sfu.h"
#include "sem/dispatch.h"
#include "sem/fused.h"
#include "program/registry.h"

namespace ptxvm::sem {

namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;
using numeric::Format;
using numeric::kBF16;
using numeric::kF16;
using numeric::kF32;

using numeric::ArithOp;
using numeric::kFtz;
using numeric::kNan;
using numeric::kRelu;
using numeric::kSat;
using numeric::kXorsignAbs;

// fma.oob (§9.7.4.4) gives +0 when an operand is the "OOB-NaN" of tensor copies, whose
// encoding the ISA does not give. On sm_90 (tests/hw/float, every 16-bit pattern tried in each
// position) it is 0x7ff7 with either sign, for f16 and bf16, and only in a or b: c = 0x7ff7
// gives the canonical NaN like any NaN.
constexpr uint64_t kOob = 256;  // half.cpp's own flag bit (beyond numeric/modifiers.h's)
bool oob_nan(uint64_t v) { return (v & 0x7fff) == 0x7ff7; }

template <const Format& F, ArithOp K, int Lanes>
void arith(Warp& w, const Op& op, uint32_t mask) {
  const int n = static_cast<int>(op.args.size()) - 1;
  const uint64_t flags = op.aux & ~kOob;
  const bool oob = op.aux & kOob;
  for_lanes(mask, [&](int l) {
    uint64_t v[3] = {0, 0, 0};
    for (int i = 0; i < n && i < 3; ++i) v[i] = w.get<uint64_t>(op.args[1 + i], l);
    uint64_t d = 0;
    for (int e = 0; e < Lanes; ++e) {
      const unsigned s = 16 * e;
      const uint64_t a = v[0] >> s & 0xffff, b = v[1] >> s & 0xffff, c = v[2] >> s & 0xffff;
      if (!(oob && (oob_nan(a) || oob_nan(b)))) d |= numeric::arith(F, K, a, b, c, flags) << s;
    }
    w.set<uint64_t>(op.args[0], l, d);
  });
}

// Applies `f` to each 16-bit element of operand 1 (Lanes of them) and packs the results.
template <int Lanes, typename Fn>
void each_element(Warp& w, const Op& op, uint32_t mask, Fn f) {
  for_lanes(mask, [&](int l) {
    const uint64_t v = w.get<uint64_t>(op.args[1], l);
    uint64_t d = 0;
    for (int e = 0; e < Lanes; ++e) d |= f(v >> (16 * e) & 0xffff) << (16 * e);
    w.set<uint64_t>(op.args[0], l, d);
  });
}

// neg/abs (§9.7.4.5-6): the sign bit of each element; .ftz flushes a subnormal first. A NaN
// element gives the canonical NaN (as for f32 on sm_90).
template <const Format& F, bool kAbs, int Lanes>
void sign_op(Warp& w, const Op& op, uint32_t mask) {
  const bool ftz = op.aux & kFtz;
  each_element<Lanes>(w, op, mask, [&](uint64_t x) -> uint64_t {
    const uint64_t a = numeric::flush_input(F, x, ftz);
    return numeric::is_nan(F, a) ? F.nan_bits : kAbs ? a & 0x7fff : a ^ 0x8000;
  });
}

template <const Format& F, bool kMax, int Lanes>
void minmax(Warp& w, const Op& op, uint32_t mask) {
  for_lanes(mask, [&](int l) {
    const uint64_t a = w.get<uint64_t>(op.args[1], l), b = w.get<uint64_t>(op.args[2], l);
    uint64_t d = 0;
    for (int e = 0; e < Lanes; ++e) {
      const unsigned s = 16 * e;
      d |= numeric::minmax(F, kMax, a >> s & 0xffff, b >> s & 0xffff, op.aux) << s;
    }
    w.set<uint64_t>(op.args[0], l, d);
  });
}

// tanh.approx and ex2.approx (§9.7.4.9-10) of each element (ISA bounds: tanh absolute error
// 2^-10.987 for f16, 2^-8 for bf16; ex2 relative error 2^-9.9 and 2^-7); ex2.approx.ftz.bf16
// flushes subnormal inputs and results.
template <const Format& F, bool kEx2, int Lanes>
void approx(Warp& w, const Op& op, uint32_t mask) {
  const bool ftz = op.aux & kFtz;
  each_element<Lanes>(w, op, mask, [&](uint64_t element) -> uint64_t {
    const uint64_t a = numeric::flush_input(F, element, ftz);
    const double x = std::bit_cast<double>(numeric::cvt_float(numeric::kF64, F, a, {}));
    // The function in f32 by the special-function unit (bit for bit), then truncated to the
    // element format, a magnitude beyond the largest finite one giving Inf (sm_90: ex2.approx.f16
    // of 16 is Inf; every recorded result matches, tests/hw/float).
    const uint32_t xf = std::bit_cast<uint32_t>(static_cast<float>(x));
    const float y = std::isnan(x) ? static_cast<float>(x)  // the special-function unit (numeric/sfu.h)
                    : kEx2 ? (std::isfinite(x) ? std::bit_cast<float>(numeric::sfu_ex2(xf)) : static_cast<float>(std::exp2(x)))
                           : std::bit_cast<float>(numeric::sfu_tanh(xf));
    numeric::FloatMods m;
    m.round = numeric::Round::RZ;
    uint64_t r = std::isnan(y) ? F.nan_bits : numeric::cvt_float(F, kF32, std::bit_cast<uint32_t>(y), m);
    const uint64_t max_bits = numeric::cvt_float(kF32, F, F.max_code(), {});
    if (std::fabs(y) > std::bit_cast<float>(static_cast<uint32_t>(max_bits))) r = (r & F.sign_bit()) | (F.max_code() + 1);
    return numeric::flush_input(F, r, ftz);
  });
}

// Mixed precision (§9.7.5): add/sub{.rnd}{.sat}.f32.{f16,bf16} d, a, c and
// fma{.rnd}{.sat}.f32.{f16,bf16} d, a, b, c: the half operands widen exactly to f32, then one
// f32 operation rounds once.
template <const Format& A, ArithOp K>
void mixed(Warp& w, const Op& op, uint32_t mask) {
  for_lanes(mask, [&](int l) {
    auto widen = [&](int i) { return numeric::cvt_float(kF32, A, w.get<uint64_t>(op.args[i], l) & 0xffff, {}); };
    uint64_t d;
    if (K == ArithOp::Fma) d = numeric::arith(kF32, K, widen(1), widen(2), w.get<uint32_t>(op.args[3], l), op.aux);
    else d = numeric::arith(kF32, K, widen(1), w.get<uint32_t>(op.args[2], l), 0, op.aux);
    w.set<uint32_t>(op.args[0], l, static_cast<uint32_t>(d));
  });
}

// ---- selectors ----------------------------------------------------------------------------

uint64_t flag_bits(const isa::Bound& b) {
  return (b.value("ftz") ? kFtz : 0) | (b.value("sat") ? kSat : 0) | (b.value("nan") ? kNan : 0) |
         (b.value("xorsign") ? kXorsignAbs : 0) | (b.value("relu") ? kRelu : 0) | (b.value("oob") ? kOob : 0);
}

// H<format, lanes> for the four half types.
template <template <const Format&, int> class H>
program::Handler by_half_type(const std::string& t) {
  if (t == ".f16") return &H<kF16, 1>::run;
  if (t == ".f16x2") return &H<kF16, 2>::run;
  if (t == ".bf16") return &H<kBF16, 1>::run;
  if (t == ".bf16x2") return &H<kBF16, 2>::run;
  return nullptr;
}

template <ArithOp K>
struct Arith {
  template <const Format& F, int N>
  struct H {
    static void run(Warp& w, const Op& op, uint32_t m) { arith<F, K, N>(w, op, m); }
  };
};
template <bool kAbs>
struct Sign {
  template <const Format& F, int N>
  struct H {
    static void run(Warp& w, const Op& op, uint32_t m) { sign_op<F, kAbs, N>(w, op, m); }
  };
};
template <bool kMax>
struct MinMax {
  template <const Format& F, int N>
  struct H {
    static void run(Warp& w, const Op& op, uint32_t m) { minmax<F, kMax, N>(w, op, m); }
  };
};
template <bool kEx2>
struct Approx {
  template <const Format& F, int N>
  struct H {
    static void run(Warp& w, const Op& op, uint32_t m) { approx<F, kEx2, N>(w, op, m); }
  };
};

template <template <const Format&, int> class H>
bool pick(const isa::Bound& b, Op& op, std::string& why) {
  const std::string t = axis(b, "type");
  op.aux = flag_bits(b);  // rounding: .rn, the only (and default) mode, is numeric::Round::RN = 0
  if (op.fused != program::Fused::None) return select_fused(t, op, why);  // add, sub (sem/fused.h)
  op.fn = by_half_type<H>(t);
  return op.fn || unsupported(why, t);
}

template <ArithOp K>
bool select_mixed(const isa::Bound& b, Op& op, std::string& why) {
  const std::string r = axis(b, "rnd"), a = axis(b, "atype");
  numeric::Round rnd;
  if (r.empty() || r == ".rn") rnd = numeric::Round::RN;
  else if (r == ".rz") rnd = numeric::Round::RZ;
  else if (r == ".rm") rnd = numeric::Round::RM;
  else if (r == ".rp") rnd = numeric::Round::RP;
  else return unsupported(why, "rounding " + r);
  op.aux = static_cast<uint64_t>(rnd) | (b.value("sat") ? kSat : 0);
  if (a == ".f16") op.fn = &mixed<kF16, K>;
  else if (a == ".bf16") op.fn = &mixed<kBF16, K>;
  return op.fn || unsupported(why, a);
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["add §9.7.4.1"] = pick<Arith<ArithOp::Add>::H>;
  r["sub §9.7.4.2"] = pick<Arith<ArithOp::Sub>::H>;
  r["mul §9.7.4.3"] = pick<Arith<ArithOp::Mul>::H>;
  r["fma §9.7.4.4"] = pick<Arith<ArithOp::Fma>::H>;
  r["neg §9.7.4.5"] = pick<Sign<false>::H>;
  r["abs §9.7.4.6"] = pick<Sign<true>::H>;
  r["min §9.7.4.7"] = pick<MinMax<false>::H>;
  r["max §9.7.4.8"] = pick<MinMax<true>::H>;
  r["tanh §9.7.4.9"] = pick<Approx<false>::H>;
  r["ex2 §9.7.4.10"] = pick<Approx<true>::H>;
  r["add §9.7.5.1"] = select_mixed<ArithOp::Add>;
  r["sub §9.7.5.2"] = select_mixed<ArithOp::Sub>;
  r["fma §9.7.5.3"] = select_mixed<ArithOp::Fma>;
});

}  // namespace ptxvm::sem
