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
  // Lane `lane` issues `e` into its open (uncommitted) group.
  void issue(int lane, const Effect& e) { pending_.push_back({committed_[lane], static_cast<uint8_t>(lane), e}); }
  // commit_group: each lane's open group becomes its newest committed one.
  void commit(uint32_t lanes) {
    for (; lanes; lanes &= lanes - 1) ++committed_[std::countr_zero(lanes)];
  }
  // wait_group N: every committed group of each lane but its N newest completes.
  void wait(uint32_t lanes, uint32_t newest_pending) {
    for (; lanes; lanes &= lanes - 1) {
      const int l = std::countr_zero(lanes);
      if (committed_[l] > newest_pending) complete(1u << l, committed_[l] - newest_pending);
    }
  }
  // Every operation of the lanes, committed or not, completes (exit; wait_all after a commit).
  void complete_all(uint32_t lanes) { complete(lanes, UINT32_MAX); }

private:
  struct Pending {
    uint32_t group;  // the lane's committed-group count at issue: the group a later commit closes
    uint8_t lane;
    Effect effect;
  };
  // Applies, in issue order, the effects of `lanes` whose group is below `group`.
  void complete(uint32_t lanes, uint32_t group) {
    size_t kept = 0;
    for (Pending& p : pending_) {
      if (((lanes >> p.lane) & 1u) && p.group < group) p.effect.apply();
      else pending_[kept++] = p;
    }
    pending_.resize(kept);
  }
  std::vector<Pending> pending_;  // in issue order
  std::array<uint32_t, 32> committed_{};
};

}  // namespace ptxvm::exec
