// Completion and ordering of the asynchronous tcgen05 operations (PTX §9.7.16.11-12,
// 000_70a4b524dfe259fa.txt): tcgen05.commit, tcgen05.fence::before/after_thread_sync.
//
// tcgen05.commit makes an mbarrier track the mma / cp / shift operations the thread issued
// before it: one arrive-on (count 1) at cluster scope, on the mbarrier at [mbar] or, with
// .multicast::cluster, at the same offset in each CTA of ctaMask, once they completed. ptxvm
// hands the arrive to the mbarrier unit pending (mbarrier::expect_completion): when a thread
// observes that barrier, the operations queued up to the commit land, in issue order, then the
// arrive happens. Landing operations of other threads issued earlier with them is an order the
// ISA allows (they are unordered with the commit's, §9.7.16.6.1).
#include <bit>
#include <string>

#include "exec/engine.h"
#include "exec/warp.h"
#include "mem/memory.h"
#include "program/registry.h"
#include "units/mbarrier/mbarrier.h"
#include "units/tcgen05/tensor_memory.h"

namespace ptxvm::units::tcgen05 {
namespace {

using exec::Warp;
using mem::Space;
using program::Op;

// tcgen05.commit.cta_group.mbarrier::arrive::one{.shared::cluster}{.multicast::cluster}.b64
//     [mbar] {, ctaMask}
void commit(Warp& w, const Op& op, uint32_t m) {
  exec::Cta& cta = *w.cta;
  TensorMemory& t = cta.unit<TensorMemory>();
  const bool multicast = op.args.size() > 1;
  exec::for_lanes(m, [&](int l) {
    t.check_cta_group(w, l, op, static_cast<unsigned>(op.aux));
    const uint64_t address = w.address(op.args[0], l);
    const bool generic = static_cast<Space>(op.aux2) == Space::Generic;
    const uint64_t barrier = generic ? mem::shared_offset(address) : address;
    if (address % 8 || (generic && mem::resolve(Space::Generic, address).space != Space::Shared))
      w.undefined(l, "'" + op.text + "': mbar is not an 8-byte aligned address in the shared::cluster window "
                                     "(§9.7.16.12.1)");
    // the commit implies tcgen05.fence::before_thread_sync (§9.7.16.6.4.2); its arrive-on passes
    // on what the thread did before (mbarrier::expect_completion)
    if (w.cta->race && w.launch->sanitizer->tcgen05_order) w.cta->race->fence_before(w.race_thread(l));
    const uint64_t upto = t.issued;
    auto land = [&t, upto] {
      t.land(upto);
      return 0u;
    };
    if (!multicast) {
      mbarrier::expect_completion(w, barrier, l, op.text, land, 1);
      return;
    }
    const uint32_t mask = w.get<uint16_t>(op.args[1], l);
    if (!cta.cluster->holds(mask))
      w.undefined(l, "'" + op.text + "': ctaMask " + std::to_string(mask) + " names ranks outside the cluster of " +
                         std::to_string(cta.cluster->ctas.size()) + " CTAs (§9.7.16.12.1)");
    for (uint32_t rest = mask; rest; rest &= rest - 1)
      mbarrier::expect_completion(w, mem::with_rank(barrier, static_cast<uint32_t>(std::countr_zero(rest))), l, op.text,
                                  land, 1);
  });
}

// tcgen05.fence::before_thread_sync / ::after_thread_sync order the asynchronous operations
// against the thread synchronization around them (§9.7.16.6.3). Operations here land at the
// latest moment a commit or wait allows, never earlier than what the fences order them after,
// so the fences have nothing left to do but tell the tcgen05 check (TensorMemory::order).
template <bool kBefore>
void fence(Warp& w, const Op&, uint32_t m) {
  if (w.cta->race && w.launch->sanitizer->tcgen05_order)
    exec::for_lanes(m, [&](int l) {
      if (kBefore) w.cta->race->fence_before(w.race_thread(l));
      else w.cta->race->fence_after(w.race_thread(l));
    });
}

const program::Registration registered([](program::Registry& r) {
  r["tcgen05.commit §9.7.16.12.1"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.fn = &commit;
    op.aux = b.is("cta_group", ".cta_group::2") ? 2 : 1;
    op.aux2 = static_cast<uint64_t>(b.value("ss") ? Space::Shared : Space::Generic);
    return true;
  };
  r["tcgen05.fence::before_thread_sync §9.7.16.11.1"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &fence<true>;
    return true;
  };
  r["tcgen05.fence::after_thread_sync §9.7.16.11.1"] = [](const isa::Bound&, Op& op, std::string&) {
    op.fn = &fence<false>;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units::tcgen05
