// Extended-precision integer arithmetic, PTX §9.7.2 (001_23fdd5978b24a3ed.txt): add.cc, addc,
// sub.cc, subc, mad.cc, madc. The condition code CC.CF is one bit per lane (Warp::carry).
//
// CF holds a carry, as on the GPU: subtraction is a + ~b + 1 (sub.cc) or a + ~b + CF (subc), so
// CF = 1 means "no borrow". Within a chain this is the spec's d = a - (b + borrow); it also fixes
// mixed chains as an H200 runs them (sub.cc then addc adds 1 when sub.cc did not borrow). CF
// before any writer in a thread is unspecified; ptxvm starts it at 0.
#include <type_traits>

#include "exec/warp.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;

bool carry_in(const Warp& w, int lane) { return (w.carry >> lane) & 1u; }
void set_carry(Warp& w, int lane, bool cf) {
  uint32_t bit = 1u << lane;
  w.carry = cf ? (w.carry | bit) : (w.carry & ~bit);
}

// a + b + cin with its carry out, in the unsigned type U (signed types add the same bits).
template <typename U>
U add_carry(U a, U b, bool cin, bool& cout) {
  U s = static_cast<U>(a + b);
  U r = static_cast<U>(s + U{cin});
  cout = s < a || r < s;
  return r;
}
// kIn: reads CF (addc, subc); kOut: writes CF (.cc).
template <bool kSub, bool kIn, bool kOut>
struct AddSub {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      using U = std::make_unsigned_t<T>;
      for_lanes(m, [&](int l) {
        U a = w.get<U>(op.args[1], l), b = w.get<U>(op.args[2], l);
        bool in = kIn ? carry_in(w, l) : kSub, out = false;  // sub.cc adds 1: a + ~b + 1
        w.set(op.args[0], l, add_carry(a, kSub ? static_cast<U>(~b) : b, in, out));
        if (kOut) set_carry(w, l, out);
      });
    }
  };
};

// mad{c}.{hi,lo}{.cc}: t = a * b in twice the width (signed for .s32/.s64), then the chosen half
// plus c (plus CF for madc); the carry out is that of this addition.
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;
template <typename T>
T mul_half(T a, T b, bool hi) {
  if constexpr (sizeof(T) == 4) {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    W p = static_cast<W>(a) * static_cast<W>(b);
    return static_cast<T>(hi ? p >> 32 : p);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, int128, uint128>;
    W p = static_cast<W>(a) * static_cast<W>(b);
    return static_cast<T>(hi ? p >> 64 : p);
  }
}
template <bool kHi, bool kIn, bool kOut>
struct Mad {
  template <typename T>
  struct Run {
    static void run(Warp& w, const Op& op, uint32_t m) {
      using U = std::make_unsigned_t<T>;
      for_lanes(m, [&](int l) {
        U t = static_cast<U>(mul_half(w.get<T>(op.args[1], l), w.get<T>(op.args[2], l), kHi));
        bool in = kIn && carry_in(w, l), out = false;
        w.set(op.args[0], l, add_carry(t, w.get<U>(op.args[3], l), in, out));
        if (kOut) set_carry(w, l, out);
      });
    }
  };
};

program::Handler by_type(const std::string& t, program::Handler u32, program::Handler s32, program::Handler u64,
                       program::Handler s64) {
  return t == ".u32" ? u32 : t == ".s32" ? s32 : t == ".u64" ? u64 : t == ".s64" ? s64 : nullptr;
}
template <template <typename> class H>
program::Handler typed(const std::string& t) {
  return by_type(t, &H<uint32_t>::run, &H<int32_t>::run, &H<uint64_t>::run, &H<int64_t>::run);
}

// add.cc / sub.cc always write CF; addc / subc read it and write it with .cc.
template <bool kSub, bool kIn>
bool select_add_sub(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  op.fn = !kIn || b.value("cc") ? typed<AddSub<kSub, kIn, true>::template Run>(t)
                                 : typed<AddSub<kSub, kIn, false>::template Run>(t);
  return op.fn || unsupported(why, t);
}
template <bool kIn>
bool select_mad(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  bool hi = b.is("mode", ".hi"), out = !kIn || b.value("cc");
  if (hi) op.fn = out ? typed<Mad<true, kIn, true>::template Run>(t) : typed<Mad<true, kIn, false>::template Run>(t);
  else op.fn = out ? typed<Mad<false, kIn, true>::template Run>(t) : typed<Mad<false, kIn, false>::template Run>(t);
  return op.fn || unsupported(why, t);
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["add.cc §9.7.2.1"] = select_add_sub<false, false>;
  r["addc §9.7.2.2"] = select_add_sub<false, true>;
  r["sub.cc §9.7.2.3"] = select_add_sub<true, false>;
  r["subc §9.7.2.4"] = select_add_sub<true, true>;
  r["mad.cc §9.7.2.5"] = select_mad<false>;
  r["madc §9.7.2.6"] = select_mad<true>;
});

}  // namespace ptxvm::sem
