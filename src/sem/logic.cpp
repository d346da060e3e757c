// Logic and shift, PTX §9.7.8 (001_23fdd5978b24a3ed.txt); also prmt (§9.7.9.7), a byte permute.
#include <algorithm>
#include <type_traits>

#include "exec/warp.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;

// ---- and, or, xor, not, cnot (§9.7.8.1-5) ----
enum class Bool { And, Or, Xor };

template <Bool B, typename T>
T combine(T a, T b) {
  return B == Bool::And ? T(a & b) : B == Bool::Or ? T(a | b) : T(a ^ b);
}

template <Bool B>
struct Logic {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      w.lanewise<T>(m, op.args[0], [](T a, T b) { return combine<B>(a, b); }, op.args[1], op.args[2]);
    }
  };
};
// .pred operands: predicates (negated with `!`) or the immediates 0 and 1.
template <Bool B>
void pred_logic(Warp& w, const Op& op, uint32_t m) {
  w.set_preds(op.args[0], m, combine<B>(w.pred_bits(op.args[1]), w.pred_bits(op.args[2])));
}

template <typename T>
struct Not {
  static void run(Warp& w, const Op& op, uint32_t m) {
    w.lanewise<T>(m, op.args[0], [](T a) { return static_cast<T>(~a); }, op.args[1]);
  }
};
void not_pred(Warp& w, const Op& op, uint32_t m) {
  w.set_preds(op.args[0], m, ~w.pred_bits(op.args[1]));
}
template <typename T>
struct Cnot {
  static void run(Warp& w, const Op& op, uint32_t m) {
    w.lanewise<T>(m, op.args[0], [](T a) { return static_cast<T>(a == 0); }, op.args[1]);
  }
};

// ---- lop3 (§9.7.8.6): bit i of immLut (op.aux) is F at a = i<2>, b = i<1>, c = i<0>, since
// immLut = F(0xF0, 0xCC, 0xAA). With .BoolOp, p = (d != 0) BoolOp q. ----
uint32_t lut3(uint32_t lut, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d = 0;
  for (uint32_t i = 0; i < 8; ++i)
    if (lut >> i & 1) d |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return d;
}
void lop3(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    w.set(op.args[0], l, lut3(static_cast<uint32_t>(op.aux), w.get<uint32_t>(op.args[1], l),
                              w.get<uint32_t>(op.args[2], l), w.get<uint32_t>(op.args[3], l)));
  });
}
// args[0] is the pair d|p (d may be the sink `_`); args[5] is q.
template <Bool B>
void lop3_bool(Warp& w, const Op& op, uint32_t m) {
  const program::Arg& d = op.args[0].elems[0];
  const program::Arg& p = op.args[0].elems[1];
  for_lanes(m, [&](int l) {
    uint32_t r = lut3(static_cast<uint32_t>(op.aux), w.get<uint32_t>(op.args[1], l), w.get<uint32_t>(op.args[2], l),
                      w.get<uint32_t>(op.args[3], l));
    bool q = w.get<bool>(op.args[5], l);
    w.set(d, l, r);
    w.set_pred(p, l, combine<B>(r != 0, q));
  });
}

// ---- shf (§9.7.8.7): a funnel shift of [b, a]; n = min(c, 32) (.clamp) or c & 31 (.wrap) ----
template <bool kLeft, bool kClamp>
void shf(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    uint64_t v = uint64_t{w.get<uint32_t>(op.args[2], l)} << 32 | w.get<uint32_t>(op.args[1], l);
    uint32_t c = w.get<uint32_t>(op.args[3], l);
    uint32_t n = kClamp ? std::min(c, 32u) : c & 31;
    w.set(op.args[0], l, static_cast<uint32_t>(kLeft ? (v << n) >> 32 : v >> n));
  });
}

// ---- shl, shr (§9.7.8.8, §9.7.8.9): amounts past the width clamp to the width, which gives 0,
// or the sign for shr on signed types ----
// The operands are read as whole slots: a is T, the amount n a .u32. An immediate amount is the
// same for every lane, so that the loop shifts all lanes by one count (which vectorises).
template <typename Shift>
void shift(Warp& w, const Op& op, uint32_t m) {
  if (op.args[2].kind == program::ArgKind::Imm) {
    const auto n = static_cast<uint32_t>(op.args[2].imm);
    return w.lanewise<uint64_t>(m, op.args[0], [n](uint64_t x) { return Shift::of(x, n); }, op.args[1]);
  }
  w.lanewise<uint64_t>(m, op.args[0], [](uint64_t x, uint64_t y) { return Shift::of(x, static_cast<uint32_t>(y)); },
                       op.args[1], op.args[2]);
}
template <typename T>
struct Shl {
  static T of(uint64_t x, uint32_t n) { return n >= 8 * sizeof(T) ? T{0} : static_cast<T>(static_cast<T>(x) << n); }
  static void run(Warp& w, const Op& op, uint32_t m) { shift<Shl>(w, op, m); }
};
template <typename T>
struct Shr {
  static T of(uint64_t x, uint32_t n) {
    constexpr uint32_t kBits = 8 * sizeof(T);
    T a = static_cast<T>(x);
    return n < kBits ? static_cast<T>(a >> n) : std::is_signed_v<T> ? static_cast<T>(a >> (kBits - 1)) : T{0};
  }
  static void run(Warp& w, const Op& op, uint32_t m) { shift<Shr>(w, op, m); }
};

