// Integer arithmetic, PTX §9.7.1 (001_23fdd5978b24a3ed.txt).
#include <algorithm>
#include <bit>
#include <type_traits>

#include "exec/warp.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;

// Wrapping arithmetic in the unsigned type of T (signed overflow wraps, as on the GPU).
template <typename T>
using U = std::make_unsigned_t<T>;
template <typename T>
T wrap_add(T a, T b) { return static_cast<T>(static_cast<U<T>>(a) + static_cast<U<T>>(b)); }
template <typename T>
T wrap_sub(T a, T b) { return static_cast<T>(static_cast<U<T>>(a) - static_cast<U<T>>(b)); }

int32_t clamp_s32(int64_t v) { return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); }

template <typename T, typename F>
void unary(Warp& w, const Op& op, uint32_t mask, F f) {
  w.lanewise<T>(mask, op.args[0], f, op.args[1]);
}
template <typename T, typename F>
void binary(Warp& w, const Op& op, uint32_t mask, F f) {
  w.lanewise<T>(mask, op.args[0], f, op.args[1], op.args[2]);
}
template <typename T, typename F>
void ternary(Warp& w, const Op& op, uint32_t mask, F f) {
  w.lanewise<T>(mask, op.args[0], f, op.args[1], op.args[2], op.args[3]);
}

// The two half-words of a .u16x2/.s16x2 operand, combined lane by lane (§9.7.1.1, §9.7.1.12).
template <typename H, typename F>
uint32_t per_half(uint32_t a, uint32_t b, F f) {
  uint32_t d = 0;
  for (int i = 0; i < 2; ++i) {
    H x = static_cast<H>(a >> (16 * i)), y = static_cast<H>(b >> (16 * i));
    d |= uint32_t{static_cast<uint16_t>(f(x, y))} << (16 * i);
  }
  return d;
}

// ---- add, sub (§9.7.1.1, §9.7.1.2) ----
template <typename T>
struct Add {
  static void run(Warp& w, const Op& op, uint32_t m) { binary<T>(w, op, m, [](T a, T b) { return wrap_add(a, b); }); }
};
template <typename T>
struct Sub {
  static void run(Warp& w, const Op& op, uint32_t m) { binary<T>(w, op, m, [](T a, T b) { return wrap_sub(a, b); }); }
};
// .sat: the exact result clamped to MININT..MAXINT (.s32 only).
template <bool kSub>
void sat_s32(Warp& w, const Op& op, uint32_t m) {
  binary<int32_t>(w, op, m, [](int32_t a, int32_t b) { return clamp_s32(kSub ? int64_t{a} - b : int64_t{a} + b); });
}
// add.u16x2 / add.s16x2: each half-word wraps independently (signedness does not change the bits).
void add_16x2(Warp& w, const Op& op, uint32_t m) {
  binary<uint32_t>(w, op, m, [](uint32_t a, uint32_t b) { return per_half<uint16_t>(a, b, wrap_add<uint16_t>); });
}

// ---- mul, mad (§9.7.1.3, §9.7.1.4): products in twice the width ----
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;
template <typename T>
struct Wider;
template <> struct Wider<uint8_t> { using type = uint16_t; };
template <> struct Wider<int8_t> { using type = int16_t; };
template <> struct Wider<uint16_t> { using type = uint32_t; };
template <> struct Wider<int16_t> { using type = int32_t; };
template <> struct Wider<uint32_t> { using type = uint64_t; };
template <> struct Wider<int32_t> { using type = int64_t; };
template <> struct Wider<uint64_t> { using type = uint128; };
template <> struct Wider<int64_t> { using type = int128; };

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
    static void run(Warp& w, const Op& op, uint32_t m) { binary<T>(w, op, m, [](T a, T b) { return product<T, H>(a, b); }); }
  };
};

