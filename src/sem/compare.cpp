// Comparison and selection, PTX §9.7.6 (001_23fdd5978b24a3ed.txt).
#include <cmath>
#include <optional>

#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using lower::Op;

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };

std::optional<Cmp> cmp_of(const std::string& s) {
  static const char* kNames[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi",
                                 ".hs", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"};
  for (int i = 0; i < 18; ++i)
    if (s == kNames[i]) return static_cast<Cmp>(i);
  return std::nullopt;
}

// §9.7.6.1 Tables: ordered float comparisons are false with a NaN, the `u` forms true.
template <typename T>
bool compare(Cmp c, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool unordered = std::isnan(a) || std::isnan(b);
    switch (c) {
    case Cmp::Eq: return !unordered && a == b;
    case Cmp::Ne: return !unordered && a != b;
    case Cmp::Lt: return !unordered && a < b;
    case Cmp::Le: return !unordered && a <= b;
    case Cmp::Gt: return !unordered && a > b;
    case Cmp::Ge: return !unordered && a >= b;
    case Cmp::Equ: return unordered || a == b;
    case Cmp::Neu: return unordered || a != b;
    case Cmp::Ltu: return unordered || a < b;
    case Cmp::Leu: return unordered || a <= b;
    case Cmp::Gtu: return unordered || a > b;
    case Cmp::Geu: return unordered || a >= b;
    case Cmp::Num: return !unordered;
    case Cmp::Nan: return unordered;
    default: return false;
    }
  } else {
    using U = std::make_unsigned_t<T>;
    switch (c) {
    case Cmp::Eq: return a == b;
    case Cmp::Ne: return a != b;
    case Cmp::Lt: return a < b;
    case Cmp::Le: return a <= b;
    case Cmp::Gt: return a > b;
    case Cmp::Ge: return a >= b;
    case Cmp::Lo: return U(a) < U(b);
    case Cmp::Ls: return U(a) <= U(b);
    case Cmp::Hi: return U(a) > U(b);
    case Cmp::Hs: return U(a) >= U(b);
    default: return false;
    }
  }
}

float flush(float x, bool ftz) { return ftz && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// setp.CmpOp[.BoolOp].type p[|q], a, b[, c] (§9.7.6.2); op.aux: Cmp, aux2: BoolOp+1 or 0, ftz.
template <typename T>
struct Setp {
  static void run(Warp& w, const Op& op, uint32_t m) {
    Cmp c = static_cast<Cmp>(op.aux);
    int boolop = static_cast<int>(op.aux2 & 3);
    bool ftz = op.aux2 & 4;
    const lower::Arg& dst = op.args[0];
    bool pair = dst.kind == lower::ArgKind::Vector;
    for_lanes(m, [&](int l) {
      T a = w.get<T>(op.args[1], l), b = w.get<T>(op.args[2], l);
      if constexpr (std::is_same_v<T, float>) a = flush(a, ftz), b = flush(b, ftz);
      bool t = compare(c, a, b);
      bool f = !t;
      if (boolop) {
        bool cp = w.pred(op.args[3], l);
        auto apply = [&](bool x) { return boolop == 1 ? (x && cp) : boolop == 2 ? (x || cp) : (x != cp); };
        t = apply(t), f = apply(f);
      }
      if (pair) {
        w.set_pred(dst.elems[0], l, t);
        w.set_pred(dst.elems[1], l, f);
      } else {
        w.set_pred(dst, l, t);
      }
    });
  }
};

template <typename T>
struct Selp {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) {
      w.set<T>(op.args[0], l, w.pred(op.args[3], l) ? w.get<T>(op.args[1], l) : w.get<T>(op.args[2], l));
    });
  }
};

bool select_setp(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type"), bo = axis(b, "boolop");
  auto c = cmp_of(axis(b, "cmp"));
  if (!c) return unsupported(why, axis(b, "cmp"));
  op.aux = static_cast<uint64_t>(*c);
  op.aux2 = (bo == ".and" ? 1 : bo == ".or" ? 2 : bo == ".xor" ? 3 : 0) | (b.value("ftz") ? 4 : 0);
  if (t == ".f32") op.fn = &Setp<float>::run;
  else if (t == ".f64") op.fn = &Setp<double>::run;
  else op.fn = by_int_type<Setp>(t);
  return op.fn || unsupported(why, t);
}

bool select_selp(const isa::Bound& b, Op& op, std::string& why) {
  op.fn = by_bits<Selp>(axis(b, "type"));
  return op.fn || unsupported(why, axis(b, "type"));
}

}  // namespace

void register_compare(Registry& r) {
  r["setp §9.7.6.2"] = select_setp;
  r["selp §9.7.6.3"] = select_selp;
}

}  // namespace ptxvm::sem
