// Logic and shift, PTX §9.7.8 (001_23fdd5978b24a3ed.txt).
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using lower::Op;

enum class Bool { And, Or, Xor };

template <Bool B>
struct Logic {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      for_lanes(m, [&](int l) {
        T a = w.get<T>(op.args[1], l), b = w.get<T>(op.args[2], l);
        w.set<T>(op.args[0], l, B == Bool::And ? T(a & b) : B == Bool::Or ? T(a | b) : T(a ^ b));
      });
    }
  };
};

template <Bool B>
void pred_logic(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    bool a = w.pred(op.args[1], l), b = w.pred(op.args[2], l);
    w.set_pred(op.args[0], l, B == Bool::And ? (a && b) : B == Bool::Or ? (a || b) : (a != b));
  });
}

template <typename T>
struct Not {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) { w.set<T>(op.args[0], l, static_cast<T>(~w.get<T>(op.args[1], l))); });
  }
};
void not_pred(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) { w.set_pred(op.args[0], l, !w.pred(op.args[1], l)); });
}
template <typename T>
struct Cnot {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) { w.set<T>(op.args[0], l, static_cast<T>(w.get<T>(op.args[1], l) == 0)); });
  }
};

// Shift amounts past the width give 0, or the sign for shr on signed types (§9.7.8.8/9).
template <typename T>
struct Shl {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) {
      uint32_t n = w.get<uint32_t>(op.args[2], l);
      T a = w.get<T>(op.args[1], l);
      w.set<T>(op.args[0], l, n >= 8 * sizeof(T) ? T{0} : static_cast<T>(a << n));
    });
  }
};
template <typename T>
struct Shr {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) {
      constexpr uint32_t kBits = 8 * sizeof(T);
      uint32_t n = w.get<uint32_t>(op.args[2], l);
      T a = w.get<T>(op.args[1], l);
      T r = n < kBits ? static_cast<T>(a >> n) : std::is_signed_v<T> ? static_cast<T>(a >> (kBits - 1)) : T{0};
      w.set<T>(op.args[0], l, r);
    });
  }
};

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

}  // namespace

void register_logic(Registry& r) {
  r["and §9.7.8.1"] = select_logic<Bool::And>;
  r["or §9.7.8.2"] = select_logic<Bool::Or>;
  r["xor §9.7.8.3"] = select_logic<Bool::Xor>;
  r["not §9.7.8.4"] = select_not;
  r["cnot §9.7.8.5"] = select_int<Cnot>;
  r["shl §9.7.8.8"] = select_int<Shl>;
  r["shr §9.7.8.9"] = select_int<Shr>;
}

}  // namespace ptxvm::sem