// d = t + c in the width of t (c is as wide as d).
template <Half H>
struct MadH {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      if constexpr (H != Half::Wide) {
        ternary<T>(w, op, m, [](T a, T b, T c) { return wrap_add(product<T, H>(a, b), c); });
      } else {
        for_lanes(m, [&](int l) {
          auto p = product<T, H>(w.get<T>(op.args[1], l), w.get<T>(op.args[2], l));
          w.set(op.args[0], l, wrap_add(p, w.get<decltype(p)>(op.args[3], l)));
        });
      }
    }
  };
};
// mad.hi.sat.s32: the high half plus c, clamped to the s32 range.
void mad_hi_sat_s32(Warp& w, const Op& op, uint32_t m) {
  ternary<int32_t>(w, op, m, [](int32_t a, int32_t b, int32_t c) {
    return clamp_s32(int64_t{product<int32_t, Half::Hi>(a, b)} + c);
  });
}

// ---- mul24, mad24 (§9.7.1.5, §9.7.1.6): the low 24 bits of a and b (sign-extended from bit 23
// for .s32) give a 48-bit product t; .lo takes t<31..0>, .hi t<47..16>. ----
template <typename T>
int64_t low24(T v) {
  uint32_t u = static_cast<uint32_t>(v) & 0xffffff;
  return std::is_signed_v<T> ? int64_t{static_cast<int32_t>(u << 8) >> 8} : int64_t{u};
}
template <typename T, bool kHi>
uint32_t product24(T a, T b) {
  int64_t t = low24(a) * low24(b);
  return static_cast<uint32_t>(static_cast<uint64_t>(t) >> (kHi ? 16 : 0));
}
template <bool kHi>
struct Mul24 {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      binary<T>(w, op, m, [](T a, T b) { return static_cast<T>(product24<T, kHi>(a, b)); });
    }
  };
};
template <bool kHi>
struct Mad24 {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      ternary<T>(w, op, m, [](T a, T b, T c) { return wrap_add(static_cast<T>(product24<T, kHi>(a, b)), c); });
    }
  };
};
// mad24.hi.sat.s32: the 32-bit signed addition clamped to MININT..MAXINT.
void mad24_hi_sat_s32(Warp& w, const Op& op, uint32_t m) {
  ternary<int32_t>(w, op, m, [](int32_t a, int32_t b, int32_t c) {
    return clamp_s32(int64_t{static_cast<int32_t>(product24<int32_t, true>(a, b))} + c);
  });
}

// ---- sad (§9.7.1.7): d = c + |a - b| ----
template <typename T>
struct Sad {
  static void run(Warp& w, const Op& op, uint32_t m) {
    ternary<T>(w, op, m, [](T a, T b, T c) { return wrap_add(c, a < b ? wrap_sub(b, a) : wrap_sub(a, b)); });
  }
};

// ---- div, rem (§9.7.1.8, §9.7.1.9): division rounds toward zero, so the remainder has the
// dividend's sign. Division by zero is unspecified; ptxvm gives all ones for both div and rem,
// every type, as an H200 does, never a host trap. MININT / -1 wraps to MININT, remainder 0. ----
template <typename T>
struct Div {
  static void run(Warp& w, const Op& op, uint32_t m) {
    binary<T>(w, op, m, [](T a, T b) -> T {
      if (b == 0) return static_cast<T>(~U<T>{0});
      if (std::is_signed_v<T> && b == static_cast<T>(-1)) return wrap_sub(T{0}, a);
      return static_cast<T>(a / b);
    });
  }
};
template <typename T>
struct Rem {
  static void run(Warp& w, const Op& op, uint32_t m) {
    binary<T>(w, op, m, [](T a, T b) -> T {
      if (b == 0) return static_cast<T>(~U<T>{0});
      if (std::is_signed_v<T> && b == static_cast<T>(-1)) return 0;
      return static_cast<T>(a % b);
    });
  }
};

// ---- abs, neg (§9.7.1.10, §9.7.1.11): MININT maps to itself ----
template <typename T>
struct Neg {
  static void run(Warp& w, const Op& op, uint32_t m) { unary<T>(w, op, m, [](T a) { return wrap_sub(T{0}, a); }); }
};
template <typename T>
struct Abs {
  static void run(Warp& w, const Op& op, uint32_t m) {
    unary<T>(w, op, m, [](T a) { return a < 0 ? wrap_sub(T{0}, a) : a; });
  }
};

