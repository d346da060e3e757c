// Warp-synchronous operations (001_23fdd5978b24a3ed.txt): bar.warp.sync §9.7.13.2, shfl.sync
// §9.7.9.6, vote.sync §9.7.13.9, match.sync §9.7.13.10, activemask §9.7.13.11, redux.sync
// §9.7.13.12, elect.sync §9.7.13.14.
#include <bit>
#include <cmath>

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

// A .sync operation waits for every non-exited lane of its member mask: returns false, parking
// the lanes at this op, until they all stand at it together.
bool converge(Warp& w, uint32_t member) {
  uint32_t missing = member & w.alive & ~w.exited & ~w.group;
  if (!missing) return true;
  for_lanes(w.group, [&](int l) { w.pc[l] = w.current_pc; });
  w.sync_waiting |= w.group;
  return false;
}

// Each lane names its own membermask (tiles of one warp name different ones): the operation
// waits for the union, and each lane's result covers the lanes of its own mask.
uint32_t membermask(Warp& w, const Arg& a, uint32_t m) {
  uint32_t all = 0;
  for_lanes(m, [&](int l) { all |= w.get<uint32_t>(a, l); });
  return all;
}
uint32_t lane_members(Warp& w, const Arg& a, int lane, uint32_t m) { return w.get<uint32_t>(a, lane) & m; }

// `d` or the pair `d|p`: writes d (unless `_`) and p.
void set_pair(Warp& w, const Arg& dst, int l, uint32_t d, bool p) {
  if (dst.kind != ArgKind::Vector) return w.set<uint32_t>(dst, l, d);
  w.set<uint32_t>(dst.elems[0], l, d);
  w.set_pred(dst.elems[1], l, p);
}

// bar.warp.sync membermask (§9.7.13.2) waits for the lanes of the mask to execute a
// bar.warp.sync, not necessarily this one: a lane that stands at another bar.warp.sync (its
// guard true) has arrived too, and is released past it with this group.
void bar_warp_sync(Warp& w, const Op& op, uint32_t m) {
  uint32_t member = membermask(w, op.args[0], m);
  uint32_t elsewhere = 0;
  for_lanes(member & w.alive & ~w.exited & ~w.group, [&](int l) {
    const Op& other = w.program->ops[w.pc[l]];
    bool guard = other.guard == lower::kNoReg || (((w.preds[other.guard] >> l) & 1u) != other.guard_negated);
    if (other.fn == &bar_warp_sync && guard) elsewhere |= 1u << l;
  });
  if (!converge(w, member & ~elsewhere)) return;
  for_lanes(elsewhere, [&](int l) { w.pc[l] += 1; });
  w.sync_waiting &= ~elsewhere;
}

// shfl.sync.mode.b32 d[|p], a, b, c, membermask, as the pseudo-code of §9.7.9.6 (an H200
// agrees on every lane of the 100 (b, c) pairs per mode of tests/sem/warp_test.cpp); aux: mode
// 0 up, 1 down, 2 bfly, 3 idx. A source lane that does not run the op supplies its register
// as it stands (the ISA leaves that value undefined).
void shfl(Warp& w, const Op& op, uint32_t m) {
  if (!converge(w, membermask(w, op.args[4], m))) return;
  uint32_t source[32];
  for (int l = 0; l < 32; ++l) source[l] = w.get<uint32_t>(op.args[1], l);
  for_lanes(m, [&](int lane) {
    int bval = static_cast<int>(w.get<uint32_t>(op.args[2], lane) & 0x1f);
    uint32_t c = w.get<uint32_t>(op.args[3], lane);
    int cval = static_cast<int>(c & 0x1f), segmask = static_cast<int>((c >> 8) & 0x1f);
    int max_lane = (lane & segmask) | (cval & ~segmask), min_lane = lane & segmask;
    int j = 0;
    bool pval = false;
    switch (op.aux) {
    case 0: j = lane - bval; pval = j >= max_lane; break;
    case 1: j = lane + bval; pval = j <= max_lane; break;
    case 2: j = lane ^ bval; pval = j <= max_lane; break;
    default: j = min_lane | (bval & ~segmask); pval = j <= max_lane; break;
    }
    if (!pval) j = lane;
    set_pair(w, op.args[0], lane, source[j], pval);
  });
}

// vote.sync.mode d, p, membermask (§9.7.13.9); aux: 0 all, 1 any, 2 uni, 3 ballot.
void vote(Warp& w, const Op& op, uint32_t m) {
  if (!converge(w, membermask(w, op.args[2], m))) return;
  uint32_t ballot = 0;
  for_lanes(m, [&](int l) {
    if (w.pred(op.args[1], l)) ballot |= 1u << l;
  });
  for_lanes(m, [&](int l) {
    uint32_t lanes = lane_members(w, op.args[2], l, m), b = ballot & lanes;
    bool all = b == lanes, any = b != 0, uni = all || !any;
    if (op.aux == 3) w.set<uint32_t>(op.args[0], l, b);
    else w.set_pred(op.args[0], l, op.aux == 0 ? all : op.aux == 1 ? any : uni);
  });
}

