// Atomic and reduction operations, PTX §9.7.13.5 atom and §9.7.13.6 red
// (001_23fdd5978b24a3ed.txt).
//
// CTAs run on several host threads, so each element update is one host read-modify-write: a
// std::atomic_ref compare-exchange loop on the guest memory that w.access returns (bounds- and
// alignment-checked for the whole access). Sequentially consistent host atomics satisfy every
// .sem (.relaxed .acquire .release .acq_rel) at every .scope. Vector and packed forms are atomic
// per element, as §9.7.13.5 guarantees (packed pairs are updated as one 32-bit word, which is
// stronger).
#include <atomic>
#include <bit>
#include <cmath>

#include "exec/warp.h"
#include "numeric/cvt_float.h"
#include "numeric/minmax.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Arg;
using program::ArgKind;
using program::Op;
using mem::GuestFault;
using mem::Space;

// The new memory value from the old one, operand b and (for .cas) c; `global`: the address is
// in global memory, where floating-point adds behave differently (below).
using Combine = uint64_t (*)(uint64_t old, uint64_t b, uint64_t c, bool global);

// ---- bit-size and integer operations (§9.7.13.5 "Semantics") ----
uint64_t op_and(uint64_t o, uint64_t b, uint64_t, bool) { return o & b; }
uint64_t op_or(uint64_t o, uint64_t b, uint64_t, bool) { return o | b; }
uint64_t op_xor(uint64_t o, uint64_t b, uint64_t, bool) { return o ^ b; }
uint64_t op_exch(uint64_t, uint64_t b, uint64_t, bool) { return b; }
uint64_t op_add(uint64_t o, uint64_t b, uint64_t, bool) { return o + b; }  // truncated to T
template <typename T>
uint64_t op_cas(uint64_t o, uint64_t b, uint64_t c, bool) { return static_cast<T>(o) == static_cast<T>(b) ? c : o; }
// inc(r, s) = (r >= s) ? 0 : r+1;  dec(r, s) = (r == 0 || r > s) ? s : r-1  (.u32 only)
uint64_t op_inc(uint64_t o, uint64_t b, uint64_t, bool) {
  auto r = static_cast<uint32_t>(o), s = static_cast<uint32_t>(b);
  return r >= s ? 0 : r + 1;
}
uint64_t op_dec(uint64_t o, uint64_t b, uint64_t, bool) {
  auto r = static_cast<uint32_t>(o), s = static_cast<uint32_t>(b);
  return (r == 0 || r > s) ? s : r - 1;
}
template <typename T, bool kMax>
uint64_t op_minmax(uint64_t o, uint64_t b, uint64_t, bool) {
  T x = static_cast<T>(o), y = static_cast<T>(b);
  T r = kMax ? std::max(x, y) : std::min(x, y);
  return static_cast<std::make_unsigned_t<T>>(r);
}

// ---- floating point ----
// .add rounds to nearest even (§9.7.13.5). "atom.add.f32 on global memory flushes subnormal
// inputs and results to sign-preserving zero; on shared memory it keeps them" — done per the
// space the address resolves to, for the vector forms too. .f32, .f16 and .bf16 NaN results
// are the canonical NaN, as for add (§9.7.3.3). All of this matches an H200 bit for bit on
// every pair of the edge values in tests/sem/atomic_test.cpp, global and shared.
uint32_t flush_f32(uint32_t x) { return (x & 0x7f800000u) == 0 ? x & 0x80000000u : x; }
uint64_t add_f32(uint64_t o, uint64_t b, uint64_t, bool global) {
  auto x = static_cast<uint32_t>(o), y = static_cast<uint32_t>(b);
  if (global) x = flush_f32(x), y = flush_f32(y);
  float s = std::bit_cast<float>(x) + std::bit_cast<float>(y);
  if (std::isnan(s)) return 0x7fffffffu;
  uint32_t r = std::bit_cast<uint32_t>(s);
  return global ? flush_f32(r) : r;
}
// .f64 NaNs as an H200 (sm_90) gives them, which the ISA leaves open. In global memory a NaN
// operand b comes back unchanged (not even quieted), else memory's NaN; in shared memory
// memory's NaN comes first and either is quieted. Inf + -Inf gives 0xfff8000000000000.
uint64_t add_f64(uint64_t o, uint64_t b, uint64_t, bool global) {
  constexpr uint64_t kQuiet = uint64_t{1} << 51;
  double x = std::bit_cast<double>(o), y = std::bit_cast<double>(b);
  if (global && std::isnan(y)) return b;
  if (global && std::isnan(x)) return o;
  if (std::isnan(x)) return o | kQuiet;
  if (std::isnan(y)) return b | kQuiet;
  double s = x + y;
  return std::isnan(s) ? 0xfff8000000000000ull : std::bit_cast<uint64_t>(s);
}