// ---- min, max (§9.7.1.12, §9.7.1.13); .relu clamps a negative result to 0 ----
template <bool kMax, typename T>
T pick(T a, T b) { return kMax ? (a > b ? a : b) : (a < b ? a : b); }
template <bool kMax, bool kRelu>
struct MinMax {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      binary<T>(w, op, m, [](T a, T b) {
        T r = pick<kMax>(a, b);
        return kRelu && r < 0 ? T{0} : r;
      });
    }
  };
};
template <bool kMax, bool kRelu, typename H>
void min_max_16x2(Warp& w, const Op& op, uint32_t m) {
  binary<uint32_t>(w, op, m, [](uint32_t a, uint32_t b) {
    return per_half<H>(a, b, [](H x, H y) {
      H r = pick<kMax>(x, y);
      return kRelu && r < 0 ? H{0} : r;
    });
  });
}

// ---- bit counts (§9.7.1.14-16); d is .u32 ----
template <typename T>
struct Popc {
  static void run(Warp& w, const Op& op, uint32_t m) {
    unary<T>(w, op, m, [](T a) { return static_cast<uint32_t>(std::popcount(a)); });
  }
};
template <typename T>
struct Clz {
  static void run(Warp& w, const Op& op, uint32_t m) {
    unary<T>(w, op, m, [](T a) { return static_cast<uint32_t>(std::countl_zero(a)); });
  }
};
// bfind: the position of the most significant non-sign bit (bits of ~a for negative signed a),
// or 0xffffffff when there is none; .shiftamt gives msb - position instead.
template <bool kShiftAmt>
struct Bfind {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      unary<T>(w, op, m, [](T a) -> uint32_t {
        constexpr uint32_t kMsb = 8 * sizeof(T) - 1;
        U<T> u = static_cast<U<T>>(a < 0 ? ~a : a);
        if (u == 0) return 0xffffffffu;
        uint32_t pos = kMsb - static_cast<uint32_t>(std::countl_zero(u));
        return kShiftAmt ? kMsb - pos : pos;
      });
    }
  };
};

// ---- fns (§9.7.1.17): the offset-th set bit of mask counting from base upward (offset > 0) or
// downward (offset < 0); offset 0 tests bit base itself. base > 31 is undefined: an H200 finds no
// bit there (0xffffffff), and it answers 0 for the offset -2^31, whatever the mask and base
// (tests/hw/integer). ----
uint32_t find_nth_set(uint32_t mask, uint32_t base, int32_t offset) {
  if (offset == INT32_MIN) return 0;
  if (base > 31) return 0xffffffffu;
  if (offset == 0) return (mask >> base & 1) ? base : 0xffffffffu;
  int64_t count = offset > 0 ? int64_t{offset} - 1 : -int64_t{offset} - 1;
  int inc = offset > 0 ? 1 : -1;
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += inc) {
    if (!(mask >> pos & 1)) continue;
    if (count == 0) return static_cast<uint32_t>(pos);
    --count;
  }
  return 0xffffffffu;
}
void fns(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    w.set(op.args[0], l, find_nth_set(w.get<uint32_t>(op.args[1], l), w.get<uint32_t>(op.args[2], l),
                                      w.get<int32_t>(op.args[3], l)));
  });
}

// ---- brev, bfe, bfi (§9.7.1.18-20) ----
template <typename T>
struct Brev {
  static void run(Warp& w, const Op& op, uint32_t m) {
    unary<T>(w, op, m, [](T a) {
      T d = 0;
      for (unsigned i = 0; i < 8 * sizeof(T); ++i) d = static_cast<T>(d << 1 | (a >> i & 1));
      return d;
    });
  }
};
// bfe/bfi take pos and len from b/c (bfe) or c/d (bfi). The spec restricts both to 8 bits
// (& 0xff); an H200 does so for the 32-bit types but uses the whole .u32 value for the 64-bit
// ones (pos or len 256 reach past the msb instead of wrapping to 0). ptxvm follows the H200.
template <typename T>
uint32_t field_arg(uint32_t v) { return sizeof(T) == 8 ? v : v & 0xff; }

