// Comparison and selection, PTX §9.7.6, and half-precision comparison, §9.7.7
// (001_23fdd5978b24a3ed.txt).
#include <array>
#include <bit>
#include <optional>
#include <type_traits>
#include <utility>

#include "exec/warp.h"
#include "numeric/compare.h"
#include "numeric/format.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;

// The floating-point operators first, in numeric::Cmp's order; .lo .ls .hi .hs are unsigned.
enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan, Lo, Ls, Hi, Hs };

std::optional<Cmp> cmp_of(const std::string& s) {
  static const char* kNames[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".equ", ".neu", ".ltu",
                                 ".leu", ".gtu", ".geu", ".num", ".nan", ".lo", ".ls", ".hi", ".hs"};
  for (int i = 0; i < 18; ++i)
    if (s == kNames[i]) return static_cast<Cmp>(i);
  return std::nullopt;
}

// Two values of f by the IEEE rules (numeric/compare.h); the unsigned operators, which the ISA
// rejects for floats (§9.7.6.1), compare false. U: the integer type of f's bits.
template <typename U>
bool compare_float(Cmp c, const numeric::Format& f, U a, U b, bool ftz) {
  return c < Cmp::Lo && numeric::compare(static_cast<numeric::Cmp>(c), f, a, b, ftz);
}