// 16-bit formats (.noftz: subnormals kept). The f64 sum of two f16 or bf16 values rounds once
// more to the half format; 53 >= 2p+2 bits makes that double rounding exact (Figueroa 1995),
// so the result is the correctly rounded sum.
template <const numeric::Format& F>
struct Half {
  static constexpr uint16_t kNaN = 0x7fff;  // canonical NaN of f16 and bf16
  static double value(uint16_t x) {
    return std::bit_cast<double>(numeric::cvt_float(numeric::kF64, F, x, {}));
  }
  static uint16_t add(uint16_t a, uint16_t b) {
    double s = value(a) + value(b);
    if (std::isnan(s)) return kNaN;
    return static_cast<uint16_t>(numeric::cvt_float(F, numeric::kF64, std::bit_cast<uint64_t>(s), {}));
  }
  // min/max as min.f16/max.f16 (§9.7.4.7, §9.7.4.8): a NaN operand yields the other, two NaNs
  // the canonical NaN; -0.0 orders below +0.0.
  template <bool kMax>
  static uint16_t minmax(uint16_t a, uint16_t b) {
    return static_cast<uint16_t>(numeric::minmax(F, kMax, a, b, 0));
  }
};
template <uint16_t (*G)(uint16_t, uint16_t)>
uint64_t half1(uint64_t o, uint64_t b, uint64_t, bool) {
  return G(static_cast<uint16_t>(o), static_cast<uint16_t>(b));
}
template <uint16_t (*G)(uint16_t, uint16_t)>
uint64_t half2(uint64_t o, uint64_t b, uint64_t, bool) {
  uint64_t lo = G(static_cast<uint16_t>(o), static_cast<uint16_t>(b));
  uint64_t hi = G(static_cast<uint16_t>(o >> 16), static_cast<uint16_t>(b >> 16));
  return lo | hi << 16;
}

// op.aux2 layout: the instruction's space, the element count, and flags.
constexpr uint64_t kCountShift = 8, kHasDest = 1u << 16, kCas = 1u << 17;

const Arg& element(const Arg& a, uint32_t i) { return a.kind == ArgKind::Vector ? a.elems[i] : a; }

// The space an atomic access of `size` bytes at `addr` resolves to (§6.4.1.1); faults unless
// .global or .shared (§9.7.13.5).
Space atomic_space(Warp& w, Space space, uint64_t addr, uint32_t size, int l) {
  Space where = mem::resolve(space, addr).space;
  if (where != Space::Global && where != Space::Shared) {
    w.fault_lane = l;
    throw GuestFault{GuestFault::Kind::Invalid, where, addr, size,
                     std::string("atomic operation on ") + mem::to_string(where) +
                         " memory (§9.7.13.5: only .global and .shared)"};
  }
  return where;
}

