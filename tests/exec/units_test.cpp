// The extension point for units (src/exec/unit.h, async_groups.h, rendezvous.h) and the CTA
// barrier unit built on it (src/units/barrier): state created on first use, effects landing in
// issue order when their group completes, a barrier completed by exits delivering bar.red.
#include <gtest/gtest.h>

#include <vector>

#include "exec/async_groups.h"
#include "exec/engine.h"
#include "exec/unit.h"
#include "harness.h"

namespace ptxvm::test {
namespace {

// An effect that records the order in which effects land.
struct Mark {
  std::vector<int>* landed;
  int id;
  void apply() const { landed->push_back(id); }
};

TEST(AsyncGroups, WaitCompletesAllButTheNewestGroupsInIssueOrder) {  // §9.7.9.25.3.3
  std::vector<int> landed;
  exec::AsyncGroups<Mark> g;
  g.issue(0, {&landed, 1});
  g.issue(1, {&landed, 2});
  g.commit(0b11);            // group 0 of lanes 0 and 1
  g.issue(0, {&landed, 3});
  g.commit(0b01);            // group 1 of lane 0
  g.issue(0, {&landed, 4});  // lane 0's open group
  g.wait(0b01, 1);           // lane 0: all but its newest committed group
  EXPECT_EQ(landed, (std::vector<int>{1}));
  g.wait(0b01, 0);
  EXPECT_EQ(landed, (std::vector<int>{1, 3}));  // not the uncommitted 4, nor lane 1's 2
  g.complete_all(0b11);                          // exit: everything lands, in issue order
  EXPECT_EQ(landed, (std::vector<int>{1, 3, 2, 4}));
  g.complete_all(0b11);
  EXPECT_EQ(landed.size(), 4u);  // each effect lands once
}

struct Counter : exec::Unit {
  explicit Counter(exec::Cta& cta) : warps(cta.warps.size()) {}
  void exited(exec::Warp& w, uint32_t lanes) override { exits += lanes; }
  size_t warps;
  uint32_t exits = 0;
};
struct Other : exec::Unit {
  explicit Other(exec::Cta&) {}
};

TEST(Units, StateIsCreatedOnFirstUseOncePerUnit) {
  exec::Cta cta;
  cta.warps.resize(3);
  EXPECT_EQ(cta.units.find<Counter>(), nullptr);
  Counter& c = cta.unit<Counter>();
  EXPECT_EQ(c.warps, 3u);
  EXPECT_EQ(&cta.unit<Counter>(), &c);
  EXPECT_EQ(cta.units.find<Counter>(), &c);
  EXPECT_EQ(cta.units.find<Other>(), nullptr);  // another unit has its own slot
  cta.units.exited(cta.warps[1], 0b101);
  EXPECT_EQ(c.exits, 0b101u);
  cta.units.clear();
  EXPECT_EQ(cta.units.find<Counter>(), nullptr);
}

TEST(BarrierUnit, ExitsCompleteABarRedAndItsThreadsReceiveTheReduction) {  // §9.7.13.1
  // Warp 0 reaches bar.red while warp 1 has not exited: the barrier waits for all 64 threads.
  // Warp 1's exit completes it; warp 0's threads then hold the reduction over their 32 arrivals.
  Harness h;
  h.load(kernel_ptx("mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n@%p1 bra DONE;\n"
                    "and.b32 %r2, %r1, 3;\nsetp.eq.u32 %p2, %r2, 0;\n"
                    "bar.red.popc.u32 %r3, 0, %p2;\nbar.red.and.pred %p3, 1, %p2;\nselp.u32 %r4, 1, 0, %p3;\n"
                    "mul.wide.u32 %rd1, %r1, 8;\nadd.u64 %rd2, %rd_out, %rd1;\nst.global.v2.u32 [%rd2], {%r3, %r4};\n"
                    "DONE:"));
  uint64_t out = h.buffer(std::vector<uint32_t>(64, 99));
  ASSERT_TRUE(h.launch("k", {1}, {64}, {arg(out), arg(uint64_t{0})}).ok);
  auto r = h.read<uint32_t>(out, 64);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(r[2 * t], 8u) << t;  // tid % 4 == 0 for 8 of the 32 arrivals
    EXPECT_EQ(r[2 * t + 1], 0u) << t;
  }
}

TEST(Lowering, OnlyAnOperandTheRowMarksMayBeNegated) {  // §9.7.18.1.3
  Device dev;
  std::string diags;
  EXPECT_FALSE(dev.load_module(kernel_ptx("add.s32 %r1, -%r2, 1;"), "t.ptx", &diags));
  EXPECT_NE(diags.find("'-' negates a register operand of vmad only"), std::string::npos) << diags;
  EXPECT_TRUE(dev.load_module(kernel_ptx("vmad.s32.s32.s32 %r1, -%r2, %r3, %r4;"), "t.ptx", &diags)) << diags;
}

}  // namespace
}  // namespace ptxvm::test
