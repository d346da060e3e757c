// Threads of several warps that must all arrive before the waiting ones go on: the CTA barriers of
// §9.7.13.1 (src/units/barrier) today; a warpgroup's .sync.aligned instruction or a cluster
// barrier next. Lanes that wait park at their instruction (Warp::park) until complete() wakes them
// past it. When the rendezvous is complete (enough threads arrived, as its unit counts them) is the
// unit's decision: it may first act for every parked lane (bar.red delivers its reduction).
#pragma once

#include <cstdint>
#include <vector>

namespace ptxvm::exec {

class Warp;
struct Cta;

class Rendezvous {
public:
  uint32_t arrived = 0;  // threads arrived since the last completion

  // The lanes of `w` arrive; with `wait` they park until complete().
  void arrive(Warp& w, uint32_t lanes, bool wait);
  // The lanes of warp `warp` parked here.
  uint32_t parked(uint32_t warp) const { return warp < parked_.size() ? parked_[warp] : 0; }
  // Wakes every parked lane and starts over.
  void complete(Cta& cta);

private:
  std::vector<uint32_t> parked_;  // per warp of the CTA, from the first arrival
};

}  // namespace ptxvm::exec
