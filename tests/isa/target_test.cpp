// Targets and target requirements (src/isa/target.h).
#include "isa/target.h"

#include <gtest/gtest.h>

namespace ptxvm::isa {
namespace {

Target t(const char* s) {
  return *parse_target(s);
}

TEST(Target, ParsesSuffixesAndTheSm101Rename) {
  EXPECT_EQ(t("sm_90a").sm, 90u);
  EXPECT_EQ(t("sm_90a").suffix, 'a');
  EXPECT_EQ(t("sm_100f").suffix, 'f');
  EXPECT_EQ(t("sm_101a").sm, 110u);
  EXPECT_FALSE(parse_target("sm_90x"));
  EXPECT_FALSE(parse_target("compute_90"));
}

TEST(Target, KnowsTheFirstPtxVersionOfEachTarget) {
  EXPECT_EQ(target_min_ptx(t("sm_90a"))->str(), "8.0");
  EXPECT_EQ(target_min_ptx(t("sm_100f"))->str(), "8.8");
  EXPECT_EQ(target_min_ptx(t("sm_110a"))->str(), "9.0");
  EXPECT_FALSE(target_min_ptx(t("sm_91")));
}

TEST(TargetReq, BaseArchAndFamilyAlternatives) {
  TargetReq base("sm_90");
  EXPECT_TRUE(base.satisfied_by(t("sm_100a")));
  EXPECT_FALSE(base.satisfied_by(t("sm_89")));

  TargetReq arch("sm_90a");
  EXPECT_TRUE(arch.satisfied_by(t("sm_90a")));
  EXPECT_FALSE(arch.satisfied_by(t("sm_90")));
  EXPECT_FALSE(arch.satisfied_by(t("sm_100a")));

  TargetReq fam("sm_100f");
  EXPECT_TRUE(fam.satisfied_by(t("sm_100f")));
  EXPECT_TRUE(fam.satisfied_by(t("sm_103a"))); // `a` includes the family's features
  EXPECT_TRUE(fam.satisfied_by(t("sm_103f")));
  EXPECT_FALSE(fam.satisfied_by(t("sm_100")));  // plain targets have no family features
  EXPECT_FALSE(fam.satisfied_by(t("sm_110f"))); // another family
  EXPECT_FALSE(fam.satisfied_by(t("sm_120a")));
}

TEST(TargetReq, DescribesAndSuggests) {
  TargetReq r("sm_100a sm_110a");
  EXPECT_EQ(r.describe(), "sm_100a or sm_110a");
  EXPECT_EQ(r.suggestion(), "sm_100a");
  EXPECT_EQ(TargetReq("sm_80").describe(), "sm_80 or later");
}

} // namespace
} // namespace ptxvm::isa
