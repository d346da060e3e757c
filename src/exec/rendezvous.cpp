#include "exec/rendezvous.h"

#include "exec/engine.h"

namespace ptxvm::exec {

void Rendezvous::arrive(Warp& w, uint32_t lanes, bool wait) {
  arrived += lane_count(lanes);
  if (!wait) return;
  if (parked_.empty()) parked_.assign(w.cta->warps.size(), 0);
  parked_[w.index] |= lanes;
  w.park(lanes);
}

void Rendezvous::complete(Cta& cta) {
  for (size_t i = 0; i < parked_.size(); ++i) {
    if (parked_[i]) cta.warps[i].wake(parked_[i]);
    parked_[i] = 0;
  }
  arrived = 0;
}

}  // namespace ptxvm::exec
