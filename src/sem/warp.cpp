// Warp-synchronous operations (001_23fdd5978b24a3ed.txt): bar.warp.sync §9.7.13.2, shfl.sync
// §9.7.9.6, vote.sync §9.7.13.9, match.sync §9.7.13.10, activemask §9.7.13.11, redux.sync
// §9.7.13.12, elect.sync §9.7.13.14.
//
// Rendezvous (sm_70+): a .sync operation waits until every non-exited thread of its membermask
// "has executed <op>.sync with the same qualifiers and the same membermask" — the same kind of
// operation, not necessarily the same instruction. So lanes that stand at different
// instructions of one kind (the two arms of an if, each with a __shfl_sync over the full warp)
// execute together: each lane reads its own operands and writes its own destinations, and a
// shfl lane receives the value its source lane supplied to that lane's own shfl. Lanes of each
// other's masks waiting at operations of different kinds or qualifiers is undefined and
// reported, as is a lane that is not in its own membermask.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <string>

#include "exec/engine.h"
#include "exec/warp.h"
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

std::string hex(uint32_t v) {
  char buf[16];
  snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// The operations that rendezvous across instructions; the membermask is each one's last operand.
bool collective(const Op& o) {
  if (!o.family) return false;
  const std::string& n = o.family->mnemonic;
  return n == "shfl.sync" || n == "vote.sync" || n == "match.sync" || n == "redux.sync" || n == "elect.sync" ||
         n == "bar.warp.sync";
}
// Same kind and qualifiers: the handler and its load-time constants fix both.
bool same_kind(const Op& a, const Op& b) { return a.fn == b.fn && a.aux == b.aux && a.aux2 == b.aux2; }

bool guard_true(const Warp& w, const Op& o, int l) {
  return o.guard == program::kNoReg || (((w.preds[o.guard] >> l) & 1u) != 0) != o.guard_negated;
}

// The lanes that execute one rendezvous, each at its own instruction with its own membermask
// (op: the instruction that started it for lanes outside it; mask: set for the lanes in it).
struct Rendezvous {
  uint32_t lanes = 0;
  std::array<const Op*, 32> op;
  std::array<uint32_t, 32> mask;
  uint32_t members(int l) const { return mask[l] & lanes; }
};

// Lane `l` names `mask` at `o`: "undefined if the executing thread is not in membermask".
uint32_t checked_mask(Warp& w, const Op& o, int l, uint32_t mask) {
  if (!((mask >> l) & 1u))
    w.undefined(l, "'" + o.text + "': lane " + std::to_string(l) + " is not in its membermask " + hex(mask) +
                        " (undefined, PTX §9.7.13)");
  return mask;
}
uint32_t own_mask(Warp& w, const Op& o, int l) { return checked_mask(w, o, l, w.get<uint32_t>(o.args.back(), l)); }

// Gathers the rendezvous of the lanes `m` running `op` (w.group: the lanes at it, guards
// false included). The lanes their masks name must have arrived: be in the group, have
// exited, or stand (parked or not yet run) at an operation of the same kind with a true guard,
// whose own masks join the wait. Returns false, parking the group at `op`, while one has not;
// the engine retries parked lanes after any other lane of the warp moves.
bool rendezvous(Warp& w, const Op& op, uint32_t m, Rendezvous& r) {
  uint32_t need = 0;
  const Arg& member = op.args.back();
  uint32_t masks[32] = {};
  if (exec::plain(member)) w.gather(member, masks);  // the 32 lanes' masks at once
  else for_lanes(m, [&](int l) { masks[l] = w.get<uint32_t>(member, l); });
  r.op.fill(&op);
  uint32_t outside = 0;  // lanes of m not in their own mask
  for (int l = 0; l < 32; ++l) {  // branch-free so that it vectorises
    const uint32_t in = uint32_t{0} - ((m >> l) & 1u);
    need |= masks[l] & in;
    outside |= ~masks[l] & exec::kLaneBit[l] & in;
  }
  if (outside) checked_mask(w, op, std::countr_zero(outside), masks[std::countr_zero(outside)]);
  std::copy_n(masks, 32, r.mask.begin());
  r.lanes = m;
  for (;;) {
    uint32_t missing = need & w.alive & ~w.exited & ~w.group & ~r.lanes;
    if (!missing) break;
    uint32_t joined = 0;
    for_lanes(missing, [&](int l) {
      if ((w.parked >> l) & 1u) return;
      const Op& other = w.program->ops[w.pc[l]];
      if (!collective(other) || !guard_true(w, other, l)) return;
      uint32_t mask = own_mask(w, other, l);
      if (!same_kind(other, op)) {
        if (mask & r.lanes) {  // each waits for the other
          int k = std::countr_zero(mask & r.lanes);
          w.undefined(l, "lane " + std::to_string(l) + " at line " + std::to_string(other.line) + " ('" +
                              other.text + "') and lane " + std::to_string(k) + " at line " +
                              std::to_string(r.op[k]->line) + " ('" + r.op[k]->text +
                              "') wait for each other at .sync operations of different kinds or "
                              "qualifiers (undefined, PTX §9.7.13)");
        }
        return;
      }
      r.op[l] = &other;
      r.mask[l] = mask;
      joined |= 1u << l;
      need |= mask;
    });
    if (!joined) {  // some lane has not arrived
      for_lanes(w.group, [&](int l) { w.pc[l] = w.current_pc; });
      w.sync_waiting |= w.group;
      return false;
    }
    r.lanes |= joined;
  }
  uint32_t elsewhere = r.lanes & ~w.group;  // they execute their own instruction now
  w.executed_elsewhere(elsewhere);
  for_lanes(elsewhere, [&](int l) { w.pc[l] += 1; });
  w.sync_waiting &= ~elsewhere;
  // the threads meet: what each did before, all see after (§9.7.13.2)
  w.joined(r.lanes, w.race_checked && w.launch->sanitizer->traits(w.current_pc).warp_barrier);
  return true;
}

// `d` or the pair `d|p`: writes d (unless `_`) and p.
void set_pair(Warp& w, const Arg& dst, int l, uint32_t d, bool p) {
  if (dst.kind != ArgKind::Vector) return w.set<uint32_t>(dst, l, d);
  w.set<uint32_t>(dst.elems[0], l, d);
  w.set_pred(dst.elems[1], l, p);
}

// bar.warp.sync membermask (§9.7.13.2): the rendezvous alone.
void bar_warp_sync(Warp& w, const Op& op, uint32_t m) {
  Rendezvous r;
  rendezvous(w, op, m, r);
}

// shfl.sync.mode.b32 d[|p], a, b, c, membermask, as the pseudo-code of §9.7.9.6 (an H200
// agrees on every lane of the 100 (b, c) pairs per mode of tests/sem/warp_test.cpp); aux: mode
// 0 up, 1 down, 2 bfly, 3 idx. A source lane that is not in the rendezvous supplies its
// register a of this instruction as it stands (the ISA leaves that value undefined).
void shfl(Warp& w, const Op& op, uint32_t m) {
  Rendezvous r;
  if (!rendezvous(w, op, m, r)) return;
  // Each lane's operands come from its own instruction; when that is `op` for every lane and
  // they are registers or immediates, they are read for the whole warp at once.
  uint32_t source[32], bs[32], cs[32];
  const bool one_op = r.lanes == m && exec::plain(op.args[1]) && exec::plain(op.args[2]) && exec::plain(op.args[3]);
  if (one_op) {
    w.gather(op.args[1], source);
    w.gather(op.args[2], bs);
    w.gather(op.args[3], cs);
  } else {
    for (int l = 0; l < 32; ++l) source[l] = w.get<uint32_t>(r.op[l]->args[1], l);
    for_lanes(r.lanes, [&](int l) {
      bs[l] = w.get<uint32_t>(r.op[l]->args[2], l);
      cs[l] = w.get<uint32_t>(r.op[l]->args[3], l);
    });
  }
  // The mode is the rendezvous's (same_kind), a template argument of the lane loop.
  uint32_t d[32], p = 0;
  auto each_lane = [&]<int kMode>() {
    exec::for_lanes_dense(r.lanes, [&](int lane) {
      int bval = static_cast<int>(bs[lane] & 0x1f);
      uint32_t c = cs[lane];
      int cval = static_cast<int>(c & 0x1f), segmask = static_cast<int>((c >> 8) & 0x1f);
      int max_lane = (lane & segmask) | (cval & ~segmask), min_lane = lane & segmask;
      int j = 0;
      bool pval = false;
      if constexpr (kMode == 0) j = lane - bval, pval = j >= max_lane;
      else if constexpr (kMode == 1) j = lane + bval, pval = j <= max_lane;
      else if constexpr (kMode == 2) j = lane ^ bval, pval = j <= max_lane;
      else j = min_lane | (bval & ~segmask), pval = j <= max_lane;
      d[lane] = source[pval ? j : lane];
      p |= uint32_t{pval} << lane;
    });
  };
  switch (op.aux) {
  case 0: each_lane.operator()<0>(); break;
  case 1: each_lane.operator()<1>(); break;
  case 2: each_lane.operator()<2>(); break;
  default: each_lane.operator()<3>(); break;
  }
  const Arg& dst = op.args[0];
  const Arg& value = dst.kind == ArgKind::Vector ? dst.elems[0] : dst;
  if (one_op && value.kind == ArgKind::Reg) {  // one instruction's destinations, written at once
    exec::for_lanes_dense(m, [&](int l) { w.slot(value.reg, l) = d[l]; });
    if (dst.kind == ArgKind::Vector) w.set_preds(dst.elems[1], m, p);
    return;
  }
  for_lanes(r.lanes, [&](int l) { set_pair(w, r.op[l]->args[0], l, d[l], (p >> l) & 1u); });
}

// vote.sync.mode d, p, membermask (§9.7.13.9); aux: 0 all, 1 any, 2 uni, 3 ballot.
void vote(Warp& w, const Op& op, uint32_t m) {
  Rendezvous r;
  if (!rendezvous(w, op, m, r)) return;
  uint32_t ballot = 0;
  for_lanes(r.lanes, [&](int l) {
    if (w.pred(r.op[l]->args[1], l)) ballot |= 1u << l;
  });
  for_lanes(r.lanes, [&](int l) {
    uint32_t lanes = r.members(l), b = ballot & lanes;
    bool all = b == lanes, any = b != 0, uni = all || !any;
    const Arg& d = r.op[l]->args[0];
    if (op.aux == 3) w.set<uint32_t>(d, l, b);
    else w.set_pred(d, l, op.aux == 0 ? all : op.aux == 1 ? any : uni);
  });
}

// match.{any,all}.sync.type d[|p], a, membermask (§9.7.13.10); aux: 1 for .all.
template <typename T>
void match(Warp& w, const Op& op, uint32_t m) {
  Rendezvous r;
  if (!rendezvous(w, op, m, r)) return;
  T value[32] = {};
  for_lanes(r.lanes, [&](int l) { value[l] = w.get<T>(r.op[l]->args[1], l); });
  for_lanes(r.lanes, [&](int l) {
    uint32_t lanes = r.members(l);
    uint32_t same = 0;
    for_lanes(lanes, [&](int k) {
      if (value[k] == value[l]) same |= 1u << k;
    });
    const Arg& d = r.op[l]->args[0];
    if (op.aux == 0) set_pair(w, d, l, same, false);
    else set_pair(w, d, l, same == lanes ? lanes : 0, same == lanes);
  });
}

void activemask(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) { w.set<uint32_t>(op.args[0], l, w.group); });
}

