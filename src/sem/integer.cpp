// Integer arithmetic, PTX §9.7.1 (001_23fdd5978b24a3ed.txt).
#include <algorithm>
#include <type_traits>

#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using lower::Op;

// Wrapping arithmetic in the unsigned type of T (signed overflow wraps, as on the GPU).
template <typename T>
using U = std::make_unsigned_t<T>;

template <typename T, typename F>
void binary(Warp& w, const Op& op, uint32_t mask, F f) {
  for_lanes(mask, [&](int l) {
    w.set<T>(op.args[0], l, f(w.get<T>(op.args[1], l), w.get<T>(op.args[2], l)));
  });
}

template <typename T>
struct Add {
  static void run(Warp& w, const Op& op, uint32_t m) {
    binary<T>(w, op, m, [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) + static_cast<U<T>>(b)); });
  }
};
template <typename T>
struct Sub {
  static void run(Warp& w, const Op& op, uint32_t m) {
    binary<T>(w, op, m, [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) - static_cast<U<T>>(b)); });
  }
};
// add.sat.s32 / sub.sat.s32 clamp to the s32 range (§9.7.1.1).
template <bool kSub>
struct SatS32 {
  static void run(Warp& w, const Op& op, uint32_t m) {
    binary<int32_t>(w, op, m, [](int32_t a, int32_t b) {
      int64_t r = kSub ? int64_t{a} - b : int64_t{a} + b;
      return static_cast<int32_t>(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
    });
  }
};

// mul.lo/.hi/.wide (§9.7.1.3): products in twice the width.
template <typename T>
struct Wider;
template <> struct Wider<uint8_t> { using type = uint16_t; };
template <> struct Wider<int8_t> { using type = int16_t; };
template <> struct Wider<uint16_t> { using type = uint32_t; };
template <> struct Wider<int16_t> { using type = int32_t; };
template <> struct Wider<uint32_t> { using type = uint64_t; };
template <> struct Wider<int32_t> { using type = int64_t; };
template <> struct Wider<uint64_t> { using type = unsigned __int128; };
template <> struct Wider<int64_t> { using type = __int128; };

enum class Half { Lo, Hi, Wide };

template <typename T, Half H>
auto product(T a, T b) {
  using W = typename Wider<T>::type;
  W p = static_cast<W>(a) * static_cast<W>(b);
  if constexpr (H == Half::Lo) return static_cast<T>(p);
  else if constexpr (H == Half::Hi) return static_cast<T>(p >> (8 * sizeof(T)));
  else return p;
}

template <Half H>
struct MulH {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      for_lanes(m, [&](int l) {
        w.set(op.args[0], l, product<T, H>(w.get<T>(op.args[1], l), w.get<T>(op.args[2], l)));
      });
    }
  };
};

// mad: a*b + c in the product's width (§9.7.1.4).
template <Half H>
struct MadH {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      for_lanes(m, [&](int l) {
        auto p = product<T, H>(w.get<T>(op.args[1], l), w.get<T>(op.args[2], l));
        using P = decltype(p);
        using UP = std::make_unsigned_t<P>;
        P c = w.get<P>(op.args[3], l);
        w.set(op.args[0], l, static_cast<P>(static_cast<UP>(p) + static_cast<UP>(c)));
      });
    }
  };
};

template <typename T>
struct Min {
  static void run(Warp& w, const Op& op, uint32_t m) { binary<T>(w, op, m, [](T a, T b) { return a < b ? a : b; }); }
};
template <typename T>
struct Max {
  static void run(Warp& w, const Op& op, uint32_t m) { binary<T>(w, op, m, [](T a, T b) { return a > b ? a : b; }); }
};

// div/rem: division by zero gives an unspecified value on the GPU; ptxvm gives all ones for
// div and the dividend for rem (what sm_90 returns), never a host trap (§9.7.1.8).
template <typename T>
struct Div {
  static void run(Warp& w, const Op& op, uint32_t m) {
    binary<T>(w, op, m, [](T a, T b) -> T {
      if (b == 0) return static_cast<T>(~U<T>{0});
      if (std::is_signed_v<T> && b == static_cast<T>(-1)) return static_cast<T>(U<T>{0} - static_cast<U<T>>(a));
      return a / b;
    });
  }
};
template <typename T>
struct Rem {
  static void run(Warp& w, const Op& op, uint32_t m) {
    binary<T>(w, op, m, [](T a, T b) -> T {
      if (b == 0) return a;
      if (std::is_signed_v<T> && b == static_cast<T>(-1)) return 0;
      return a % b;
    });
  }
};

template <typename T>
struct Neg {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) { w.set<T>(op.args[0], l, static_cast<T>(U<T>{0} - static_cast<U<T>>(w.get<T>(op.args[1], l)))); });
  }
};
template <typename T>
struct Abs {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) {
      T a = w.get<T>(op.args[1], l);
      w.set<T>(op.args[0], l, a < 0 ? static_cast<T>(U<T>{0} - static_cast<U<T>>(a)) : a);
    });
  }
};

bool select_add(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  if (b.value("sat")) {
    op.fn = &SatS32<false>::run;
    return true;
  }
  op.fn = by_int_type<Add>(t);
  return op.fn || unsupported(why, "add" + t);
}
bool select_sub(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  if (b.value("sat")) {
    op.fn = &SatS32<true>::run;
    return true;
  }
  op.fn = by_int_type<Sub>(t);
  return op.fn || unsupported(why, "sub" + t);
}
template <template <Half> class K>
bool select_mul_like(const isa::Bound& b, Op& op, std::string& why) {
  std::string mode = axis(b, "mode"), t = axis(b, "type");
  if (b.value("sat")) return unsupported(why, "mad.hi.sat.s32");
  if (mode == ".lo") op.fn = by_int_type<K<Half::Lo>::template Run>(t);
  if (mode == ".hi") op.fn = by_int_type<K<Half::Hi>::template Run>(t);
  if (mode == ".wide") op.fn = by_narrow_int_type<K<Half::Wide>::template Run>(t);
  return op.fn || unsupported(why, mode + t);
}
template <template <typename> class H>
bool select_typed(const isa::Bound& b, Op& op, std::string& why) {
  if (b.value("relu")) return unsupported(why, ".relu");
  op.fn = by_int_type<H>(axis(b, "type"));
  return op.fn || unsupported(why, axis(b, "type"));
}

}  // namespace

void register_integer(Registry& r) {
  r["add §9.7.1.1"] = select_add;
  r["sub §9.7.1.2"] = select_sub;
  r["mul §9.7.1.3"] = select_mul_like<MulH>;
  r["mad §9.7.1.4"] = select_mul_like<MadH>;
  r["min §9.7.1.12"] = select_typed<Min>;
  r["max §9.7.1.13"] = select_typed<Max>;
  r["div §9.7.1.8"] = select_typed<Div>;
  r["rem §9.7.1.9"] = select_typed<Rem>;
  r["neg §9.7.1.11"] = select_typed<Neg>;
  r["abs §9.7.1.10"] = select_typed<Abs>;
}

}  // namespace ptxvm::sem
