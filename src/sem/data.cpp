// Data movement, PTX §9.7.9 (001_23fdd5978b24a3ed.txt): mov, ld, ld.global.nc, ldu, st,
// prefetch, prefetchu, applypriority, discard, createpolicy, isspacep, cvta.
//
// Cache operators (.ca .cg .cs .lu .cv .wb .wt), eviction priorities, .L2::cache_hint policies
// and .L2::64B/128B/256B prefetch sizes are performance hints: there is no cache here, so they
// do not change results (§9.7.9.8: "a hint ... does not change the memory consistency
// behavior"). .mmio accesses are ordinary memory accesses of the guest address space.
#include <atomic>
#include <cstring>
#include <string>

#include "exec/engine.h"
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Arg;
using program::ArgKind;
using program::Op;
using mem::Space;

// mov.type d, a (§9.7.9.3): registers, immediates, special registers, addresses of variables.
template <typename T>
struct Mov {
  static void run(Warp& w, const Op& op, uint32_t m) {
    w.lanewise<T>(m, op.args[0], [](T a) { return a; }, op.args[1]);
  }
};
void mov_pred(Warp& w, const Op& op, uint32_t m) {
  const Arg& src = op.args[1];
  if (src.kind == ArgKind::Pred) return w.set_preds(op.args[0], m, w.pred_bits(src));
  for_lanes(m, [&](int l) { w.set_pred(op.args[0], l, w.get<uint64_t>(src, l) != 0); });
}

// mov.bN pack/unpack (§9.7.9.4): {a, b} ▶ d joins elements, lowest first; d ▶ {a, b} splits.
void mov_pack(Warp& w, const Op& op, uint32_t m) {
  const Arg& d = op.args[0];
  const Arg& s = op.args[1];
  uint32_t total = static_cast<uint32_t>(op.aux);  // bits of the whole value
  if (s.kind == ArgKind::Vector) {
    uint32_t each = total / static_cast<uint32_t>(s.elems.size());
    for_lanes(m, [&](int l) {
      uint64_t v = 0;
      for (size_t i = 0; i < s.elems.size(); ++i) {
        uint64_t e = w.get<uint64_t>(s.elems[i], l);
        if (each < 64) e &= (uint64_t{1} << each) - 1;
        v |= e << (each * i);
      }
      w.set<uint64_t>(d, l, total == 64 ? v : v & ((uint64_t{1} << total) - 1));
    });
    return;
  }
  uint32_t each = total / static_cast<uint32_t>(d.elems.size());
  for_lanes(m, [&](int l) {
    uint64_t v = w.get<uint64_t>(s, l);
    for (size_t i = 0; i < d.elems.size(); ++i) {
      uint64_t e = each < 64 ? (v >> (each * i)) & ((uint64_t{1} << each) - 1) : v;
      if (d.elems[i].kind == ArgKind::Reg) w.slot(d.elems[i].reg, l) = e;
    }
  });
}

// The state space an address operand refers to: the variable's own space when it names one,
// else the instruction's `.ss` qualifier (generic when absent).
Space space_for(const isa::Bound& b, std::string_view axis_name = "ss") {
  std::string ss = axis(b, axis_name);
  if (b.family->mnemonic == "ld.global.nc") return Space::Global;
  if (ss.rfind(".global", 0) == 0) return Space::Global;
  if (ss.rfind(".shared", 0) == 0) return Space::Shared;
  if (ss.rfind(".local", 0) == 0) return Space::Local;
  if (ss.rfind(".const", 0) == 0) return Space::Const;
  if (ss == ".param::func") return Space::Local;
  if (ss.rfind(".param", 0) == 0) return Space::Param;
  return Space::Generic;
}

// Lowering keeps kernel parameters in the parameter buffer and a device function's parameters
// (and call arguments declared in a body) in the thread's local frame. A register address in
// .param::func is thus local; in plain .param it means ::func inside a device function and
// ::entry (kernel parameters) inside a kernel (§9.7.9.8). op.aux: 1 for plain .param.
Space effective(Warp& w, const Op& op, const Arg& a) {
  if (a.space != Space::Generic) return a.space;
  if (op.aux == 1 && !w.program->functions[op.function].is_entry) return Space::Local;
  return static_cast<Space>(op.aux2);
}