// redux.sync.op.type d, a, membermask (§9.7.13.12) over the lanes of the mask in the
// rendezvous: `fold(values, lanes)` gives the result every lane receives.
template <typename T, typename F>
void reduce(Warp& w, const Op& op, uint32_t m, F fold) {
  Rendezvous r;
  if (!rendezvous(w, op, m, r)) return;
  T value[32] = {};
  for_lanes(r.lanes, [&](int l) { value[l] = w.get<T>(r.op[l]->args[1], l); });
  uint32_t folded_lanes = 0;
  T result{};
  for_lanes(r.lanes, [&](int l) {
    uint32_t lanes = r.members(l);
    if (lanes != folded_lanes || !folded_lanes) result = fold(value, lanes), folded_lanes = lanes;
    w.set<T>(r.op[l]->args[0], l, result);
  });
}
template <typename T, int kOp>  // 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor
void redux(Warp& w, const Op& op, uint32_t m) {
  reduce<T>(w, op, m, [](const T* value, uint32_t lanes) {
    T acc = value[std::countr_zero(lanes)];
    for_lanes(lanes & (lanes - 1), [&](int l) {
      T x = value[l];
      switch (kOp) {
      case 0: acc = static_cast<T>(acc + x); break;  // truncated to 32 bits
      case 1: acc = std::min(acc, x); break;
      case 2: acc = std::max(acc, x); break;
      case 3: acc &= x; break;
      case 4: acc |= x; break;
      default: acc ^= x; break;
      }
    });
    return acc;
  });
}
// .f32 min/max (numeric::minmax, as min/max.f32): +0.0 > -0.0; .abs takes magnitudes; with .NaN
// any NaN input gives the canonical NaN, without it NaNs are skipped and only all-NaN inputs give
// the canonical NaN (the first value enters as minmax of itself: canonical if NaN).
template <bool kMax, bool kAbs, bool kNaN>
void redux_f32(Warp& w, const Op& op, uint32_t m) {
  reduce<uint32_t>(w, op, m, [](const uint32_t* value, uint32_t lanes) {
    constexpr uint64_t kFlags = kNaN ? numeric::kNan : 0;
    auto input = [&](int l) -> uint64_t { return kAbs ? value[l] & 0x7fffffffu : value[l]; };
    const uint64_t first = input(std::countr_zero(lanes));
    uint64_t acc = numeric::minmax(numeric::kF32, kMax, first, first, kFlags);
    for_lanes(lanes & (lanes - 1), [&](int l) { acc = numeric::minmax(numeric::kF32, kMax, acc, input(l), kFlags); });
    return static_cast<uint32_t>(acc);
  });
}

