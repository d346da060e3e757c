// The instruction table itself (src/isa/table.h): it builds, and every row is complete.
#include "isa/table.h"

#include <gtest/gtest.h>

#include <set>

namespace ptxvm::isa {
namespace {

TEST(Table, BuildsEveryRow) {
  ASSERT_NO_THROW(families());
  EXPECT_GT(families().size(), 200u);
}

TEST(Table, RowsAreComplete) {
  std::set<std::string> seen;
  for (const Family& f : families()) {
    SCOPED_TRACE(f.mnemonic + " §" + f.section);
    EXPECT_FALSE(f.section.empty());
    EXPECT_EQ(f.section.rfind("9.7.", 0), 0u);
    ASSERT_FALSE(f.variants.empty());
    EXPECT_FALSE(f.variants[0].target.empty());
    EXPECT_TRUE(f.variants[0].when.always());
    // one row per (mnemonic, section) pair; mnemonics shared by sections (add) differ in section
    EXPECT_TRUE(seen.insert(f.mnemonic + "@" + f.section).second);
    for (const Axis& a : f.axes) EXPECT_FALSE(a.values.empty()) << a.name;
  }
}

TEST(Table, LooksUpByOpcodeMostSpecificFirst) {
  const auto& cp = families_for("cp");
  ASSERT_FALSE(cp.empty());
  for (size_t i = 1; i < cp.size(); ++i) EXPECT_GE(cp[i - 1]->fixed.size(), cp[i]->fixed.size());
  EXPECT_TRUE(families_for("nosuch").empty());
}

TEST(Table, IdsIndexTheTable) {
  for (size_t i = 0; i < families().size(); ++i) EXPECT_EQ(families()[i].id, i);
}

} // namespace
} // namespace ptxvm::isa