// The address operand's value for all 32 lanes (Warp::address).
[[gnu::always_inline]] inline void lane_addresses(const Warp& w, const Arg& a, uint64_t (&addr)[32]) {
  if (a.reg == program::kNoReg) {
    for (int l = 0; l < 32; ++l) addr[l] = a.imm;
  } else {
    const uint64_t* r = &w.regs[size_t{a.reg} * 32];
    const uint64_t mask = a.narrow ? 0xffffffffu : ~uint64_t{0};  // a 32-bit register wraps (Arg::narrow)
    for (int l = 0; l < 32; ++l) addr[l] = (r[l] + a.imm) & mask;
  }
}

// Whether the 32 lanes access consecutive elements of `size` bytes (addr[l] = addr[0] + l·size):
// the coalesced access of most kernels, which then copies as one block.
[[gnu::always_inline]] inline bool consecutive(const uint64_t (&addr)[32], uint32_t size) {
  uint64_t differ = 0;
  for (int l = 0; l < 32; ++l) differ |= addr[l] ^ (addr[0] + uint64_t(l) * size);
  return differ == 0;
}

// One element of an access. A strong access (.volatile, .relaxed, .acquire, .release, .mmio)
// is a host atomic, so that CTAs on other host threads observe it whole and in order (§8);
// a weak one is a plain copy.
template <typename T, bool kStrong>
T read(const uint8_t* p) {
  T v;
  if constexpr (kStrong) v = std::atomic_ref<T>(*reinterpret_cast<T*>(const_cast<uint8_t*>(p))).load();
  else std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T, bool kStrong>
void write(uint8_t* p, T v) {
  if constexpr (kStrong) std::atomic_ref<T>(*reinterpret_cast<T*>(p)).store(v);
  else std::memcpy(p, &v, sizeof(T));
}

// ld/st of one value or a vector of `n` elements of T; the whole access must be aligned to its
// total size (§5.4.5).
template <typename T, bool kStrong>
struct Load {
  static void run(Warp& w, const Op& op, uint32_t m) {
    const Arg& d = op.args[0];
    const Arg& a = op.args[1];
    Space s = effective(w, op, a);
    uint32_t n = d.kind == ArgKind::Vector ? static_cast<uint32_t>(d.elems.size()) : 1;
    if (d.kind == ArgKind::Reg) {
      // One register: written directly, sign- or zero-extended (§9.7.9.8 relaxed typing).
      uint64_t* out = &w.regs[size_t{d.reg} * 32];
      auto extend = [](T v) {
        if constexpr (std::is_signed_v<T>) return Warp::to_bits(int64_t{v});
        else return Warp::to_bits(v);
      };
      if (a.reg == program::kNoReg && !kStrong && s != Space::Local && s != Space::Generic) {
        // A constant address in a space all lanes share: one access, which faults (if it does)
        // as the first lane's would, gives every lane its value.
        uint64_t v = extend(read<T, false>(w.access(s, a.imm, sizeof(T), std::countr_zero(m))));
        exec::for_lanes_dense(m, [&](int l) { out[l] = v; });
        return;
      }
      uint64_t addr[32];
      lane_addresses(w, a, addr);
      if (const Warp::Span g = w.span(s, m, addr, sizeof(T)); g.data) {
        if (!kStrong && m == ~0u && consecutive(addr, sizeof(T))) {
          T v[32];
          std::memcpy(v, g.data + (addr[0] - g.base), sizeof v);
          for (int l = 0; l < 32; ++l) out[l] = extend(v[l]);
          return;
        }
        exec::for_lanes_dense(m, [&](int l) { out[l] = extend(read<T, kStrong>(g.data + (addr[l] - g.base))); });
      } else {
        for_lanes(m, [&](int l) { out[l] = extend(read<T, kStrong>(w.access(s, addr[l], sizeof(T), l))); });
      }
      return;
    }
    for_lanes(m, [&](int l) {
      uint64_t addr = w.address(a, l);
      const uint8_t* p = w.access(s, addr, static_cast<uint32_t>(sizeof(T) * n), l);
      for (uint32_t i = 0; i < n; ++i) {
        T v = read<T, kStrong>(p + i * sizeof(T));
        const Arg& dst = d.kind == ArgKind::Vector ? d.elems[i] : d;  // Triton writes `{ %r1 }`
        // Sub-word loads into wider registers sign- or zero-extend (§9.7.9.8 relaxed typing).
        if constexpr (std::is_signed_v<T>) w.set<int64_t>(dst, l, v);
        else w.set<T>(dst, l, v);
      }
    });
  }
};
template <typename T, bool kStrong>
struct Store {
  static void run(Warp& w, const Op& op, uint32_t m) {
    const Arg& a = op.args[0];
    const Arg& v = op.args[1];
    Space s = effective(w, op, a);
    uint32_t n = v.kind == ArgKind::Vector ? static_cast<uint32_t>(v.elems.size()) : 1;
    if (exec::plain(v)) {  // one register or immediate: its 32 values read at once
      T vals[32];
      w.gather(v, vals);
      uint64_t addr[32];
      lane_addresses(w, a, addr);
      if (const Warp::Span g = w.span(s, m, addr, sizeof(T)); g.data) {
        if (!kStrong && m == ~0u && consecutive(addr, sizeof(T))) {
          std::memcpy(g.data + (addr[0] - g.base), vals, sizeof vals);
          return;
        }
        exec::for_lanes_dense(m, [&](int l) { write<T, kStrong>(g.data + (addr[l] - g.base), vals[l]); });
      } else {
        for_lanes(m, [&](int l) { write<T, kStrong>(w.access(s, addr[l], sizeof(T), l), vals[l]); });
      }
      return;
    }
    for_lanes(m, [&](int l) {
      uint64_t addr = w.address(a, l);
      uint8_t* p = w.access(s, addr, static_cast<uint32_t>(sizeof(T) * n), l);
      for (uint32_t i = 0; i < n; ++i)
        write<T, kStrong>(p + i * sizeof(T), w.get<T>(v.kind == ArgKind::Vector ? v.elems[i] : v, l));
    });
  }
};
template <typename T> using Ld = Load<T, false>;
template <typename T> using LdStrong = Load<T, true>;
template <typename T> using St = Store<T, false>;
template <typename T> using StStrong = Store<T, true>;

// cvta (§9.7.9.20): aux2 holds the space; aux bit 0: to generic (else from generic), bit 1:
// 32-bit addresses. cvta.param{::entry} converts kernel parameter addresses (the launch's
// parameter buffer behind kParamWindow); "operand a must be a kernel parameter address,
// otherwise the behavior is undefined": an address past the buffer is reported. A device
// function's parameter whose address mov takes lives in the thread's frame, a .local address
// (§5.1.6.4), which cvta.local converts.
void cvta(Warp& w, const Op& op, uint32_t m) {
  static constexpr uint64_t kWindow[] = {0, 0, mem::kSharedWindow, mem::kLocalWindow,
                                         mem::kConstWindow, mem::kParamWindow};
  uint64_t window = kWindow[op.aux2];
  bool to_generic = op.aux & 1;
  bool param = static_cast<Space>(op.aux2) == Space::Param;
  uint64_t mask = (op.aux & 2) ? 0xffffffffu : ~uint64_t{0};
  // No check: a plain conversion, one loop per case so that each is simple.
  if (to_generic && !param)
    return w.lanewise<uint64_t>(m, op.args[0], [=](uint64_t a) { return (a + window) & mask; }, op.args[1]);
  if (!to_generic && !window)  // global addresses are generic addresses
    return w.lanewise<uint64_t>(m, op.args[0], [=](uint64_t a) { return a & mask; }, op.args[1]);
  if (!to_generic)
    return w.lanewise<uint64_t>(m, op.args[0], [=](uint64_t a) { return (a >= window ? a - window : a) & mask; },
                                op.args[1]);
  for_lanes(m, [&](int l) {  // cvta.param to generic: each address checked
    uint64_t a = w.get<uint64_t>(op.args[1], l);
    if (a > w.launch->params.bytes.size())
      w.undefined(l, "cvta.param of an address that is not a kernel parameter address (undefined, "
                     "PTX §9.7.9.20; a device function's parameter is .local: §5.1.6.4)");
    w.set<uint64_t>(op.args[0], l, (a + window) & mask);
  });
}

// mov.b128 (§9.7.9.4): the two 64-bit halves, low first.
void mov_b128(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    uint64_t lo = w.get<uint64_t>(op.args[1].elems[0], l), hi = w.get<uint64_t>(op.args[1].elems[1], l);
    w.set<uint64_t>(op.args[0].elems[0], l, lo);
    w.set<uint64_t>(op.args[0].elems[1], l, hi);
  });
}