// ---- prmt (§9.7.9.7): four bytes picked from {b, a} = bytes 7..0. The default mode takes a
// 4-bit selector per byte from c (bit 3: replicate the byte's sign); the other modes index a
// table by c[1:0], each row listing the source of d.b0..d.b3. ----
enum class Prmt : uint8_t { Generic, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
constexpr uint8_t kPrmtTable[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // .f4e
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // .b4e
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // .rc8
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // .ecl
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // .ecr
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // .rc16
};
template <Prmt M>
void prmt(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    uint64_t src = uint64_t{w.get<uint32_t>(op.args[2], l)} << 32 | w.get<uint32_t>(op.args[1], l);
    uint32_t c = w.get<uint32_t>(op.args[3], l), d = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t byte;
      if constexpr (M == Prmt::Generic) {
        uint32_t sel = c >> (4 * i) & 0xf;
        byte = static_cast<uint32_t>(src >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
      } else {
        byte = static_cast<uint32_t>(src >> (8 * kPrmtTable[static_cast<int>(M) - 1][c & 3][i])) & 0xff;
      }
      d |= byte << (8 * i);
    }
    w.set(op.args[0], l, d);
  });
}

// ---- selectors ----
template <Bool B>
bool select_logic(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  op.fn = t == ".pred" ? &pred_logic<B> : by_int_type<Logic<B>::template Run>(t);
  return op.fn || unsupported(why, t);
}
bool select_not(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  op.fn = t == ".pred" ? &not_pred : by_int_type<Not>(t);
  return op.fn || unsupported(why, t);
}
template <template <typename> class H>
bool select_int(const isa::Bound& b, Op& op, std::string& why) {
  op.fn = by_int_type<H>(axis(b, "type"));
  return op.fn || unsupported(why, axis(b, "type"));
}
bool select_lop3(const isa::Bound& b, Op& op, std::string& why) {
  if (op.args.size() < 5 || op.args[4].kind != program::ArgKind::Imm) return unsupported(why, "immLut must be an immediate");
  op.aux = op.args[4].imm & 0xff;
  if (!b.value("boolop")) {
    if (op.args[0].kind == program::ArgKind::Vector) return unsupported(why, "d|p needs .or or .and");
    op.fn = &lop3;
    return true;
  }
  if (op.args[0].kind != program::ArgKind::Vector || op.args[0].elems.size() != 2 || op.args.size() != 6)
    return unsupported(why, "lop3.BoolOp needs d|p and q");
  op.fn = b.is("boolop", ".and") ? &lop3_bool<Bool::And> : &lop3_bool<Bool::Or>;
  return true;
}
bool select_shf(const isa::Bound& b, Op& op, std::string&) {
  bool left = b.is("dir", ".l"), clamp = b.is("mode", ".clamp");
  op.fn = left ? (clamp ? &shf<true, true> : &shf<true, false>) : (clamp ? &shf<false, true> : &shf<false, false>);
  return true;
}
bool select_prmt(const isa::Bound& b, Op& op, std::string& why) {
  std::string mode = axis(b, "mode");
  if (mode.empty()) op.fn = &prmt<Prmt::Generic>;
  else if (mode == ".f4e") op.fn = &prmt<Prmt::F4e>;
  else if (mode == ".b4e") op.fn = &prmt<Prmt::B4e>;
  else if (mode == ".rc8") op.fn = &prmt<Prmt::Rc8>;
  else if (mode == ".ecl") op.fn = &prmt<Prmt::Ecl>;
  else if (mode == ".ecr") op.fn = &prmt<Prmt::Ecr>;
  else if (mode == ".rc16") op.fn = &prmt<Prmt::Rc16>;
  return op.fn || unsupported(why, mode);
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["and §9.7.8.1"] = select_logic<Bool::And>;
  r["or §9.7.8.2"] = select_logic<Bool::Or>;
  r["xor §9.7.8.3"] = select_logic<Bool::Xor>;
  r["not §9.7.8.4"] = select_not;
  r["cnot §9.7.8.5"] = select_int<Cnot>;
  r["lop3 §9.7.8.6"] = select_lop3;
  r["shf §9.7.8.7"] = select_shf;
  r["shl §9.7.8.8"] = select_int<Shl>;
  r["shr §9.7.8.9"] = select_int<Shr>;
  r["prmt §9.7.9.7"] = select_prmt;
});

}  // namespace ptxvm::sem
