// Clusters (PTX §2.2.2-2.2.3, 001_23fdd5978b24a3ed.txt): the cluster barrier
// barrier.cluster.arrive / .wait (§9.7.13.3), a split barrier of every thread of the cluster, and
// the shared::cluster address instructions mapa (§9.7.9.23) and getctarank (§9.7.9.24). The
// engine runs a cluster's CTAs together on one host thread (exec/engine.h, Cluster); a launch
// without a cluster shape runs each CTA as a cluster of one.
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

// The cluster barrier: a phase completes when every thread of the cluster that has not exited
// has arrived (§9.7.13.3; threads that exit count as arrived); a wait returns once the phase its
// thread arrived in is complete.
class ClusterBarrier : public exec::Unit {
public:
  explicit ClusterBarrier(exec::Cluster& cluster) : cluster_(cluster) {
    for (const exec::Cta* c : cluster.ctas) {
      first_warp_.push_back(static_cast<uint32_t>(warps_));
      warps_ += c->warps.size();
    }
    arrived_.assign(warps_, 0);
    waiting_.assign(warps_, 0);
    completed_.assign(warps_, 0);
  }

  void arrive(Warp& w, const Op& op, uint32_t lanes) {
    const size_t i = slot(w);
    if (const uint32_t twice = arrived_[i] & lanes)
      w.undefined(std::countr_zero(twice), "'" + op.text + "': this thread already arrived in the cluster barrier's "
                                                             "current phase (undefined, PTX §9.7.13.3)");
    arrived_[i] |= lanes;
    count_ += static_cast<uint32_t>(std::popcount(lanes));
    w.released(lanes, kKey, op.aux);  // op.aux: .relaxed
    release();
  }

  // Lanes that arrived in the current phase wait for it; the others go on.
  void wait(Warp& w, const Op& op, uint32_t lanes) {
    const size_t i = slot(w);
    const uint32_t never = lanes & ~arrived_[i] & ~completed_[i];
    if (never)
      w.undefined(std::countr_zero(never), "'" + op.text + "' without a barrier.cluster.arrive before it: the thread "
                                                           "would wait for itself (undefined, PTX §9.7.13.3)");
    w.acquired(lanes & completed_[i], kKey);
    completed_[i] &= ~lanes;
    const uint32_t park = lanes & arrived_[i];
    waiting_[i] |= park;
    w.park(park);
  }

  void exited(Warp&, uint32_t) override { release(); }

  std::string waiting(const Warp& w, int lane) const override {
    return (waiting_[slot(w)] >> lane) & 1u ? " in barrier.cluster.wait, for threads of the cluster that have not arrived"
                                            : "";
  }

private:
  size_t slot(const Warp& w) const { return first_warp_[w.cta->rank] + w.index; }
  // racecheck's name for the barrier, in each CTA (it follows one CTA's threads): what a thread
  // did before arriving, the threads whose wait returns see after.
  static inline const uint64_t kKey = sanitize::sync_key(sanitize::SyncKind::ClusterBarrier, 0);

  void release() {
    uint32_t live = 0;
    for (const exec::Cta* c : cluster_.ctas) live += c->threads - c->exited_threads;
    if (count_ < live) return;
    for (size_t r = 0; r < cluster_.ctas.size(); ++r) {
      exec::Cta& cta = *cluster_.ctas[r];
      for (size_t k = 0; k < cta.warps.size(); ++k) {
        const size_t i = first_warp_[r] + k;
        completed_[i] |= arrived_[i] & ~waiting_[i];  // arrived, not yet waiting: their wait returns at once
        arrived_[i] = 0;
        if (waiting_[i]) {
          cta.warps[k].acquired(waiting_[i], kKey);
          cta.warps[k].wake(waiting_[i]);
        }
        waiting_[i] = 0;
      }
    }
    count_ = 0;
  }