bool select_mov(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  if (t == ".pred") {
    op.fn = &mov_pred;
    return true;
  }
  // A .b128 register is two 64-bit slots, low half first (lower.cpp register_decl): the operand
  // arrives as a vector of two, and so does the {lo, hi} brace form.
  if (t == ".b128") {
    if (op.args[0].elems.size() != 2 || op.args[1].elems.size() != 2)
      return unsupported(why, "mov.b128 operands other than .b128 registers or {lo, hi} pairs");
    op.fn = &mov_b128;
    return true;
  }
  bool vector = op.args[0].kind == ArgKind::Vector || op.args[1].kind == ArgKind::Vector;
  if (vector) {
    op.aux = t == ".b16" ? 16 : t == ".b32" ? 32 : 64;
    op.fn = &mov_pack;
    return true;
  }
  op.fn = by_bits<Mov>(t);
  return op.fn || unsupported(why, "mov" + t);
}

template <template <typename> class H, template <typename> class Strong>
bool select_memory(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type"), sem = axis(b, "sem");
  if (t == ".b128") {  // two 64-bit slots per register, one 16-byte aligned access
    if (b.value("sem") && sem != ".weak") return unsupported(why, "strong .b128 accesses");
    if (b.value("vec")) return unsupported(why, "vectors of .b128");
    op.aux2 = static_cast<uint64_t>(space_for(b));
    op.aux = axis(b, "ss") == ".param" ? 1 : 0;
    op.fn = &H<uint64_t>::run;
    return true;
  }
  op.aux2 = static_cast<uint64_t>(space_for(b));
  op.aux = axis(b, "ss") == ".param" ? 1 : 0;
  bool strong = (!sem.empty() && sem != ".weak") || b.value("mmio");
  op.fn = strong ? by_bits<Strong>(t) : by_bits<H>(t);
  return op.fn || unsupported(why, t);
}

