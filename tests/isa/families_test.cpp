// Every validity rule and every variant minimum of every row can be reached, and its message
// names the rule, quotes the qualifiers and cites the section (PTX §9.7 rows in src/isa/*.cpp).
#include <gtest/gtest.h>

#include "isa/table.h"
#include "sample.h"

namespace ptxvm::isa {
namespace {

using testing::Goal;
using testing::solve;
using testing::spelled;
using testing::valid_goals;

Context context(const char* target, Version ptx = {9, 0}) {
  Context c;
  c.ptx = ptx;
  c.target = parse_target(target);
  return c;
}

// For each rule: a binding that breaks exactly that rule draws exactly one message, which starts
// with the rule's name and cites its section.
TEST(Families, EveryRuleIsReachableAndNamed) {
  size_t rules = 0;
  for (const Family& f : families()) {
    for (size_t r = 0; r < f.rules.size(); ++r) {
      const Rule& rule = f.rules[r];
      SCOPED_TRACE(f.mnemonic + " §" + f.section + " rule " + rule.name);
      std::vector<Goal> goals;
      for (size_t o = 0; o < f.rules.size(); ++o) goals.push_back({&f.rules[o].holds, o != r});
      auto b = solve(f, 7 + static_cast<uint32_t>(r), goals);
      ASSERT_TRUE(b) << "no binding breaks only this rule";
      std::vector<Problem> p = check_qualifiers(*b, Context{});
      ASSERT_EQ(p.size(), 1u) << spelled(*b);
      EXPECT_EQ(p[0].message.rfind(rule.name + ": " + rule.message, 0), 0u) << p[0].message;
      EXPECT_NE(p[0].message.find("§" + rule.section), std::string::npos) << p[0].message;
      ++rules;
    }
  }
  EXPECT_GT(rules, 150u);
}

// Every row (but those removed for sm_70 and later) has a valid form on one of the newest
// targets, and the qualifier-only check accepts it.
TEST(Families, EveryRowHasAValidForm) {
  for (const Family& f : families()) {
    if (f.removed_ptx) continue;
    SCOPED_TRACE(f.mnemonic + " §" + f.section);
    auto b = solve(f, 1, valid_goals(f));
    ASSERT_TRUE(b);
    bool accepted = false;
    for (const char* t : {"sm_100a", "sm_90a", "sm_120a", "sm_110a", "sm_103f"})
      if (check_qualifiers(*b, context(t)).empty()) accepted = true;
    EXPECT_TRUE(accepted) << spelled(*b);
  }
}

// For each variant minimum: a form that needs it is refused below its PTX version, with a message
// quoting the qualifiers and naming the version to use.
TEST(Families, EveryVariantMinimumIsEnforced) {
  for (const Family& f : families()) {
    for (size_t v = 1; v < f.variants.size(); ++v) {
      const Variant& var = f.variants[v];
      SCOPED_TRACE(f.mnemonic + " §" + f.section + " variant " + var.when.text());
      auto b = solve(f, 11 + static_cast<uint32_t>(v), valid_goals(f, {{&var.when, true}}));
      ASSERT_TRUE(b) << "no valid form needs this variant";
      Version below = var.ptx.minor
                          ? Version{var.ptx.major, static_cast<uint8_t>(var.ptx.minor - 1)}
                          : Version{static_cast<uint8_t>(var.ptx.major - 1), 9};
      Context c;
      c.ptx = below;
      bool named = false;
      for (const Problem& p : check_qualifiers(*b, c))
        if (p.message.find("needs PTX ISA " + var.ptx.str()) != std::string::npos) named = true;
      if (var.ptx > f.variants[0].ptx) {
        EXPECT_TRUE(named) << spelled(*b);
      }
    }
  }
}

} // namespace
} // namespace ptxvm::isa
