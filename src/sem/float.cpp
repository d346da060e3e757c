// Floating-point arithmetic, PTX §9.7.3 (001_23fdd5978b24a3ed.txt). Round-to-nearest-even is
// the host's own IEEE arithmetic; .ftz flushes subnormal inputs and results to sign-preserving
// zero (f32 only); .sat clamps to [0, 1] with NaN giving +0; NaN results are the canonical NaN.
#include <bit>
#include <cmath>

#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using lower::Op;

// op.aux flags
constexpr uint64_t kFtz = 1, kSat = 2;

template <typename T>
T canonical_nan() {
  if constexpr (sizeof(T) == 4) return std::bit_cast<float>(0x7fffffffu);
  else return std::bit_cast<double>(0x7fffffffffffffffull);
}

template <typename T>
T in(T x, uint64_t flags) {
  if constexpr (sizeof(T) == 4)
    if ((flags & kFtz) && std::fpclassify(x) == FP_SUBNORMAL) return std::copysign(T(0), x);
  return x;
}

template <typename T>
T out(T x, uint64_t flags) {
  if (std::isnan(x)) return (flags & kSat) ? T(0) : canonical_nan<T>();
  x = in(x, flags);
  if (flags & kSat) x = x <= T(0) ? T(0) : x > T(1) ? T(1) : x;  // -0 becomes +0
  return x;
}

template <typename T, typename F>
void apply2(Warp& w, const Op& op, uint32_t m, F f) {
  for_lanes(m, [&](int l) {
    T a = in(w.get<T>(op.args[1], l), op.aux), b = in(w.get<T>(op.args[2], l), op.aux);
    w.set<T>(op.args[0], l, out(f(a, b), op.aux));
  });
}

template <typename T>
void add(Warp& w, const Op& op, uint32_t m) { apply2<T>(w, op, m, [](T a, T b) { return a + b; }); }
template <typename T>
void sub(Warp& w, const Op& op, uint32_t m) { apply2<T>(w, op, m, [](T a, T b) { return a - b; }); }
template <typename T>
void mul(Warp& w, const Op& op, uint32_t m) { apply2<T>(w, op, m, [](T a, T b) { return a * b; }); }
template <typename T>
void div(Warp& w, const Op& op, uint32_t m) { apply2<T>(w, op, m, [](T a, T b) { return a / b; }); }

// fma/mad.rn: one rounding of a*b+c (§9.7.3.6).
template <typename T>
void fma(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    T a = in(w.get<T>(op.args[1], l), op.aux), b = in(w.get<T>(op.args[2], l), op.aux),
      c = in(w.get<T>(op.args[3], l), op.aux);
    w.set<T>(op.args[0], l, out(std::fma(a, b, c), op.aux));
  });
}

template <typename T>
void sqrt(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) { w.set<T>(op.args[0], l, out(std::sqrt(in(w.get<T>(op.args[1], l), op.aux)), op.aux)); });
}

// neg and abs change only the sign bit, also of NaNs (§9.7.3.9, §9.7.3.10).
template <typename T, bool kAbs>
void sign_op(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    T a = in(w.get<T>(op.args[1], l), op.aux);
    w.set<T>(op.args[0], l, kAbs ? std::fabs(a) : -a);
  });
}

// min/max: a NaN operand yields the other; both NaN give the canonical NaN (§9.7.3.11).
template <typename T, bool kMax>
void minmax(Warp& w, const Op& op, uint32_t m) {
  apply2<T>(w, op, m, [](T a, T b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return kMax ? (std::signbit(a) ? b : a) : (std::signbit(a) ? a : b);  // -0 < +0
    return kMax ? std::max(a, b) : std::min(a, b);
  });
}

uint64_t flags(const isa::Bound& b) { return (b.value("ftz") ? kFtz : 0) | (b.value("sat") ? kSat : 0); }

// The rounding qualifier must be absent or .rn: the directed modes come with the numeric
// library's exact arithmetic (not yet wired here).
bool round_nearest(const isa::Bound& b, std::string& why, const char* axis_name = "rnd") {
  std::string r = axis(b, axis_name);
  if (r.empty() || r == ".rn") return true;
  return unsupported(why, "rounding " + r);
}

template <lower::Handler F32, lower::Handler F64>
bool pick(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  op.aux = flags(b);
  if (t == ".f32") op.fn = F32;
  else if (t == ".f64") op.fn = F64;
  return op.fn || unsupported(why, t);
}

template <lower::Handler F32, lower::Handler F64>
bool arith(const isa::Bound& b, Op& op, std::string& why) {
  return round_nearest(b, why) && pick<F32, F64>(b, op, why);
}

bool select_div(const isa::Bound& b, Op& op, std::string& why) {
  std::string mode = axis(b, "mode");
  if (mode != ".rn") return unsupported(why, "div" + mode);
  return pick<&div<float>, &div<double>>(b, op, why);
}
bool select_sqrt(const isa::Bound& b, Op& op, std::string& why) {
  std::string mode = axis(b, "mode");
  if (mode != ".rn") return unsupported(why, "sqrt" + mode);
  return pick<&sqrt<float>, &sqrt<double>>(b, op, why);
}
template <bool kMax>
bool select_minmax(const isa::Bound& b, Op& op, std::string& why) {
  if (b.value("nan") || b.value("xorsign") || b.value("abs")) return unsupported(why, ".NaN/.xorsign/.abs");
  return pick<&minmax<float, kMax>, &minmax<double, kMax>>(b, op, why);
}

}  // namespace

void register_float(Registry& r) {
  r["add §9.7.3.3"] = arith<&add<float>, &add<double>>;
  r["sub §9.7.3.4"] = arith<&sub<float>, &sub<double>>;
  r["mul §9.7.3.5"] = arith<&mul<float>, &mul<double>>;
  r["fma §9.7.3.6"] = arith<&fma<float>, &fma<double>>;
  r["mad §9.7.3.7"] = arith<&fma<float>, &fma<double>>;
  r["div §9.7.3.8"] = select_div;
  r["abs §9.7.3.9"] = pick<&sign_op<float, true>, &sign_op<double, true>>;
  r["neg §9.7.3.10"] = pick<&sign_op<float, false>, &sign_op<double, false>>;
  r["min §9.7.3.11"] = select_minmax<false>;
  r["max §9.7.3.12"] = select_minmax<true>;
  r["sqrt §9.7.3.15"] = select_sqrt;
}

}  // namespace ptxvm::sem