// prefetch, prefetchu (§9.7.9.15): a hint that never faults; applypriority (§9.7.9.16) and
// discard (§9.7.9.17) act on a 128-byte line of global memory, checked for bounds and its
// 128-byte alignment. discard leaves the line's data indeterminate: it keeps its bytes.
void line_op(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) { w.access(static_cast<Space>(op.aux2), w.address(op.args[0], l), 128, l); });
}

// createpolicy (§9.7.9.18): the policy is opaque and only steers caches, so any encoding is
// valid. ptxvm's: bits 63:62 the kind (1 fractional, 2 range), 61:59 the primary priority,
// 58:56 the secondary (index in the row's value order, +1), 31:0 the fraction's .f32 bits
// (fractional) or the primary size (range); .cvt passes the access property through.
void createpolicy(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    uint64_t low = 0;
    if (op.aux == 1) low = op.args.size() > 1 ? w.get<uint32_t>(op.args[1], l) : 0x3f800000u;  // 1.0
    else if (op.aux == 2) low = w.get<uint32_t>(op.args[2], l);
    else low = w.get<uint64_t>(op.args[1], l);
    w.set<uint64_t>(op.args[0], l, op.aux == 0 ? low : op.aux << 62 | op.aux2 << 56 | low);
  });
}

// isspacep.space p, a (§9.7.9.19): whether generic address a lies in the space's window; the
// kernel parameter window counts as global too. op.aux: .shared / .shared::cta, whose window is
// the executing CTA's shared memory alone (§5.1.7), not the cluster's.
void isspacep(Warp& w, const Op& op, uint32_t m) {
  static constexpr uint64_t kWindow[] = {0, 0, mem::kSharedWindow, mem::kLocalWindow,
                                         mem::kConstWindow, mem::kParamWindow};
  auto space = static_cast<Space>(op.aux2);
  for_lanes(m, [&](int l) {
    uint64_t a = w.get<uint64_t>(op.args[1], l);
    auto in = [&](Space s) { return a - kWindow[static_cast<size_t>(s)] < mem::kWindowSize && a >= kWindow[static_cast<size_t>(s)]; };
    bool r = space == Space::Global ? !in(Space::Shared) && !in(Space::Local) && !in(Space::Const) : in(space);
    if (r && op.aux)  // another CTA's shared memory is not in the shared::cta window
      r = a - mem::kSharedWindow < uint64_t{1} << 32 && mem::rank_of(a - mem::kSharedWindow) == w.cta->rank;
    w.set_pred(op.args[0], l, r);
  });
}

