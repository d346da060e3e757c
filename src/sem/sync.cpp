// Memory ordering, PTX §9.7.13.4 (membar, fence), §9.7.13.13 (griddepcontrol);
// brkpt, nanosleep, pmevent, trap and setmaxnreg from §9.7.19 (001_23fdd5978b24a3ed.txt,
// 000_70a4b524dfe259fa.txt).
#include <atomic>
#include <bit>

#include "exec/engine.h"
#include "exec/warp.h"
#include "program/registry.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using program::Op;
using mem::GuestFault;

// CTAs run on several host threads and warps of a CTA interleave on one; every global and
// shared access of this engine goes straight to host memory, and atomics are sequentially
// consistent host atomics. A fence or membar of any .sem, .scope or proxy kind is therefore a
// sequentially consistent host fence: it orders this thread's accesses before and after it
// as seen by the CTAs on other host threads, which is at least what §8 asks of each form.
void fence(Warp&, const Op&, uint32_t) { std::atomic_thread_fence(std::memory_order_seq_cst); }

// fence.proxy.async{.shared::cta,.shared::cluster} and fence.proxy.async::generic (op.aux) also
// order the lanes' generic writes to shared memory before async-proxy reads: the async check
// follows that (exec::Warp::proxy_fence).
void proxy_fence(Warp& w, const Op& op, uint32_t m) {
  fence(w, op, m);
  if (op.aux && w.async_checked) w.proxy_fence(m);
}

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

// setmaxnreg (§9.7.19.5) is a hint: this device gives every thread all the registers its kernel
// declares, so no request waits and none releases anything. The rules of the hint still hold:
// .sync.aligned across the whole warpgroup of four full warps.
void setmaxnreg(Warp& w, const Op& op, uint32_t m) {
  if (m != ~0u || !w.cta->full_warpgroup(w.index))
    w.undefined(std::countr_zero(m), "'" + op.text +
                                          "' must be executed by every thread of a warpgroup of four full warps (§9.7.19.5)");
}

template <program::Handler H>
bool plain(const isa::Bound&, Op& op, std::string&) {
  op.fn = H;
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  for (const char* k : {"membar §9.7.13.4", "membar.proxy §9.7.13.4", "fence §9.7.13.4", "fence.mbarrier_init §9.7.13.4"})
    r[k] = plain<&fence>;
  r["fence.proxy §9.7.13.4"] = [](const isa::Bound& b, Op& op, std::string&) {
    const std::string* kind = b.value("kind");
    const std::string* space = b.value("space");
    op.aux = kind && (*kind == ".async" || *kind == ".async::generic") && !(space && *space == ".global");
    op.fn = &proxy_fence;
    return true;
  };
  r["brkpt §9.7.19.1"] = plain<&brkpt>;
  r["nanosleep §9.7.19.2"] = plain<&nothing>;
  r["pmevent §9.7.19.3"] = plain<&nothing>;
  r["griddepcontrol §9.7.13.13"] = plain<&nothing>;
  r["trap §9.7.19.4"] = plain<&trap>;
  r["setmaxnreg §9.7.19.5"] = plain<&setmaxnreg>;
});

}  // namespace ptxvm::sem