// match.{any,all}.sync.type d[|p], a, membermask (§9.7.13.10); aux: 1 for .all.
template <typename T>
void match(Warp& w, const Op& op, uint32_t m) {
  if (!converge(w, membermask(w, op.args[2], m))) return;
  T value[32] = {};
  for_lanes(m, [&](int l) { value[l] = w.get<T>(op.args[1], l); });
  for_lanes(m, [&](int l) {
    uint32_t lanes = lane_members(w, op.args[2], l, m);
    uint32_t same = 0;
    for_lanes(lanes, [&](int k) {
      if (value[k] == value[l]) same |= 1u << k;
    });
    if (op.aux == 0) set_pair(w, op.args[0], l, same, false);
    else set_pair(w, op.args[0], l, same == lanes ? lanes : 0, same == lanes);
  });
}

void activemask(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) { w.set<uint32_t>(op.args[0], l, w.group); });
}

// redux.sync.op.type d, a, membermask (§9.7.13.12) over the lanes of the mask that run it:
// `fold(lanes)` gives the result every lane receives.
template <typename T, typename F>
void reduce(Warp& w, const Op& op, uint32_t m, F fold) {
  if (!converge(w, membermask(w, op.args[2], m))) return;
  uint32_t folded_lanes = 0;
  T r{};
  for_lanes(m, [&](int l) {
    uint32_t lanes = lane_members(w, op.args[2], l, m);
    if (lanes != folded_lanes || !folded_lanes) r = fold(lanes), folded_lanes = lanes;
    w.set<T>(op.args[0], l, r);
  });
}
template <typename T, int kOp>  // 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor
void redux(Warp& w, const Op& op, uint32_t m) {
  reduce<T>(w, op, m, [&](uint32_t lanes) {
    T acc = w.get<T>(op.args[1], std::countr_zero(lanes));
    for_lanes(lanes & (lanes - 1), [&](int l) {
      T x = w.get<T>(op.args[1], l);
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
// .f32 min/max: +0.0 > -0.0; .abs takes magnitudes; with .NaN any NaN input gives the
// canonical NaN, without it NaNs are skipped and only all-NaN inputs give the canonical NaN.
template <bool kMax, bool kAbs, bool kNaN>
void redux_f32(Warp& w, const Op& op, uint32_t m) {
  constexpr uint32_t kCanonical = 0x7fffffffu;
  reduce<uint32_t>(w, op, m, [&](uint32_t lanes) {
    uint32_t acc = kCanonical;
    bool any_nan = false, have = false;
    for_lanes(lanes, [&](int l) {
      uint32_t x = w.get<uint32_t>(op.args[1], l);
      if (kAbs) x &= 0x7fffffffu;
      float a = std::bit_cast<float>(acc), b = std::bit_cast<float>(x);
      if (std::isnan(b)) {
        any_nan = true;
      } else if (!have) {
        acc = x, have = true;
      } else if (a == b ? (kMax ? std::signbit(a) && !std::signbit(b) : !std::signbit(a) && std::signbit(b))
                        : (kMax ? b > a : b < a)) {
        acc = x;
      }
    });
    return kNaN && any_nan ? kCanonical : acc;
  });
}

// elect.sync d|p, membermask (§9.7.13.14): the lowest lane of the mask that runs the op leads,
// as on an H200; the same mask elects the same leader every time.
void elect(Warp& w, const Op& op, uint32_t m) {
  if (!converge(w, membermask(w, op.args[1], m))) return;
  for_lanes(m, [&](int l) {
    uint32_t lanes = lane_members(w, op.args[1], l, m);
    int leader = lanes ? std::countr_zero(lanes) : -1;
    set_pair(w, op.args[0], l, static_cast<uint32_t>(leader), l == leader);
  });
}

template <bool kMax>
lower::Handler redux_f32_for(bool abs, bool nan) {
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

void register_warp(Registry& r) {
  r["bar.warp.sync §9.7.13.2"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &bar_warp_sync;
    return true;
  };
  r["shfl.sync §9.7.9.6"] = [](const isa::Bound& b, Op& op, std::string&) {
    std::string mode = axis(b, "mode");
    op.aux = mode == ".up" ? 0 : mode == ".down" ? 1 : mode == ".bfly" ? 2 : 3;
    op.fn = &shfl;
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
}

}  // namespace ptxvm::sem