bool select_cvta(const isa::Bound& b, Op& op, std::string& why) {
  Space space = space_for(b, "space");
  op.aux2 = static_cast<uint64_t>(space);
  op.aux = (b.value("to") ? 0 : 1) | (axis(b, "size") == ".u32" ? 2 : 0);
  // cvta.space p, var: the variable must be in that space (lowering gives a variable operand
  // its space). A device function's .param variables live in the thread's frame (§5.1.6.4).
  const Arg& a = op.args[1];
  if ((op.aux & 1) && (a.kind == ArgKind::Imm || a.kind == ArgKind::Address) && a.space != Space::Generic &&
      a.space != space)
    return unsupported(why, std::string("the variable is in .") + mem::to_string(a.space) + ", not the space of cvta" +
                                (space == Space::Param ? " (a device function's parameter is .local: §5.1.6.4)" : ""));
  op.fn = &cvta;
  return true;
}

void nothing(Warp&, const Op&, uint32_t) {}

// st.bulk{.weak}{.shared::cta} [a], size, 0 (§9.7.9.13): size bytes of shared memory from a set to
// zero. size must be a multiple of 8 and a generic a must lie in the shared window; else undefined.
void st_bulk(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    const uint64_t address = w.address(op.args[0], l), size = w.get<uint64_t>(op.args[1], l);
    const mem::Resolved at = op.aux2 ? mem::Resolved{Space::Shared, mem::shared_offset(address)}  // .shared::cta
                                     : mem::resolve(Space::Generic, address);
    std::string wrong;
    if (size % 8) wrong = "size " + std::to_string(size) + " is not a multiple of 8";
    else if (at.space != Space::Shared) wrong = "the generic address " + std::to_string(address) + " is not in the shared window";
    if (!wrong.empty()) w.undefined(l, "'" + op.text + "': " + wrong + " (undefined, PTX §9.7.9.13)");
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(size, UINT32_MAX));  // beyond shared memory: a fault
    if (n) std::memset(w.access(Space::Shared, at.offset, n, l, false), 0, n);
  });
}

template <uint64_t kKind>
bool select_createpolicy(const isa::Bound& b, Op& op, std::string&) {
  auto index = [&](std::string_view name) -> uint64_t { return static_cast<uint64_t>(b.index(name) + 1); };
  op.aux = kKind;
  op.aux2 = kKind ? index("primary") << 3 | index("secondary") : 0;
  op.fn = &createpolicy;
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["mov §9.7.9.3"] = select_mov;
  r["mov §9.7.9.4"] = select_mov;
  r["ld §9.7.9.8"] = select_memory<Ld, LdStrong>;
  r["ld.global.nc §9.7.9.9"] = select_memory<Ld, LdStrong>;
  r["ldu §9.7.9.10"] = select_memory<Ld, LdStrong>;
  r["st §9.7.9.11"] = select_memory<St, StStrong>;
  auto hint = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &nothing;
    return true;
  };
  r["prefetch §9.7.9.15"] = hint;
  r["st.bulk §9.7.9.13"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.aux2 = b.value("ss") != nullptr;
    op.fn = &st_bulk;
    return true;
  };
  r["prefetchu §9.7.9.15"] = hint;
  auto line = [](const isa::Bound& b, Op& op, std::string&) {
    op.aux2 = static_cast<uint64_t>(space_for(b, "space"));
    op.fn = &line_op;
    return true;
  };
  r["applypriority §9.7.9.16"] = line;
  r["discard §9.7.9.17"] = line;
  r["createpolicy.fractional §9.7.9.18"] = select_createpolicy<1>;
  r["createpolicy.range §9.7.9.18"] = select_createpolicy<2>;
  r["createpolicy.cvt §9.7.9.18"] = select_createpolicy<0>;
  r["isspacep §9.7.9.19"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.aux2 = static_cast<uint64_t>(space_for(b, "space"));
    op.aux = axis(b, "space") == ".shared" || axis(b, "space") == ".shared::cta";
    op.fn = &isspacep;
    return true;
  };
  r["cvta §9.7.9.20"] = select_cvta;
});

}  // namespace ptxvm::sem
