// Barriers and warp-synchronous operations, PTX §9.7.13 (bar, barrier, bar.warp.sync, vote,
// activemask, membar/fence) and §9.7.9.6 shfl.sync; nanosleep and trap from §9.7.19
// (001_23fdd5978b24a3ed.txt, 000_70a4b524dfe259fa.txt).
#include <atomic>
#include <bit>

#include "exec/engine.h"
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using lower::Op;
using mem::GuestFault;

// bar.sync / barrier.sync a[, b] (§9.7.13.1): the executing threads arrive at barrier `a`
// and wait until `b` threads (all non-exited threads of the CTA when absent) have arrived.
// aux: 1 for arrive (no wait).
void barrier(Warp& w, const Op& op, uint32_t m) {
  int lane = std::countr_zero(m);
  uint32_t id = w.get<uint32_t>(op.args[0], lane);
  if (id >= 16) {
    w.fault_lane = lane;
    throw GuestFault{GuestFault::Kind::Invalid, mem::Space::Generic, id, 0,
                     "barrier id " + std::to_string(id) + " is not in 0..15"};
  }
  exec::Barrier& b = w.cta->barriers[id];
  if (op.args.size() > 1) b.expected = w.get<uint32_t>(op.args[1], lane);
  b.arrived += static_cast<uint32_t>(std::popcount(m));
  if (op.aux == 0) {
    b.waiting[w.index] |= m;
    w.barrier_waiting |= m;
  }
  exec::release_barriers(*w.cta);
}

// A .sync operation waits for every lane of its member mask (§9.7.13.2 and the .sync forms):
// returns false, parking the executing lanes, until they all stand at this op.
bool converge(Warp& w, uint32_t member, uint32_t m) {
  uint32_t missing = member & w.alive & ~w.exited & ~w.group;
  if (!missing) return true;
  for_lanes(w.group, [&](int l) { w.pc[l] = w.current_pc; });
  w.sync_waiting |= w.group;
  (void)m;
  return false;
}

void bar_warp_sync(Warp& w, const Op& op, uint32_t m) {
  converge(w, w.get<uint32_t>(op.args[0], std::countr_zero(m)), m);
}

// shfl.sync.mode.b32 d[|p], a, b, c, membermask (§9.7.9.6); aux: mode 0 up, 1 down, 2 bfly, 3 idx.
void shfl(Warp& w, const Op& op, uint32_t m) {
  int first = std::countr_zero(m);
  if (!converge(w, w.get<uint32_t>(op.args[4], first), m)) return;
  uint32_t values[32];
  for (int l = 0; l < 32; ++l) values[l] = w.slot(op.args[1].kind == lower::ArgKind::Reg ? op.args[1].reg : 0, l);
  if (op.args[1].kind != lower::ArgKind::Reg)
    for_lanes(m, [&](int l) { values[l] = w.get<uint32_t>(op.args[1], l); });
  const lower::Arg& dst = op.args[0];
  bool pair = dst.kind == lower::ArgKind::Vector;
  for_lanes(m, [&](int l) {
    uint32_t b = w.get<uint32_t>(op.args[2], l), c = w.get<uint32_t>(op.args[3], l);
    int max_lane = static_cast<int>(c & 0x1f), seg_mask = static_cast<int>((c >> 8) & 0x1f);
    int min_lane = (l & seg_mask), max_in_seg = min_lane | (max_lane & ~seg_mask);
    int j = 0;
    bool in_range = false;
    switch (op.aux) {
    case 0: j = l - static_cast<int>(b & 0x1f); in_range = j >= max_in_seg; break;
    case 1: j = l + static_cast<int>(b & 0x1f); in_range = j <= max_in_seg; break;
    case 2: j = l ^ static_cast<int>(b & 0x1f); in_range = j <= max_in_seg; break;
    default: j = min_lane | (static_cast<int>(b & 0x1f) & ~seg_mask); in_range = j <= max_in_seg; break;
    }
    if (!in_range) j = l;
    uint32_t v = values[j];
    if (pair) {
      w.set<uint32_t>(dst.elems[0], l, v);
      w.set_pred(dst.elems[1], l, in_range);
    } else {
      w.set<uint32_t>(dst, l, v);
    }
  });
}

// vote.sync.mode d, p, membermask (§9.7.13.9); aux: 0 all, 1 any, 2 uni, 3 ballot.
void vote(Warp& w, const Op& op, uint32_t m) {
  if (!converge(w, w.get<uint32_t>(op.args[2], std::countr_zero(m)), m)) return;
  uint32_t ballot = 0;
  for_lanes(m, [&](int l) {
    if (w.pred(op.args[1], l)) ballot |= 1u << l;
  });
  bool all = ballot == m, any = ballot != 0, uni = all || !any;
  for_lanes(m, [&](int l) {
    if (op.aux == 3) w.set<uint32_t>(op.args[0], l, ballot);
    else w.set_pred(op.args[0], l, op.aux == 0 ? all : op.aux == 1 ? any : uni);
  });
}

void activemask(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) { w.set<uint32_t>(op.args[0], l, w.group); });
}

// CTAs on other host threads see this thread's writes in order (§8: fences order memory).
void fence(Warp&, const Op&, uint32_t) { std::atomic_thread_fence(std::memory_order_seq_cst); }
void nothing(Warp&, const Op&, uint32_t) {}

void trap(Warp& w, const Op&, uint32_t m) {
  w.fault_lane = std::countr_zero(m);
  throw GuestFault{GuestFault::Kind::Trap, mem::Space::Generic, 0, 0, ""};
}

}  // namespace

void register_sync(Registry& r) {
  auto barrier_sel = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &barrier;
    return true;
  };
  auto arrive_sel = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &barrier;
    op.aux = 1;
    return true;
  };
  r["bar.sync §9.7.13.1"] = barrier_sel;
  r["barrier.sync §9.7.13.1"] = barrier_sel;
  r["bar.arrive §9.7.13.1"] = arrive_sel;
  r["barrier.arrive §9.7.13.1"] = arrive_sel;
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
  r["activemask §9.7.13.11"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &activemask;
    return true;
  };
  for (const char* k : {"membar §9.7.13.4", "fence §9.7.13.4"})
    r[k] = [](const isa::Bound&, Op& op, std::string&) {
      op.fn = &fence;
      return true;
    };
  r["nanosleep §9.7.19.2"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &nothing;
    return true;
  };
  r["trap §9.7.19.4"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &trap;
    return true;
  };
}

}  // namespace ptxvm::sem
