// Data movement, PTX §9.7.9 (001_23fdd5978b24a3ed.txt): mov, ld, st, cvta.
#include "exec/engine.h"
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using lower::Arg;
using lower::ArgKind;
using lower::Op;
using mem::Space;

// mov.type d, a (§9.7.9.3): registers, immediates, special registers, addresses of variables.
template <typename T>
struct Mov {
  static void run(Warp& w, const Op& op, uint32_t m) {
    for_lanes(m, [&](int l) { w.set<T>(op.args[0], l, w.get<T>(op.args[1], l)); });
  }
};
void mov_pred(Warp& w, const Op& op, uint32_t m) {
  const Arg& src = op.args[1];
  for_lanes(m, [&](int l) {
    bool v = src.kind == ArgKind::Pred ? w.pred(src, l) : w.get<uint64_t>(src, l) != 0;
    w.set_pred(op.args[0], l, v);
  });
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
  if (ss.rfind(".param", 0) == 0) return Space::Param;
  return Space::Generic;
}

Space effective(const Op& op, const Arg& a) {
  return a.space != Space::Generic ? a.space : static_cast<Space>(op.aux2);
}

// ld/st of one value or a vector of `n` elements of T; the whole access must be aligned to its
// total size (§5.4.5).
template <typename T>
struct Ld {
  static void run(Warp& w, const Op& op, uint32_t m) {
    const Arg& d = op.args[0];
    const Arg& a = op.args[1];
    Space s = effective(op, a);
    uint32_t n = d.kind == ArgKind::Vector ? static_cast<uint32_t>(d.elems.size()) : 1;
    for_lanes(m, [&](int l) {
      uint64_t addr = w.address(a, l);
      const uint8_t* p = w.access(s, addr, static_cast<uint32_t>(sizeof(T) * n), l);
      for (uint32_t i = 0; i < n; ++i) {
        T v;
        std::memcpy(&v, p + i * sizeof(T), sizeof(T));
        const Arg& dst = n == 1 ? d : d.elems[i];
        // Sub-word loads into wider registers sign- or zero-extend (§9.7.9.8 relaxed typing).
        if constexpr (std::is_signed_v<T>) w.set<int64_t>(dst, l, v);
        else w.set<T>(dst, l, v);
      }
    });
  }
};
template <typename T>
struct St {
  static void run(Warp& w, const Op& op, uint32_t m) {
    const Arg& a = op.args[0];
    const Arg& v = op.args[1];
    Space s = effective(op, a);
    uint32_t n = v.kind == ArgKind::Vector ? static_cast<uint32_t>(v.elems.size()) : 1;
    for_lanes(m, [&](int l) {
      uint64_t addr = w.address(a, l);
      uint8_t* p = w.access(s, addr, static_cast<uint32_t>(sizeof(T) * n), l);
      for (uint32_t i = 0; i < n; ++i) {
        T x = w.get<T>(n == 1 ? v : v.elems[i], l);
        std::memcpy(p + i * sizeof(T), &x, sizeof(T));
      }
    });
  }
};

// cvta (§9.7.9.20): aux2 holds the space; aux bit 0: to generic (else from generic), bit 1:
// 32-bit addresses.
void cvta(Warp& w, const Op& op, uint32_t m) {
  static constexpr uint64_t kWindow[] = {0, 0, mem::kSharedWindow, mem::kLocalWindow,
                                         mem::kConstWindow, mem::kParamWindow};
  uint64_t window = kWindow[op.aux2];
  bool to_generic = op.aux & 1;
  uint64_t mask = (op.aux & 2) ? 0xffffffffu : ~uint64_t{0};
  for_lanes(m, [&](int l) {
    uint64_t a = w.get<uint64_t>(op.args[1], l);
    uint64_t r = to_generic ? a + window : (window && a >= window ? a - window : a);
    w.set<uint64_t>(op.args[0], l, r & mask);
  });
}

bool select_mov(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  if (t == ".pred") {
    op.fn = &mov_pred;
    return true;
  }
  bool vector = op.args[0].kind == ArgKind::Vector || op.args[1].kind == ArgKind::Vector;
  if (vector) {
    op.aux = t == ".b16" ? 16 : t == ".b32" ? 32 : t == ".b64" ? 64 : 0;
    op.fn = &mov_pack;
    return op.aux || unsupported(why, "mov" + t + " with vector operands");
  }
  op.fn = by_bits<Mov>(t);
  return op.fn || unsupported(why, "mov" + t);
}

template <template <typename> class H>
bool select_memory(const isa::Bound& b, Op& op, std::string& why) {
  std::string t = axis(b, "type");
  if (t == ".b128") return unsupported(why, ".b128 accesses");
  op.aux2 = static_cast<uint64_t>(space_for(b));
  op.fn = by_bits<H>(t);
  return op.fn || unsupported(why, t);
}

bool select_cvta(const isa::Bound& b, Op& op, std::string&) {
  op.aux2 = static_cast<uint64_t>(space_for(b, "space"));
  op.aux = (b.value("to") ? 0 : 1) | (axis(b, "size") == ".u32" ? 2 : 0);
  op.fn = &cvta;
  return true;
}

}  // namespace

void register_data(Registry& r) {
  r["mov §9.7.9.3"] = select_mov;
  r["mov §9.7.9.4"] = select_mov;
  r["ld §9.7.9.8"] = select_memory<Ld>;
  r["ld.global.nc §9.7.9.9"] = select_memory<Ld>;
  r["ldu §9.7.9.10"] = select_memory<Ld>;
  r["st §9.7.9.11"] = select_memory<St>;
  r["cvta §9.7.9.20"] = select_cvta;
}

}  // namespace ptxvm::sem