// bfe: len bits of a from pos; positions past the msb and bits past len take the field's sign
// bit (a[min(pos+len-1, msb)] for signed types, 0 for unsigned or len 0).
template <typename T>
struct Bfe {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) {
      constexpr uint64_t kMsb = 8 * sizeof(T) - 1;
      U<T> a = static_cast<U<T>>(w.get<T>(op.args[1], l));
      uint64_t pos = field_arg<T>(w.get<uint32_t>(op.args[2], l)), len = field_arg<T>(w.get<uint32_t>(op.args[3], l));
      bool sbit = std::is_signed_v<T> && len != 0 && (a >> std::min(pos + len - 1, kMsb) & 1);
      U<T> d = 0;
      for (uint64_t i = 0; i <= kMsb; ++i) {
        bool bit = (i < len && pos + i <= kMsb) ? (a >> (pos + i) & 1) : sbit;
        d |= static_cast<U<T>>(static_cast<U<T>>(bit) << i);
      }
      w.set(op.args[0], l, static_cast<T>(d));
    });
  }
};
// bfi: len bits of a inserted into b at pos, clipped at the msb.
template <typename T>
struct Bfi {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) {
      constexpr uint64_t kBits = 8 * sizeof(T);
      T a = w.get<T>(op.args[1], l), f = w.get<T>(op.args[2], l);
      uint64_t pos = field_arg<T>(w.get<uint32_t>(op.args[3], l)), len = field_arg<T>(w.get<uint32_t>(op.args[4], l));
      for (uint64_t i = 0; i < len && pos + i < kBits; ++i)
        f = static_cast<T>((f & ~(T{1} << (pos + i))) | (T{(a >> i) & 1} << (pos + i)));
      w.set(op.args[0], l, f);
    });
  }
};

// ---- szext, bmsk (§9.7.1.21, §9.7.1.22), transcribed from the spec's semantics ----
template <bool kClamp>
struct Szext {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      binary<uint32_t>(w, op, m, [](uint32_t a, uint32_t b) -> uint32_t {
        uint32_t b1 = b & 0x1f;
        bool too_large = b >= 32 && kClamp;
        uint32_t mask = too_large ? 0 : ~0u << b1;
        bool sign = !(b1 == 0 || too_large || !std::is_signed_v<T>) && (a >> ((b1 - 1) & 0x1f) & 1);
        return (a & ~mask) | (sign ? mask : 0);
      });
    }
  };
};
template <bool kClamp>
void bmsk(Warp& w, const Op& op, uint32_t m) {
  binary<uint32_t>(w, op, m, [](uint32_t a, uint32_t b) -> uint32_t {
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    bool overflow = sum >= 32;
    if (kClamp && a >= 32) {
      mask0 = 0;
      overflow = true;
    }
    if (kClamp && b >= 32) overflow = true;
    uint32_t mask1 = overflow ? 0 : b1 == 0 ? ~0u : ~0u << sum;
    return mask0 & ~mask1;
  });
}

// ---- dp4a, dp2a (§9.7.1.23, §9.7.1.24): packed bytes / half-words, sign- or zero-extended by
// their type, multiplied and accumulated into c (mod 2^32). ----
template <bool kSigned>
int64_t byte_of(uint32_t v, int i) {
  uint8_t b = static_cast<uint8_t>(v >> (8 * i));
  return kSigned ? int64_t{static_cast<int8_t>(b)} : int64_t{b};
}
template <bool kSigned>
int64_t half_of(uint32_t v, int i) {
  uint16_t h = static_cast<uint16_t>(v >> (16 * i));
  return kSigned ? int64_t{static_cast<int16_t>(h)} : int64_t{h};
}
template <bool kSa, bool kSb>
void dp4a(Warp& w, const Op& op, uint32_t m) {
  ternary<uint32_t>(w, op, m, [](uint32_t a, uint32_t b, uint32_t c) {
    int64_t d = c;
    for (int i = 0; i < 4; ++i) d += byte_of<kSa>(a, i) * byte_of<kSb>(b, i);
    return static_cast<uint32_t>(d);
  });
}
template <bool kSa, bool kSb, bool kHi>
void dp2a(Warp& w, const Op& op, uint32_t m) {
  ternary<uint32_t>(w, op, m, [](uint32_t a, uint32_t b, uint32_t c) {
    int64_t d = c;
    for (int i = 0; i < 2; ++i) d += half_of<kSa>(a, i) * byte_of<kSb>(b, (kHi ? 2 : 0) + i);
    return static_cast<uint32_t>(d);
  });
}

