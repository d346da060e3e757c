// racecheck's core (src/sanitize/race.h): which pairs of accesses the vector clocks order.
#include <gtest/gtest.h>

#include <cstring>

#include "sanitize/race.h"

namespace ptxvm::sanitize {
namespace {

// Four threads over 64 bytes of shared memory; writes go through `memory` and are settled as the
// engine does after each instruction.
struct Shadow {
  RaceShadow race{4, 64};
  uint8_t memory[64] = {};
  std::vector<RaceShadow::Hazard> write(uint32_t thread, uint32_t pc, uint64_t offset, uint32_t value,
                                        Access a = Access::Write) {
    auto now = race.access(thread, pc, offset, 4, a, memory + offset);
    std::memcpy(memory + offset, &value, 4);
    auto later = race.settle();
    if (now) later.push_back(*now);
    return later;
  }
  std::optional<RaceShadow::Hazard> read(uint32_t thread, uint32_t pc, uint64_t offset, Access a = Access::Read) {
    auto h = race.access(thread, pc, offset, 4, a, memory + offset);
    race.settle();
    return h;
  }
};

TEST(RaceShadow, UnorderedReadAfterWrite) {
  Shadow s;
  EXPECT_TRUE(s.write(0, 10, 0, 5).empty());
  auto h = s.read(1, 11, 0);
  ASSERT_TRUE(h);
  EXPECT_STREQ(h->kind, "read-after-write");
  EXPECT_EQ(h->other_thread, 0u);
  EXPECT_EQ(h->other_pc, 10u);
  EXPECT_FALSE(s.read(0, 12, 0)) << "a thread's own accesses are ordered";
}

TEST(RaceShadow, ReleaseAcquireOrders) {
  Shadow s;
  s.write(0, 10, 0, 5);
  s.race.release(sync_key(SyncKind::Mbarrier, 8), 0);
  s.race.acquire(sync_key(SyncKind::Mbarrier, 8), 1);
  EXPECT_FALSE(s.read(1, 11, 0));
  EXPECT_TRUE(s.read(2, 12, 0)) << "thread 2 acquired nothing";
  // What thread 0 does after its release is not ordered before thread 1's acquire.
  s.write(0, 13, 4, 6);
  EXPECT_TRUE(s.read(1, 14, 4));
}

TEST(RaceShadow, JoinOrdersEveryPair) {
  Shadow s;
  s.write(0, 10, 0, 1);
  s.write(1, 11, 4, 2);
  const uint32_t threads[] = {0, 1, 2};
  s.race.join(threads, 3);
  EXPECT_FALSE(s.read(2, 12, 0));
  EXPECT_FALSE(s.read(2, 12, 4));
  EXPECT_FALSE(s.read(0, 12, 4));
  EXPECT_TRUE(s.read(3, 12, 4)) << "thread 3 was not in the join";
}

TEST(RaceShadow, WriteAfterUnorderedRead) {
  Shadow s;
  EXPECT_FALSE(s.read(1, 10, 0));
  auto h = s.write(0, 11, 0, 7);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_STREQ(h[0].kind, "write-after-read");
  EXPECT_EQ(h[0].other_thread, 1u);
}

TEST(RaceShadow, WritesThatLeaveTheBytesAreNoHazard) {
  Shadow s;
  s.write(0, 10, 0, 9);
  EXPECT_TRUE(s.write(1, 10, 0, 9).empty()) << "the same value, as every lane of a reduction stores";
  s.race.release(sync_key(SyncKind::Location, 64), 0);
  s.race.acquire(sync_key(SyncKind::Location, 64), 2);
  EXPECT_FALSE(s.read(2, 11, 0)) << "ordered after the write that changed the bytes";
  auto h = s.read(3, 12, 0);
  ASSERT_TRUE(h) << "the bytes keep the write that changed them, which thread 3 races with";
  EXPECT_EQ(h->other_thread, 0u);
  auto w = s.write(3, 13, 0, 4);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_STREQ(w[0].kind, "write-after-write");
}

TEST(RaceShadow, AnOrderedSameValueWriteChangesNothing) {
  Shadow s;
  s.write(0, 10, 0, 9);
  const uint32_t both[] = {0, 1};
  s.race.join(both, 2);
  EXPECT_TRUE(s.write(1, 11, 0, 9).empty());
  EXPECT_FALSE(s.read(2, 12, 0)) << "the last write changed nothing; the one before it is ordered before it";
}

TEST(RaceShadow, StrongAccessesDoNotRace) {
  Shadow s;
  EXPECT_TRUE(s.write(0, 10, 0, 1, Access::Atomic).empty());
  EXPECT_TRUE(s.write(1, 10, 0, 2, Access::Atomic).empty());
  EXPECT_FALSE(s.read(2, 11, 0, Access::StrongRead));
  EXPECT_TRUE(s.read(3, 12, 0)) << "a weak read races with the atomics";
}

TEST(RaceShadow, ForgetStartsAnObjectOver) {
  Shadow s;
  const uint64_t key = sync_key(SyncKind::Rendezvous, 1);
  s.write(0, 10, 0, 3);
  s.race.release(key, 0);
  s.race.forget(key);
  s.race.acquire(key, 1);
  EXPECT_TRUE(s.read(1, 11, 0));
}

// The tcgen05 check's order (PTX §9.7.16.6.3): thread 0 issues an operation, then synchronises
// with thread 1 through key 1 as `relaxed` says, with the fences asked for.
RaceShadow::Fenced handed_over(bool relaxed, bool before, bool after) {
  RaceShadow race(2, 0, true);
  const uint32_t issued = race.now(0);
  if (before) race.fence_before(0);
  race.release(1, 0, relaxed);
  race.acquire(1, 1, relaxed);
  if (after) race.fence_after(1);
  return race.fenced(0, issued, 1);
}

TEST(RaceShadowTcgen05, StrongSynchronisationOrdersWithoutFences) {
  EXPECT_EQ(handed_over(false, false, false), RaceShadow::Fenced::Ordered);
}

TEST(RaceShadowTcgen05, RelaxedSynchronisationNeedsBothFences) {
  EXPECT_EQ(handed_over(true, true, true), RaceShadow::Fenced::Ordered);
  EXPECT_EQ(handed_over(true, false, true), RaceShadow::Fenced::NoFenceBefore);
  EXPECT_EQ(handed_over(true, true, false), RaceShadow::Fenced::NoFenceAfter);
  EXPECT_EQ(handed_over(true, false, false), RaceShadow::Fenced::NoFenceBefore);
}

TEST(RaceShadowTcgen05, AFenceBeforeOrdersOnlyWhatPrecedesIt) {
  RaceShadow race(2, 0, true);
  race.fence_before(0);
  const uint32_t issued = race.now(0);  // after the fence
  race.release(1, 0, true);
  race.acquire(1, 1, true);
  race.fence_after(1);
  EXPECT_EQ(race.fenced(0, issued, 1), RaceShadow::Fenced::NoFenceBefore);
}

TEST(RaceShadowTcgen05, AFenceAfterOrdersOnlyWhatFollowsIt) {
  RaceShadow race(2, 0, true);
  const uint32_t issued = race.now(0);
  race.fence_before(0);
  race.fence_after(1);  // before the synchronisation
  race.release(1, 0, true);
  race.acquire(1, 1, true);
  EXPECT_EQ(race.fenced(0, issued, 1), RaceShadow::Fenced::NoFenceAfter);
}

TEST(RaceShadowTcgen05, NoSynchronisationIsReportedSo) {
  RaceShadow race(2, 0, true);
  const uint32_t issued = race.now(0);
  race.fence_before(0);
  race.fence_after(1);
  EXPECT_EQ(race.fenced(0, issued, 1), RaceShadow::Fenced::NotSynchronised);
}

TEST(RaceShadowTcgen05, OnlyAWarpBarrierPublishes) {
  const uint32_t both[2] = {0, 1};
  for (bool barrier : {false, true}) {
    RaceShadow race(2, 0, true);
    const uint32_t issued = race.now(0);
    race.join(both, 2, barrier);
    EXPECT_EQ(race.fenced(0, issued, 1) == RaceShadow::Fenced::Ordered, barrier) << "barrier " << barrier;
  }
}

TEST(RaceShadowTcgen05, OrderPassesThroughAThirdThread) {
  RaceShadow race(3, 0, true);
  const uint32_t issued = race.now(0);
  race.fence_before(0);
  race.release(1, 0, true);
  race.acquire(1, 1, true);
  race.fence_after(1);
  race.release(2, 1, false);  // thread 1 hands on, strongly
  race.acquire(2, 2, false);
  EXPECT_EQ(race.fenced(0, issued, 2), RaceShadow::Fenced::Ordered);
}

}  // namespace
}  // namespace ptxvm::sanitize
