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
#include "numeric/atomic_ops.h"
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
using numeric::Combine;
using numeric::combine_for;

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
  const bool add = combine == &numeric::add_integers;  // integer add (truncated to T)
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