// ---- selectors ----
bool is_16x2(const std::string& t) { return t == ".u16x2" || t == ".s16x2"; }

template <bool kSub>
bool select_add_sub(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  if (b.value("sat")) {
    if (t != ".s32") return unsupported(why, ".sat" + t);
    op.fn = &sat_s32<kSub>;
  } else if (is_16x2(t)) {
    if (kSub) return unsupported(why, "sub" + t);
    op.fn = &add_16x2;
  } else {
    op.fn = kSub ? by_int_type<Sub>(t) : by_int_type<Add>(t);
  }
  return op.fn || unsupported(why, t);
}
bool select_mul(const isa::Bound& b, Op& op, std::string& why) {
  std::string mode = axis(b, "mode"), t = axis(b, "type");
  if (mode == ".lo") op.fn = by_int_type<MulH<Half::Lo>::Run>(t);
  if (mode == ".hi") op.fn = by_int_type<MulH<Half::Hi>::Run>(t);
  if (mode == ".wide") op.fn = by_narrow_int_type<MulH<Half::Wide>::Run>(t);
  return op.fn || unsupported(why, mode + t);
}
bool select_mad(const isa::Bound& b, Op& op, std::string& why) {
  std::string mode = axis(b, "mode"), t = axis(b, "type");
  if (b.value("sat")) {
    if (mode != ".hi" || t != ".s32") return unsupported(why, mode + ".sat" + t);
    op.fn = &mad_hi_sat_s32;
    return true;
  }
  if (mode == ".lo") op.fn = by_int_type<MadH<Half::Lo>::Run>(t);
  if (mode == ".hi") op.fn = by_int_type<MadH<Half::Hi>::Run>(t);
  if (mode == ".wide") op.fn = by_narrow_int_type<MadH<Half::Wide>::Run>(t);
  return op.fn || unsupported(why, mode + t);
}
template <template <typename> class H>
program::Handler by_32(const std::string& t) {
  return t == ".u32" ? &H<uint32_t>::run : t == ".s32" ? &H<int32_t>::run : nullptr;
}
bool select_mul24(const isa::Bound& b, Op& op, std::string& why) {
  std::string mode = axis(b, "mode"), t = axis(b, "type");
  op.fn = mode == ".hi" ? by_32<Mul24<true>::Run>(t) : by_32<Mul24<false>::Run>(t);
  return op.fn || unsupported(why, mode + t);
}
bool select_mad24(const isa::Bound& b, Op& op, std::string& why) {
  std::string mode = axis(b, "mode"), t = axis(b, "type");
  if (b.value("sat")) {
    if (mode != ".hi" || t != ".s32") return unsupported(why, mode + ".sat" + t);
    op.fn = &mad24_hi_sat_s32;
    return true;
  }
  op.fn = mode == ".hi" ? by_32<Mad24<true>::Run>(t) : by_32<Mad24<false>::Run>(t);
  return op.fn || unsupported(why, mode + t);
}
template <bool kMax>
bool select_min_max(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  bool relu = b.value("relu") != nullptr;
  if (t == ".u16x2" && !relu) op.fn = &min_max_16x2<kMax, false, uint16_t>;
  else if (t == ".s16x2") op.fn = relu ? &min_max_16x2<kMax, true, int16_t> : &min_max_16x2<kMax, false, int16_t>;
  else if (relu) op.fn = t == ".s32" ? &MinMax<kMax, true>::template Run<int32_t>::run : nullptr;
  else op.fn = by_int_type<MinMax<kMax, false>::template Run>(t);
  return op.fn || unsupported(why, (relu ? ".relu" : "") + t);
}
template <template <typename> class H>
bool select_typed(const isa::Bound& b, Op& op, std::string& why) {
  op.fn = by_int_type<H>(axis(b, "type"));
  return op.fn || unsupported(why, axis(b, "type"));
}
template <template <typename> class H>
bool select_b32_b64(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  op.fn = t == ".b32" ? &H<uint32_t>::run : t == ".b64" ? &H<uint64_t>::run : nullptr;
  return op.fn || unsupported(why, t);
}
bool select_bfind(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  op.fn = b.value("shiftamt") ? by_int_type<Bfind<true>::Run>(t) : by_int_type<Bfind<false>::Run>(t);
  return op.fn || unsupported(why, t);
}
bool select_fns(const isa::Bound&, Op& op, std::string&) {
  op.fn = &fns;
  return true;
}
bool select_szext(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  op.fn = b.is("mode", ".clamp") ? by_32<Szext<true>::Run>(t) : by_32<Szext<false>::Run>(t);
  return op.fn || unsupported(why, t);
}
bool select_bmsk(const isa::Bound& b, Op& op, std::string&) {
  op.fn = b.is("mode", ".clamp") ? &bmsk<true> : &bmsk<false>;
  return true;
}
bool select_dp4a(const isa::Bound& b, Op& op, std::string&) {
  bool sa = b.is("atype", ".s32"), sb = b.is("btype", ".s32");
  op.fn = sa ? (sb ? &dp4a<true, true> : &dp4a<true, false>) : (sb ? &dp4a<false, true> : &dp4a<false, false>);
  return true;
}
bool select_dp2a(const isa::Bound& b, Op& op, std::string&) {
  bool sa = b.is("atype", ".s32"), sb = b.is("btype", ".s32");
  if (b.is("mode", ".hi"))
    op.fn = sa ? (sb ? &dp2a<true, true, true> : &dp2a<true, false, true>)
               : (sb ? &dp2a<false, true, true> : &dp2a<false, false, true>);
  else
    op.fn = sa ? (sb ? &dp2a<true, true, false> : &dp2a<true, false, false>)
               : (sb ? &dp2a<false, true, false> : &dp2a<false, false, false>);
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["add §9.7.1.1"] = select_add_sub<false>;
  r["sub §9.7.1.2"] = select_add_sub<true>;
  r["mul §9.7.1.3"] = select_mul;
  r["mad §9.7.1.4"] = select_mad;
  r["mul24 §9.7.1.5"] = select_mul24;
  r["mad24 §9.7.1.6"] = select_mad24;
  r["sad §9.7.1.7"] = select_typed<Sad>;
  r["div §9.7.1.8"] = select_typed<Div>;
  r["rem §9.7.1.9"] = select_typed<Rem>;
  r["abs §9.7.1.10"] = select_typed<Abs>;
  r["neg §9.7.1.11"] = select_typed<Neg>;
  r["min §9.7.1.12"] = select_min_max<false>;
  r["max §9.7.1.13"] = select_min_max<true>;
  r["popc §9.7.1.14"] = select_b32_b64<Popc>;
  r["clz §9.7.1.15"] = select_b32_b64<Clz>;
  r["bfind §9.7.1.16"] = select_bfind;
  r["fns §9.7.1.17"] = select_fns;
  r["brev §9.7.1.18"] = select_b32_b64<Brev>;
  r["bfe §9.7.1.19"] = select_typed<Bfe>;
  r["bfi §9.7.1.20"] = select_b32_b64<Bfi>;
  r["szext §9.7.1.21"] = select_szext;
  r["bmsk §9.7.1.22"] = select_bmsk;
  r["dp4a §9.7.1.23"] = select_dp4a;
  r["dp2a §9.7.1.24"] = select_dp2a;
});

}  // namespace ptxvm::sem