// atom d, [a], b{, c} and red [a], b for `n` elements of host type T.
template <typename T>
void atomic(Warp& w, const Op& op, uint32_t m) {
  auto combine = reinterpret_cast<Combine>(op.aux);
  const bool add = combine == &op_add;  // integer add (truncated to T)
  bool has_dest = op.aux2 & kHasDest, cas = op.aux2 & kCas;
  auto space = static_cast<Space>(op.aux2 & 0xff);
  auto n = static_cast<uint32_t>((op.aux2 >> kCountShift) & 0xff);
  const Arg& d = op.args[0];
  const Arg& a = op.args[has_dest ? 1 : 0];
  const Arg& b = op.args[has_dest ? 2 : 1];
  auto update = [&](uint8_t* p, uint64_t bv, uint64_t cv, bool global) {
    std::atomic_ref<T> ref(*reinterpret_cast<T*>(p));
    if (add) return ref.fetch_add(static_cast<T>(bv));  // the same update in one host instruction
    T old = ref.load();
    while (!ref.compare_exchange_weak(old, static_cast<T>(combine(old, bv, cv, global)))) {
    }
    return old;
  };
  if (n == 1 && !cas && exec::plain(b) && (!has_dest || d.kind == ArgKind::Reg)) {
    // The common case at once: every lane's element inside one device allocation or the CTA's
    // shared memory (so valid), b read for the whole warp before d is written (d may name b's
    // register).
    uint64_t addr[32];
    for (int l = 0; l < 32; ++l) addr[l] = w.address(a, l);
    if (const Warp::Span s = w.span(space, m, addr, sizeof(T)); s.data) {
      T bv[32];
      w.gather(b, bv);
      const bool global = s.data != w.shared_data;
      for_lanes(m, [&](int l) {
        T old = update(s.data + (addr[l] - s.base), bv[l], 0, global);
        if (has_dest) w.slot(d.reg, l) = Warp::to_bits(old);
      });
      return;
    }
  }
  for_lanes(m, [&](int l) {
    uint64_t addr = w.address(a, l);
    Space where = atomic_space(w, space, addr, static_cast<uint32_t>(sizeof(T) * n), l);
    uint8_t* p = w.access(space, addr, static_cast<uint32_t>(sizeof(T) * n), l);
    uint64_t bv[8];  // read before d is written: d may name the registers of b
    for (uint32_t i = 0; i < n; ++i) bv[i] = w.get<T>(element(b, i), l);
    uint64_t cv = cas ? w.get<T>(op.args[3], l) : 0;
    for (uint32_t i = 0; i < n; ++i) {
      T old = update(p + i * sizeof(T), bv[i], cv, where == Space::Global);
      if (has_dest && (n == 1 || d.kind == ArgKind::Vector)) w.set<T>(element(d, i), l, old);
    }
  });
}

// ---- atom.exch.b128, atom.cas.b128 (PTX 8.3, sm_90): 16 bytes, 16-byte aligned; a .b128
// register is two 64-bit slots, low half first (lower.cpp register_decl). Each lane's update is
// one lock-free 16-byte compare-and-swap (x86-64 cmpxchg16b, enabled for this function alone),
// which is sequentially consistent like the other atomics here and atomic with respect to
// them. ----
__extension__ typedef unsigned __int128 u128;
#if defined(__x86_64__)
__attribute__((target("cx16")))
#endif
u128 cas128(u128* p, u128 expected, u128 desired) {
  return __sync_val_compare_and_swap(p, expected, desired);
}

u128 get128(Warp& w, const Arg& a, int l) {
  return u128{w.get<uint64_t>(a.elems[1], l)} << 64 | w.get<uint64_t>(a.elems[0], l);
}

// atom.exch.b128 d, [a], b: d = old, memory = b. atom.cas.b128 d, [a], b, c: d = old, memory =
// old == b ? c : old.
template <bool kCas>
void atomic_b128(Warp& w, const Op& op, uint32_t m) {
  auto space = static_cast<Space>(op.aux2 & 0xff);
  for_lanes(m, [&](int l) {
    uint64_t addr = w.address(op.args[1], l);
    atomic_space(w, space, addr, 16, l);
    // The guest address is 16-byte aligned (access checks it) and so are the host buffers
    // behind every space (operator new), as cmpxchg16b requires.
    auto* p = reinterpret_cast<u128*>(w.access(space, addr, 16, l));
    u128 b = get128(w, op.args[2], l), old;
    if constexpr (kCas) {
      old = cas128(p, b, get128(w, op.args[3], l));
    } else {
      old = cas128(p, 0, 0);  // an atomic read
      for (u128 seen; (seen = cas128(p, old, b)) != old;) old = seen;
    }
    w.set<uint64_t>(op.args[0].elems[0], l, static_cast<uint64_t>(old));
    w.set<uint64_t>(op.args[0].elems[1], l, static_cast<uint64_t>(old >> 64));
  });
}

