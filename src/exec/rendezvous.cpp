#include "exec/rendezvous.h"

#include "exec/engine.h"

namespace ptxvm::exec {

namespace {
uint64_t key_of(const Rendezvous* r) { return sanitize::sync_key(sanitize::SyncKind::Rendezvous, reinterpret_cast<uintptr_t>(r)); }
}  // namespace

void Rendezvous::arrive(Warp& w, uint32_t lanes, bool wait) {
  arrived += lane_count(lanes);
  w.released(lanes, key_of(this));  // what the threads did before arriving, the waiters see after
  if (!wait) return;
  if (parked_.empty()) parked_.assign(w.cta->warps.size(), 0);
  parked_[w.index] |= lanes;
  w.park(lanes);
}

void Rendezvous::complete(Cta& cta) {
  for (size_t i = 0; i < parked_.size(); ++i) {
    if (parked_[i]) {
      cta.warps[i].acquired(parked_[i], key_of(this));
      cta.warps[i].wake(parked_[i]);
    }
    parked_[i] = 0;
  }
  if (cta.race) cta.race->forget(key_of(this));
  arrived = 0;
}

}  // namespace ptxvm::exec
