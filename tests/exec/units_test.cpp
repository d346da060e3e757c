// The extension point for units (src/exec/unit.h, async_groups.h): state created on first use,
// effects landing in issue order when their group completes; and lowering's use of the ISA row's
// operand properties.
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

TEST(Lowering, OnlyAnOperandTheRowMarksMayBeNegated) {  // §9.7.18.1.3
  Device dev;
  std::string diags;
  EXPECT_FALSE(dev.load_module(kernel_ptx("add.s32 %r1, -%r2, 1;"), "t.ptx", &diags));
  EXPECT_NE(diags.find("'-' negates a register operand of vmad only"), std::string::npos) << diags;
  EXPECT_TRUE(dev.load_module(kernel_ptx("vmad.s32.s32.s32 %r1, -%r2, %r3, %r4;"), "t.ptx", &diags)) << diags;
}

}  // namespace
}  // namespace ptxvm::test