bool is_b128(const Arg& a) {
  return a.kind == ArgKind::Vector && a.elems.size() == 2 && a.elems[0].kind == ArgKind::Reg &&
         a.elems[1].kind == ArgKind::Reg;
}

// The combine function for an operation and type the row allows, or null.
Combine combine_for(const std::string& o, const std::string& t) {
  using F16 = Half<numeric::kF16>;
  using BF16 = Half<numeric::kBF16>;
  if (o == ".and") return op_and;
  if (o == ".or") return op_or;
  if (o == ".xor") return op_xor;
  if (o == ".exch") return op_exch;
  if (o == ".cas") return t == ".b16" ? op_cas<uint16_t> : t == ".b32" ? op_cas<uint32_t> : op_cas<uint64_t>;
  if (o == ".inc") return op_inc;
  if (o == ".dec") return op_dec;
  if (o == ".add") {
    if (t == ".f32") return add_f32;
    if (t == ".f64") return add_f64;
    if (t == ".f16") return half1<F16::add>;
    if (t == ".bf16") return half1<BF16::add>;
    if (t == ".f16x2") return half2<F16::add>;
    if (t == ".bf16x2") return half2<BF16::add>;
    return op_add;
  }
  bool max = o == ".max";
  if (t == ".u32") return max ? op_minmax<uint32_t, true> : op_minmax<uint32_t, false>;
  if (t == ".s32") return max ? op_minmax<int32_t, true> : op_minmax<int32_t, false>;
  if (t == ".u64") return max ? op_minmax<uint64_t, true> : op_minmax<uint64_t, false>;
  if (t == ".s64") return max ? op_minmax<int64_t, true> : op_minmax<int64_t, false>;
  if (t == ".f16") return max ? half1<F16::minmax<true>> : half1<F16::minmax<false>>;
  if (t == ".bf16") return max ? half1<BF16::minmax<true>> : half1<BF16::minmax<false>>;
  if (t == ".f16x2") return max ? half2<F16::minmax<true>> : half2<F16::minmax<false>>;
  if (t == ".bf16x2") return max ? half2<BF16::minmax<true>> : half2<BF16::minmax<false>>;
  return nullptr;
}

template <bool kAtom>
bool select_atomic(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type"), o = axis(b, "op"), ss = axis(b, "space"), vec = axis(b, "vec");
  Space space = ss.empty() ? Space::Generic : ss.rfind(".global", 0) == 0 ? Space::Global : Space::Shared;
  if (t == ".b128") {
    if (!kAtom || (o != ".exch" && o != ".cas")) return unsupported(why, o + ".b128");
    for (size_t i : {size_t{0}, size_t{2}, size_t{3}})
      if (i < op.args.size() && !is_b128(op.args[i]))
        return unsupported(why, ".b128 atomics take .b128 registers");
    op.aux2 = static_cast<uint64_t>(space);
    op.fn = o == ".cas" ? &atomic_b128<true> : &atomic_b128<false>;
    return true;
  }
  Combine f = combine_for(o, t);
  if (!f) return unsupported(why, o + t);
  uint64_t n = vec == ".v2" ? 2 : vec == ".v4" ? 4 : vec == ".v8" ? 8 : 1;
  op.aux = reinterpret_cast<uint64_t>(f);
  op.aux2 = static_cast<uint64_t>(space) | n << kCountShift | (kAtom ? kHasDest : 0) | (o == ".cas" ? kCas : 0);
  if (t == ".b16" || t == ".f16" || t == ".bf16") op.fn = &atomic<uint16_t>;
  else if (t == ".b64" || t == ".u64" || t == ".s64" || t == ".f64") op.fn = &atomic<uint64_t>;
  else op.fn = &atomic<uint32_t>;
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["atom §9.7.13.5"] = select_atomic<true>;
  r["red §9.7.13.6"] = select_atomic<false>;
});

}  // namespace ptxvm::sem