// a c b for setp's types; .ftz (f32 only) compares a subnormal as zero.
template <typename T>
bool compare(Cmp c, T a, T b, bool ftz) {
  if constexpr (std::is_same_v<T, float>) {
    return compare_float(c, numeric::kF32, std::bit_cast<uint32_t>(a), std::bit_cast<uint32_t>(b), ftz);
  } else if constexpr (std::is_same_v<T, double>) {
    return compare_float(c, numeric::kF64, std::bit_cast<uint64_t>(a), std::bit_cast<uint64_t>(b), false);
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

// The comparison of all 32 lanes as a predicate mask; C is a template argument so that the
// loop has no switch and vectorises (no branch per lane: comparisons of data mispredict).
template <typename T, Cmp C>
uint32_t compare_warp(const T (&a)[32], const T (&b)[32], bool ftz) {
  uint32_t bits = 0;
  for (int l = 0; l < 32; ++l) bits |= exec::kLaneBit[l] & -static_cast<uint32_t>(compare(C, a[l], b[l], ftz));
  return bits;
}
template <typename T, size_t... I>
constexpr auto compare_warp_table(std::index_sequence<I...>) {
  return std::array{&compare_warp<T, static_cast<Cmp>(I)>...};
}

// setp.CmpOp[.BoolOp].type p[|q], a, b[, c] (§9.7.6.2); op.aux: Cmp, aux2: BoolOp+1 or 0, ftz.
template <typename T>
struct Setp {
  static void run(Warp& w, const Op& op, uint32_t m) {
    Cmp c = static_cast<Cmp>(op.aux);
    int boolop = static_cast<int>(op.aux2 & 3);
    bool ftz = op.aux2 & 4;
    const program::Arg& dst = op.args[0];
    bool pair = dst.kind == program::ArgKind::Vector;
    uint32_t t = 0;  // the comparison's result per lane of `m`
    if (exec::plain(op.args[1]) && exec::plain(op.args[2])) {
      // Registers and immediates: every lane compared at once (comparisons cannot fault, so
      // lanes outside `m` may be computed; only those of `m` are written).
      static constexpr auto kWarp = compare_warp_table<T>(std::make_index_sequence<18>{});
      T a[32], b[32];
      w.gather(op.args[1], a);
      w.gather(op.args[2], b);
      t = kWarp[op.aux](a, b, ftz);
    } else {
      for_lanes(m, [&](int l) {
        if (compare(c, w.get<T>(op.args[1], l), w.get<T>(op.args[2], l), ftz)) t |= exec::kLaneBit[l];
      });
    }
    uint32_t f = ~t;
    if (boolop) {
      uint32_t cp = w.preds[op.args[3].reg];
      if (op.args[3].negated) cp = ~cp;
      auto apply = [&](uint32_t x) { return boolop == 1 ? (x & cp) : boolop == 2 ? (x | cp) : (x ^ cp); };
      t = apply(t), f = apply(f);
    }
    if (pair) {
      w.set_preds(dst.elems[0], m, t);
      w.set_preds(dst.elems[1], m, f);
    } else {
      w.set_preds(dst, m, t);
    }
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

// slct (§9.7.6.4): d = c >= 0 ? a : b, a and b moved as bits. An .f32 c: -0 counts as 0, NaN
// selects b, a subnormal is kept (sm_20+) unless .ftz flushes it to a signed zero, which selects a.
// op.aux: bit 0 an .f32 c, bit 1 .ftz.
template <typename T>
struct Slct {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) {
      bool pick_a;
      if (op.aux & 1) {
        const auto c = w.get<uint32_t>(op.args[3], l);
        const bool subnormal = (c & 0x7f800000u) == 0 && (c & 0x7fffffu);
        pick_a = op.aux & 2 && subnormal ? true : std::bit_cast<float>(c) >= 0.0f;
      } else {
        pick_a = w.get<int32_t>(op.args[3], l) >= 0;
      }
      w.set<T>(op.args[0], l, pick_a ? w.get<T>(op.args[1], l) : w.get<T>(op.args[2], l));
    });
  }
};

bool select_slct(const isa::Bound& b, Op& op, std::string& why) {
  op.fn = by_bits<Slct>(axis(b, "dtype"));
  op.aux = (axis(b, "ctype") == ".f32" ? 1 : 0) | (b.value("ftz") ? 2 : 0);
  return op.fn || unsupported(why, axis(b, "dtype"));
}

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

// ---- set (§9.7.6.1, §9.7.7.1) and setp for half types (§9.7.7.2) ---------------------------
// A source element is compared as bits of its format (numeric/compare.h), .ftz flushing f16/f32
// subnormal inputs, or as a 64-bit integer. op.aux packs the comparison:
// Cmp | boolop << 8 | ftz << 10 | source kind << 16 | source bits << 24 | lanes << 32 |
// result kind << 40.
enum class Src : uint8_t { U, S, F16, BF16, F32, F64 };
enum class Res : uint8_t { Ones, F32, F16, BF16 };  // all-ones integer, or 1.0 of a format

struct CmpSpec {
  Cmp cmp;
  int boolop;
  bool ftz;
  Src src;
  unsigned bits, lanes;
  Res res;
};

CmpSpec spec_of(uint64_t aux) {
  return {static_cast<Cmp>(aux & 0xff), static_cast<int>(aux >> 8 & 3), (aux >> 10 & 1) != 0,
          static_cast<Src>(aux >> 16 & 0xff), static_cast<unsigned>(aux >> 24 & 0xff),
          static_cast<unsigned>(aux >> 32 & 0xff), static_cast<Res>(aux >> 40 & 0xff)};
}

bool compare_element(const CmpSpec& s, uint64_t a, uint64_t b) {
  switch (s.src) {
    case Src::U: return compare<uint64_t>(s.cmp, a, b, false);
    case Src::S: {
      const unsigned sh = 64 - s.bits;
      return compare<int64_t>(s.cmp, static_cast<int64_t>(a << sh) >> sh, static_cast<int64_t>(b << sh) >> sh, false);
    }
    case Src::F16: return compare_float(s.cmp, numeric::kF16, a, b, s.ftz);
    case Src::BF16: return compare_float(s.cmp, numeric::kBF16, a, b, false);  // .ftz: not for .bf16
    case Src::F32: return compare_float(s.cmp, numeric::kF32, a, b, s.ftz);
    case Src::F64: return compare_float(s.cmp, numeric::kF64, a, b, false);
  }
  return false;
}

bool combine(int boolop, bool t, bool c) { return boolop == 1 ? (t && c) : boolop == 2 ? (t || c) : boolop == 3 ? (t != c) : t; }

uint64_t element_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// set: per element, the all-ones pattern or 1.0 of the result format; x2 sources pack 16-bit
// results (0xffff or 1.0) into 32 bits, element 0 low.
void set_op(Warp& w, const Op& op, uint32_t m) {
  const CmpSpec s = spec_of(op.aux);
  const unsigned rbits = s.lanes == 2 ? 16 : static_cast<unsigned>(op.aux2);
  uint64_t one = 0;
  switch (s.res) {
    case Res::Ones: one = element_mask(rbits); break;
    case Res::F32: one = 0x3f800000; break;
    case Res::F16: one = 0x3c00; break;
    case Res::BF16: one = 0x3f80; break;
  }
  for_lanes(m, [&](int l) {
    const uint64_t a = w.get<uint64_t>(op.args[1], l), b = w.get<uint64_t>(op.args[2], l);
    const bool c = s.boolop ? w.pred(op.args[3], l) : false;
    uint64_t d = 0;
    for (unsigned e = 0; e < s.lanes; ++e) {
      const unsigned sh = e * s.bits;
      const uint64_t mask = element_mask(s.bits);
      if (combine(s.boolop, compare_element(s, a >> sh & mask, b >> sh & mask), c)) d |= one << (e * rbits);
    }
    w.set<uint64_t>(op.args[0], l, d);
  });
}

// setp.CmpOp[.BoolOp]{.ftz}.{f16,bf16,f16x2,bf16x2} p[|q], a, b[, c]: x2 writes element 0 to p
// and element 1 to q.
void half_setp(Warp& w, const Op& op, uint32_t m) {
  const CmpSpec s = spec_of(op.aux);
  const program::Arg& dst = op.args[0];
  const bool pair = dst.kind == program::ArgKind::Vector;
  for_lanes(m, [&](int l) {
    const uint64_t a = w.get<uint64_t>(op.args[1], l), b = w.get<uint64_t>(op.args[2], l);
    const bool c = s.boolop ? w.pred(op.args[3], l) : false;
    bool t[2] = {false, false};
    for (unsigned e = 0; e < s.lanes; ++e) t[e] = combine(s.boolop, compare_element(s, a >> (16 * e) & 0xffff, b >> (16 * e) & 0xffff), c);
    if (s.lanes == 1 && pair) {  // p|q with a scalar type: q is the complement (as §9.7.6.2)
      const bool f = combine(s.boolop, !compare_element(s, a & 0xffff, b & 0xffff), c);
      t[1] = f;
    }
    if (pair) {
      w.set_pred(dst.elems[0], l, t[0]);
      w.set_pred(dst.elems[1], l, t[1]);
    } else {
      w.set_pred(dst, l, t[0]);
    }
  });
}

// Source type -> kind, element bits, lanes.
bool source_of(const std::string& t, Src& src, unsigned& bits, unsigned& lanes) {
  lanes = 1;
  if (t == ".f16" || t == ".f16x2") src = Src::F16, bits = 16, lanes = t == ".f16x2" ? 2 : 1;
  else if (t == ".bf16" || t == ".bf16x2") src = Src::BF16, bits = 16, lanes = t == ".bf16x2" ? 2 : 1;
  else if (t == ".f32") src = Src::F32, bits = 32;
  else if (t == ".f64") src = Src::F64, bits = 64;
  else if (t.size() >= 3 && (t[1] == 'u' || t[1] == 'b' || t[1] == 's')) {
    src = t[1] == 's' ? Src::S : Src::U;
    bits = static_cast<unsigned>(std::stoi(t.substr(2)));
  } else {
    return false;
  }
  return true;
}

bool select_cmp_spec(const isa::Bound& b, const std::string& stype, Op& op, std::string& why, Res res) {
  const auto c = cmp_of(axis(b, "cmp"));
  if (!c) return unsupported(why, axis(b, "cmp"));
  Src src;
  unsigned bits, lanes;
  if (!source_of(stype, src, bits, lanes)) return unsupported(why, stype);
  const std::string bo = axis(b, "boolop");
  const uint64_t boolop = bo == ".and" ? 1 : bo == ".or" ? 2 : bo == ".xor" ? 3 : 0;
  op.aux = static_cast<uint64_t>(*c) | boolop << 8 | (b.value("ftz") ? uint64_t{1} << 10 : 0) |
           uint64_t{static_cast<uint8_t>(src)} << 16 | uint64_t{bits} << 24 | uint64_t{lanes} << 32 |
           uint64_t{static_cast<uint8_t>(res)} << 40;
  return true;
}

bool select_set(const isa::Bound& b, Op& op, std::string& why) {
  const std::string dt = axis(b, "dtype");
  Res res = Res::Ones;
  if (dt == ".f32") res = Res::F32;
  else if (dt == ".f16" || dt == ".f16x2") res = Res::F16;
  else if (dt == ".bf16" || dt == ".bf16x2") res = Res::BF16;
  op.aux2 = dt == ".u16" || dt == ".s16" ? 16 : 32;  // result bits of an integer destination
  if (!select_cmp_spec(b, axis(b, "stype"), op, why, res)) return false;
  op.fn = &set_op;
  return true;
}

bool select_half_setp(const isa::Bound& b, Op& op, std::string& why) {
  if (!select_cmp_spec(b, axis(b, "type"), op, why, Res::Ones)) return false;
  op.fn = &half_setp;
  return true;
}

bool select_selp(const isa::Bound& b, Op& op, std::string& why) {
  op.fn = by_bits<Selp>(axis(b, "type"));
  return op.fn || unsupported(why, axis(b, "type"));
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["setp §9.7.6.2"] = select_setp;
  r["selp §9.7.6.3"] = select_selp;
  r["slct §9.7.6.4"] = select_slct;
  r["set §9.7.6.1"] = select_set;
  r["set §9.7.7.1"] = select_set;
  r["setp §9.7.7.2"] = select_half_setp;
});

}  // namespace ptxvm::sem
