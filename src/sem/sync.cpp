// CTA barriers and memory ordering, PTX §9.7.13.1 (bar, barrier), §9.7.13.4 (membar, fence),
// §9.7.13.13 (griddepcontrol);
// brkpt, nanosleep, pmevent and trap from §9.7.19 (001_23fdd5978b24a3ed.txt,
// 000_70a4b524dfe259fa.txt).
#include <atomic>
#include <bit>

#include "exec/engine.h"
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;
using mem::GuestFault;

// op.aux flags of the barrier handler.
constexpr uint64_t kArrive = 1, kReduce = 2, kPredResult = 4;
// op.aux2 of bar.red: the reduction.
enum Red : uint64_t { Popc, And, Or };

// The bar.red result a lane receives: .popc counts true predicates; .and/.or combine them.
uint32_t red_result(const exec::Barrier& b, Red r) {
  switch (r) {
  case Popc: return b.red_count;
  case And: return b.red_count == b.red_arrived;
  default: return b.red_count != 0;
  }
}

// bar.red parks its threads until the barrier completes, and they must then hold the
// reduction over every arrival. The barrier may be completed by any later arrival or by
// threads exiting (control.cpp), so each arrival writes the result so far into the
// destination of every thread parked at the bar.red: when the barrier releases them the last
// write is the complete reduction. A new generation starts when an arrival finds the barrier
// empty.
void deliver(exec::Cta& cta, const exec::Barrier& b) {
  for (size_t i = 0; i < b.red_waiting.size(); ++i) {
    Warp& w = cta.warps[i];
    for_lanes(b.red_waiting[i], [&](int l) {
      const Op& op = w.program->ops[w.pc[l] - 1];  // the lane has moved past its bar.red
      uint32_t r = red_result(b, static_cast<Red>(op.aux2));
      if (op.aux & kPredResult) w.set_pred(op.args[0], l, r != 0);
      else w.set<uint32_t>(op.args[0], l, r);
    });
  }
}

// bar{.cta}.sync / barrier{.cta}.sync a{, b}, bar.arrive a, b, bar.red d, a{, b}, {!}c
// (§9.7.13.1): the executing threads arrive at barrier `a`; all but arrive then wait until
// `b` threads (all non-exited threads of the CTA when absent) have arrived.
void barrier(Warp& w, const Op& op, uint32_t m) {
  int lane = std::countr_zero(m);
  bool reduce = op.aux & kReduce;
  size_t first = reduce ? 1 : 0;
  uint32_t id = w.get<uint32_t>(op.args[first], lane);
  if (id >= 16) {
    w.fault_lane = lane;
    throw GuestFault{GuestFault::Kind::Invalid, mem::Space::Generic, id, 0,
                     "barrier id " + std::to_string(id) + " is not in 0..15"};
  }
  exec::Barrier& b = w.cta->barriers[id];
  w.cta->barriers_used = true;
  size_t count_arg = first + 1;
  if (op.args.size() > count_arg + (reduce ? 1 : 0)) b.expected = w.get<uint32_t>(op.args[count_arg], lane);
  if (reduce) {
    if (b.arrived == 0 || b.red_waiting.empty()) {  // a new generation (or one bar.sync began)
      b.red_count = b.red_arrived = 0;
      b.red_waiting.assign(w.cta->warps.size(), 0);
    }
    const program::Arg& p = op.args.back();
    for_lanes(m, [&](int l) { b.red_count += w.pred(p, l) ? 1 : 0; });
    b.red_arrived += exec::lane_count(m);
    b.red_waiting[w.index] |= m;
  }
  b.arrived += exec::lane_count(m);
  if (!(op.aux & kArrive)) {
    b.waiting[w.index] |= m;
    w.barrier_waiting |= m;
  }
  if (reduce) deliver(*w.cta, b);
  exec::release_barriers(*w.cta);
}

// CTAs run on several host threads and warps of a CTA interleave on one; every global and
// shared access of this engine goes straight to host memory, and atomics are sequentially
// consistent host atomics. A fence or membar of any .sem, .scope or proxy kind is therefore a
// sequentially consistent host fence: it orders this thread's accesses before and after it
// as seen by the CTAs on other host threads, which is at least what §8 asks of each form.
void fence(Warp&, const Op&, uint32_t) { std::atomic_thread_fence(std::memory_order_seq_cst); }

// nanosleep (§9.7.19.2) may sleep for any duration up to the bound, including none;
// pmevent (§9.7.19.3) signals a performance-monitor event, which this device does not count.
// griddepcontrol (§9.7.13.13): this device runs launches one after another, so every
// prerequisite grid has completed, its memory visible, before a dependent starts (.wait holds at
// once), and "dependents may be scheduled" early is a permission it need not take
// (.launch_dependents).
void nothing(Warp&, const Op&, uint32_t) {}

void trap(Warp& w, const Op&, uint32_t m) {
  w.fault_lane = std::countr_zero(m);
  throw GuestFault{GuestFault::Kind::Trap, mem::Space::Generic, 0, 0, ""};
}

// brkpt (§9.7.19.1) suspends the thread for a debugger; with none attached the launch stops
// with a report naming it.
void brkpt(Warp& w, const Op&, uint32_t m) {
  w.fault_lane = std::countr_zero(m);
  throw GuestFault{GuestFault::Kind::Invalid, mem::Space::Generic, 0, 0,
                   "brkpt executed: breakpoint with no debugger attached (§9.7.19.1)"};
}

template <program::Handler H, uint64_t kAux = 0>
bool plain(const isa::Bound&, Op& op, std::string&) {
  op.fn = H;
  op.aux = kAux;
  return true;
}

bool select_bar_red(const isa::Bound& b, Op& op, std::string&) {
  std::string o = axis(b, "op");
  op.fn = &barrier;
  op.aux = kReduce | (axis(b, "type") == ".pred" ? kPredResult : 0);
  op.aux2 = o == ".popc" ? Popc : o == ".and" ? And : Or;
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["bar.sync §9.7.13.1"] = plain<&barrier>;
  r["barrier.sync §9.7.13.1"] = plain<&barrier>;
  r["bar.arrive §9.7.13.1"] = plain<&barrier, kArrive>;
  r["barrier.arrive §9.7.13.1"] = plain<&barrier, kArrive>;
  r["bar.red §9.7.13.1"] = select_bar_red;
  r["barrier.red §9.7.13.1"] = select_bar_red;
  for (const char* k : {"membar §9.7.13.4", "membar.proxy §9.7.13.4", "fence §9.7.13.4", "fence.proxy §9.7.13.4",
                        "fence.mbarrier_init §9.7.13.4"})
    r[k] = plain<&fence>;
  r["brkpt §9.7.19.1"] = plain<&brkpt>;
  r["nanosleep §9.7.19.2"] = plain<&nothing>;
  r["pmevent §9.7.19.3"] = plain<&nothing>;
  r["griddepcontrol §9.7.13.13"] = plain<&nothing>;
  r["trap §9.7.19.4"] = plain<&trap>;
});

}  // namespace ptxvm::sem
