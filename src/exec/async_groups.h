// Asynchronous operations that a thread issues, commits into groups and waits for: cp.async-groups
// (§9.7.9.25.3) today; wgmma-groups (§9.7.15.6) and bulk async-groups (§9.7.9.25.4) next. An
// operation's effect (an Effect with apply()) is held from its issue until a wait completes its
// group, or its thread exits: it lands then, the latest moment the ISA allows, so a kernel that
// reads the result without waiting sees what a GPU may show it, the old value. Effects of one
// thread land in issue order. One AsyncGroups serves the 32 lanes of a warp.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace ptxvm::exec {

template <typename Effect>
class AsyncGroups {
public:
  // Lane `lane` issues an effect into its open (uncommitted) group: `e`, or one filled in place.
  void issue(int lane, const Effect& e) { issue(lane) = e; }
  Effect& issue(int lane) {
    Pending& p = pending_.emplace_back();  // in place: a temporary copied in stalls its store forwarding
    p.group = committed_[lane];
    p.lane = static_cast<uint8_t>(lane);
    return p.effect;
  }
  // commit_group: each lane's open group becomes its newest committed one.
  void commit(uint32_t lanes) {
    for (; lanes; lanes &= lanes - 1) ++committed_[std::countr_zero(lanes)];
  }
  // wait_group N: every committed group of each lane but its N newest completes.
  void wait(uint32_t lanes, uint32_t newest_pending) {
    Groups below{};
    bool any = false;
    for (; lanes; lanes &= lanes - 1) {
      const int l = std::countr_zero(lanes);
      if (committed_[l] > newest_pending) below[l] = committed_[l] - newest_pending, any = true;
    }
    if (any) complete(below);
  }
  // Every operation of the lanes, committed or not, completes (exit; wait_all after a commit).
  void complete_all(uint32_t lanes) {
    Groups below{};
    for (; lanes; lanes &= lanes - 1) below[std::countr_zero(lanes)] = UINT32_MAX;
    complete(below);
  }

private:
  using Groups = std::array<uint32_t, 32>;  // per lane
  struct Pending {
    uint32_t group = 0;  // the lane's committed-group count at issue: the group a later commit closes
    uint8_t lane = 0;
    Effect effect;
  };
  // Applies, in issue order and in one pass, the effects of each lane l whose group is below
  // below[l].
  void complete(const Groups& below) {
    size_t kept = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
      Pending& p = pending_[i];
      if (p.group < below[p.lane]) p.effect.apply();
      else {
        if (kept != i) pending_[kept] = p;
        ++kept;
      }
    }
    pending_.resize(kept);
  }
  std::vector<Pending> pending_;  // in issue order
  std::array<uint32_t, 32> committed_{};
};

}  // namespace ptxvm::exec
