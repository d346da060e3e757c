// Clusters of one CTA (PTX §2.2.2-2.2.3, 001_23fdd5978b24a3ed.txt): until clusters of several CTAs
// land (issue 16; a launch asking for one is refused), every CTA is its own cluster, as on a GPU
// launched without a cluster shape, and the cluster instructions act on that cluster of one:
// barrier.cluster.arrive / .wait (§9.7.13.3) as a split barrier of all the CTA's threads,
// mapa (§9.7.9.23) to rank 0 and getctarank (§9.7.9.24) of the CTA's own shared memory.
#include <bit>
#include <string>
#include <vector>

#include "exec/engine.h"
#include "exec/unit.h"
#include "exec/warp.h"
#include "program/registry.h"

namespace ptxvm::units {
namespace {

using exec::Warp;
using exec::for_lanes;
using program::Op;
using mem::Space;

// The cluster barrier of a cluster of one: a phase completes when every thread of the CTA that
// has not exited has arrived; a wait returns once the phase its thread arrived in is complete.
class ClusterBarrier : public exec::Unit {
public:
  explicit ClusterBarrier(exec::Cta& cta) : cta_(cta), arrived_(cta.warps.size()), waiting_(cta.warps.size()) {}

  void arrive(Warp& w, const Op& op, uint32_t lanes) {
    if (const uint32_t twice = arrived_[w.index] & lanes)
      w.undefined(std::countr_zero(twice), "'" + op.text + "': this thread already arrived in the cluster barrier's "
                                                             "current phase (undefined, PTX §9.7.13.3)");
    arrived_[w.index] |= lanes;
    count_ += static_cast<uint32_t>(std::popcount(lanes));
    release();
  }

  // Lanes that arrived in the current phase wait for it; the others go on.
  void wait(Warp& w, const Op& op, uint32_t lanes) {
    const uint32_t never = lanes & ~arrived_[w.index] & ~completed_[w.index];
    if (never)
      w.undefined(std::countr_zero(never), "'" + op.text + "' without a barrier.cluster.arrive before it: the thread "
                                                           "would wait for itself (undefined, PTX §9.7.13.3)");
    completed_[w.index] &= ~lanes;
    const uint32_t park = lanes & arrived_[w.index];
    waiting_[w.index] |= park;
    w.park(park);
  }

  void exited(Warp&, uint32_t) override { release(); }

  std::string waiting(const Warp& w, int lane) const override {
    return (waiting_[w.index] >> lane) & 1u ? " in barrier.cluster.wait, for threads that have not arrived" : "";
  }

private:
  void release() {
    if (count_ < cta_.threads - cta_.exited_threads) return;
    for (size_t i = 0; i < arrived_.size(); ++i) {
      completed_[i] |= arrived_[i] & ~waiting_[i];  // arrived, not yet waiting: their wait returns at once
      arrived_[i] = 0;
      if (waiting_[i]) cta_.warps[i].wake(waiting_[i]);
      waiting_[i] = 0;
    }
    count_ = 0;
  }

  exec::Cta& cta_;
  uint32_t count_ = 0;                // threads arrived in the current phase
  std::vector<uint32_t> arrived_;     // per warp: lanes arrived in the current phase
  std::vector<uint32_t> waiting_;     // per warp: lanes parked in barrier.cluster.wait
  std::vector<uint32_t> completed_ = std::vector<uint32_t>(arrived_.size());  // arrived in a completed phase, not yet waited
};

void arrive(Warp& w, const Op& op, uint32_t m) { w.cta->unit<ClusterBarrier>().arrive(w, op, m); }
void wait(Warp& w, const Op& op, uint32_t m) { w.cta->unit<ClusterBarrier>().wait(w, op, m); }

// mapa{.shared::cluster}.type d, a, rank: a's place in the shared memory of CTA `rank`; the only
// CTA of a cluster of one is rank 0, whose addresses are the CTA's own.
void mapa(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    const uint32_t rank = w.get<uint32_t>(op.args[2], l);
    if (rank != 0)
      w.undefined(l, "'" + op.text + "': CTA rank " + std::to_string(rank) +
                          " is outside the cluster of 1 CTA (undefined, PTX §9.7.9.23)");
    w.set<uint64_t>(op.args[0], l, w.get<uint64_t>(op.args[1], l));
  });
}

// getctarank{.shared::cluster}.type d, a: the rank of the CTA whose shared memory holds a: 0 for
// the CTA's own (a shared::cluster address, or a generic one in the shared window).
void getctarank(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    const uint64_t a = w.get<uint64_t>(op.args[1], l);
    if (!op.aux && mem::resolve(Space::Generic, a).space != Space::Shared)
      w.undefined(l, "'" + op.text + "': address " + std::to_string(a) +
                          " is not in the cluster's shared memory (undefined, PTX §9.7.9.24)");
    w.set<uint32_t>(op.args[0], l, 0);
  });
}

template <program::Handler H>
bool plain(const isa::Bound&, Op& op, std::string&) {
  op.fn = H;
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["barrier.cluster.arrive §9.7.13.3"] = plain<&arrive>;
  r["barrier.cluster.wait §9.7.13.3"] = plain<&wait>;
  r["mapa §9.7.9.23"] = plain<&mapa>;
  r["getctarank §9.7.9.24"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.aux = b.value("space") != nullptr;  // .shared::cluster: the address is one of the cluster's
    op.fn = &getctarank;
    return true;
  };
});

}  // namespace
}  // namespace ptxvm::units