// elect.sync d|p, membermask (§9.7.13.14): the lowest lane of the mask in the rendezvous
// leads, as on an H200; the same mask elects the same leader every time.
void elect(Warp& w, const Op& op, uint32_t m) {
  Rendezvous r;
  if (!rendezvous(w, op, m, r)) return;
  for_lanes(r.lanes, [&](int l) {
    uint32_t lanes = r.members(l);
    int leader = lanes ? std::countr_zero(lanes) : -1;
    set_pair(w, r.op[l]->args[0], l, static_cast<uint32_t>(leader), l == leader);
  });
}

template <bool kMax>
program::Handler redux_f32_for(bool abs, bool nan) {
  if (abs) return nan ? &redux_f32<kMax, true, true> : &redux_f32<kMax, true, false>;
  return nan ? &redux_f32<kMax, false, true> : &redux_f32<kMax, false, false>;
}

bool select_redux(const isa::Bound& b, Op& op, std::string& why) {
  std::string o = axis(b, "op"), t = axis(b, "type");
  if (t == ".f32") {
    bool abs = b.value("abs") != nullptr, nan = b.value("nan") != nullptr;
    op.fn = o == ".max" ? redux_f32_for<true>(abs, nan) : redux_f32_for<false>(abs, nan);
    return true;
  }
  bool s = t == ".s32";
  if (o == ".add") op.fn = &redux<uint32_t, 0>;
  else if (o == ".min") op.fn = s ? &redux<int32_t, 1> : &redux<uint32_t, 1>;
  else if (o == ".max") op.fn = s ? &redux<int32_t, 2> : &redux<uint32_t, 2>;
  else if (o == ".and") op.fn = &redux<uint32_t, 3>;
  else if (o == ".or") op.fn = &redux<uint32_t, 4>;
  else if (o == ".xor") op.fn = &redux<uint32_t, 5>;
  return op.fn || unsupported(why, o + t);
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["bar.warp.sync §9.7.13.2"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &bar_warp_sync;
    return true;
  };
  r["shfl.sync §9.7.9.6"] = [](const isa::Bound& b, Op& op, std::string&) {
    std::string mode = axis(b, "mode");
    op.aux = mode == ".up" ? 0 : mode == ".down" ? 1 : mode == ".bfly" ? 2 : 3;
    op.fn = &shfl;
    op.cross_lane = 1u << 1;  // a lane receives its source lane's `a`
    return true;
  };
  r["vote.sync §9.7.13.9"] = [](const isa::Bound& b, Op& op, std::string&) {
    std::string mode = axis(b, "mode");
    op.aux = mode == ".all" ? 0 : mode == ".any" ? 1 : mode == ".uni" ? 2 : 3;
    op.fn = &vote;
    return true;
  };
  r["match.sync §9.7.13.10"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.aux = axis(b, "mode") == ".all" ? 1 : 0;
    op.fn = axis(b, "type") == ".b64" ? &match<uint64_t> : &match<uint32_t>;
    return true;
  };
  r["activemask §9.7.13.11"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &activemask;
    return true;
  };
  r["redux.sync §9.7.13.12"] = select_redux;
  r["elect.sync §9.7.13.14"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &elect;
    return true;
  };
});

}  // namespace ptxvm::sem
