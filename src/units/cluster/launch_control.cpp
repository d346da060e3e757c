// Cluster launch control (PTX §9.7.13.17-18, 001_23fdd5978b24a3ed.txt, sm_100): a persistent
// kernel steals clusters that have not started. clusterlaunchcontrol.try_cancel takes the next
// unstarted cluster from the launch's counter (exec::Launch::next_cluster), the one the engine
// starts clusters from, so a cancelled cluster never runs and no two requests get the same one.
// Its 16-byte response lands in shared memory, with a complete-tx of 16 bytes on the mbarrier,
// when a thread next observes that barrier (units/mbarrier/mbarrier.h); .multicast::cluster::all
// writes it into every CTA of the cluster. clusterlaunchcontrol.query_cancel decodes it.
//
// The response, in ptxvm's encoding (the ISA calls it opaque): words 0-2 the first CTA's
// %ctaid.x/y/z, word 3 bit 0 set when the request cancelled a cluster.
#include <array>
#include <cstring>
#include <string>

#include "exec/engine.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "program/registry.h"
#include "units/mbarrier/mbarrier.h"

namespace ptxvm::units {
namespace {

using exec::Warp;
using program::Op;
using mem::Space;

// Per CTA: whether a failed response has landed (observed): a later request is undefined.
struct LaunchControl : exec::Unit {
  explicit LaunchControl(exec::Cta&) {}
  bool failure_observed = false;
};

// op.aux: .multicast::cluster::all.
void try_cancel(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    if (LaunchControl* c = w.cta->units.find<LaunchControl>(); c && c->failure_observed)
      w.undefined(l, "'" + op.text + "' after this CTA observed a failed request (undefined, PTX §9.7.13.17)");
    const uint64_t addr = mem::shared_offset(w.address(op.args[0], l)), bar = mem::shared_offset(w.address(op.args[1], l));
    if (addr % 16 || bar % 8 || w.shared_target(addr, l).cta != w.cta || w.shared_target(bar, l).cta != w.cta)
      w.undefined(l, "'" + op.text + "': the response and the mbarrier must be 16- and 8-byte aligned addresses in the "
                                     "executing CTA's shared memory (undefined, PTX §9.7.13.17)");
    const exec::Launch& launch = *w.launch;
    const uint64_t i = launch.next_cluster.fetch_add(1);
    const bool cancelled = i < exec::cluster_count(launch);
    std::array<uint32_t, 4> response{};
    if (cancelled) {
      const exec::Dim3 first = exec::cluster_origin(launch, i);
      response = {first.x, first.y, first.z, 1};
    }
    exec::Cluster& cluster = *w.cta->cluster;
    const uint32_t ranks = op.aux ? static_cast<uint32_t>(cluster.ctas.size()) : 1;
    for (uint32_t r = 0; r < ranks; ++r) {
      exec::Cta* to = op.aux ? cluster.ctas[r] : w.cta;
      if (to->finished)
        w.undefined(l, "'" + op.text + "': CTA rank " + std::to_string(r) +
                           " of the cluster has exited (undefined with .multicast::cluster::all, PTX §9.7.13.17)");
      const uint64_t at = op.aux ? mem::with_rank(addr, r) : addr;
      uint8_t* bytes = w.access(Space::Shared, at, 16, l);
      mbarrier::expect_completion(w, op.aux ? mem::with_rank(bar, r) : bar, l, op.text,
                                  [bytes, response, to, cancelled] {
                                    std::memcpy(bytes, response.data(), 16);
                                    if (!cancelled) to->unit<LaunchControl>().failure_observed = true;
                                    return 16u;
                                  });
    }
  });
}

// clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, response;
// .get_first_ctaid.v4.b32.b128 {x, y, z, _}, response; .get_first_ctaid::{x,y,z}.b32.b128 d, response.
// op.aux: 0 is_canceled, 1 the .v4, 2-4 ::x, ::y, ::z.
void query_cancel(Warp& w, const Op& op, uint32_t m) {
  exec::for_lanes(m, [&](int l) {
    const program::Arg& r = op.args[1];
    const uint64_t low = w.get<uint64_t>(r.elems.at(0), l), high = w.get<uint64_t>(r.elems.at(1), l);
    const bool cancelled = (high >> 32) & 1;
    if (op.aux == 0) {
      w.set_pred(op.args[0], l, cancelled);
      return;
    }
    if (!cancelled)
      w.undefined(l, "'" + op.text + "' on the response of a request that cancelled no cluster (undefined, PTX §9.7.13.18)");
    const uint32_t id[3] = {static_cast<uint32_t>(low), static_cast<uint32_t>(low >> 32), static_cast<uint32_t>(high)};
    if (op.aux == 1) {
      for (uint32_t k = 0; k < 3; ++k)
        if (op.args[0].elems.at(k).kind != program::ArgKind::Sink) w.set<uint32_t>(op.args[0].elems[k], l, id[k]);
    } else {
      w.set<uint32_t>(op.args[0], l, id[op.aux - 2]);
    }
  });
}

const program::Registration registered([](program::Registry& r) {
  r["clusterlaunchcontrol.try_cancel §9.7.13.17"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.aux = b.value("multicast") != nullptr;
    op.fn = &try_cancel;
    return true;
  };
  r["clusterlaunchcontrol.query_cancel §9.7.13.18"] = [](const isa::Bound& b, Op& op, std::string&) {
    const std::string q = *b.value("query");
    op.aux = q == ".is_canceled" ? 0 : q == ".get_first_ctaid" ? 1 : 2 + static_cast<uint64_t>(q.back() - 'x');
    op.fn = &query_cancel;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units