  exec::Cluster& cluster_;
  std::vector<uint32_t> first_warp_;  // per rank: its first warp's slot
  size_t warps_ = 0;
  uint32_t count_ = 0;                // threads arrived in the current phase
  std::vector<uint32_t> arrived_;     // per warp slot: lanes arrived in the current phase
  std::vector<uint32_t> waiting_;     // per warp slot: lanes parked in barrier.cluster.wait
  std::vector<uint32_t> completed_;   // per warp slot: arrived in a completed phase, not yet waited
};

void arrive(Warp& w, const Op& op, uint32_t m) { w.cta->cluster->unit<ClusterBarrier>().arrive(w, op, m); }
void wait(Warp& w, const Op& op, uint32_t m) { w.cta->cluster->unit<ClusterBarrier>().wait(w, op, m); }

// mapa{.shared::cluster}.type d, a, rank (§9.7.9.23): the address in CTA `rank`'s shared memory
// that corresponds to a, a shared::cta address (.shared::cluster) or a generic address of the
// executing CTA's shared memory (no space).
void mapa(Warp& w, const Op& op, uint32_t m) {
  const size_t n = w.cta->cluster->ctas.size();
  for_lanes(m, [&](int l) {
    const uint32_t rank = w.get<uint32_t>(op.args[2], l);
    if (rank >= n)
      w.undefined(l, "'" + op.text + "': CTA rank " + std::to_string(rank) + " is outside the cluster of " +
                          std::to_string(n) + " CTAs (undefined, PTX §9.7.9.23)");
    const uint64_t a = w.get<uint64_t>(op.args[1], l);
    const mem::Resolved at = mem::resolve(op.aux ? Space::Shared : Space::Generic, a);
    if (at.space != Space::Shared || at.offset >> 32 || mem::rank_of(at.offset) != w.cta->rank)
      w.undefined(l, "'" + op.text + "': address " + std::to_string(a) + " is not in the executing CTA's shared memory "
                                                                         "(undefined, PTX §9.7.9.23)");
    const uint64_t mapped = mem::with_rank(at.offset, rank);
    w.set<uint64_t>(op.args[0], l, op.aux ? mapped : mem::kSharedWindow + mapped);
  });
}

// getctarank{.shared::cluster}.type d, a (§9.7.9.24): the rank of the CTA whose shared memory
// holds a, a shared::cluster address or a generic address in the shared window.
void getctarank(Warp& w, const Op& op, uint32_t m) {
  for_lanes(m, [&](int l) {
    const uint64_t a = w.get<uint64_t>(op.args[1], l);
    const mem::Resolved at = mem::resolve(op.aux ? Space::Shared : Space::Generic, a);
    if (at.space != Space::Shared)
      w.undefined(l, "'" + op.text + "': address " + std::to_string(a) +
                          " is not in the cluster's shared memory (undefined, PTX §9.7.9.24)");
    const uint32_t rank = mem::rank_of(at.offset);
    if (at.offset >> 32 || rank >= w.cta->cluster->ctas.size())
      w.undefined(l, "'" + op.text + "': address " + std::to_string(a) +
                          " is outside the cluster's shared memory (undefined, PTX §9.7.9.24)");
    w.set<uint32_t>(op.args[0], l, rank);
  });
}

template <program::Handler H>
bool plain(const isa::Bound&, Op& op, std::string&) {
  op.fn = H;
  return true;
}

// op.aux: the address is a shared::cluster one (.shared::cluster), else generic.
template <program::Handler H>
bool spaced(const isa::Bound& b, Op& op, std::string&) {
  op.aux = b.value("space") != nullptr;
  op.fn = H;
  return true;
}

const program::Registration registered([](program::Registry& r) {
  r["barrier.cluster.arrive §9.7.13.3"] = [](const isa::Bound& b, Op& op, std::string&) {
    op.fn = &arrive;
    op.aux = b.is("sem", ".relaxed");
    return true;
  };
  r["barrier.cluster.wait §9.7.13.3"] = plain<&wait>;
  r["mapa §9.7.9.23"] = spaced<&mapa>;
  r["getctarank §9.7.9.24"] = spaced<&getctarank>;
});

}  // namespace
}  // namespace ptxvm::units
