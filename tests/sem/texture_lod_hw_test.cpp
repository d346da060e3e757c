// tex.grad's level of detail (src/texture/level_of_detail.h) against the levels an H200 chose in
// tests/hw/texture_lod (its README says how they were recorded): 2,744 lookups in a 2D texture of
// 11 levels and 882 in a 3D one of 8, so the recorded value is the level clamped to [0, 10] or
// [0, 7].
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "texture/level_of_detail.h"

namespace ptxvm::texture {
namespace {

TEST(TextureLevelOfDetail, MatchesTheH200) {
  std::ifstream f((std::filesystem::path(__FILE__).parent_path() / "../hw/texture_lod/lod.txt").string());
  ASSERT_TRUE(f) << "tests/hw/texture_lod/lod.txt";
  size_t one = 0, two = 0, one_wrong = 0, two_wrong = 0;
  for (std::string line; std::getline(f, line);) {
    std::istringstream in(line);
    float ax, ay, bx, by;
    std::string arrow, hex;
    in >> ax >> ay >> bx >> by >> arrow >> hex;
    const float recorded = std::bit_cast<float>(uint32_t(std::stoul(hex, nullptr, 16)));
    const float ddx[3] = {ax, ay, 0}, ddy[3] = {bx, by, 0};
    const float level = std::clamp(grad_level(ddx, ddy), 0.0f, 10.0f);
    const bool single = bx == 0 && by == 0;
    (single ? one : two) += 1;
    if (level != recorded) {
      (single ? one_wrong : two_wrong) += 1;
      if (single) ADD_FAILURE() << line << ": ptxvm chooses " << level;
    }
  }
  EXPECT_EQ(one, 1353u);
  EXPECT_EQ(two, 1391u);
  EXPECT_EQ(one_wrong, 0u);
  // Two gradients: the rule is not complete yet (the README); the count may only fall.
  EXPECT_LE(two_wrong, 72u) << "of " << two;
  std::printf("tex.grad levels: %zu of %zu with one gradient and %zu of %zu with two are the H200's\n",
              one - one_wrong, one, two - two_wrong, two);
}

TEST(TextureLevelOfDetail, MatchesTheH200In3D) {
  std::ifstream f((std::filesystem::path(__FILE__).parent_path() / "../hw/texture_lod/lod3d.txt").string());
  ASSERT_TRUE(f) << "tests/hw/texture_lod/lod3d.txt";
  size_t one = 0, two = 0, one_wrong = 0, two_wrong = 0;
  for (std::string line; std::getline(f, line);) {
    std::istringstream in(line);
    float ddx[3], ddy[3];
    std::string arrow, hex;
    in >> ddx[0] >> ddx[1] >> ddx[2] >> ddy[0] >> ddy[1] >> ddy[2] >> arrow >> hex;
    const float recorded = std::bit_cast<float>(uint32_t(std::stoul(hex, nullptr, 16)));
    const float level = std::clamp(grad_level(ddx, ddy), 0.0f, 7.0f);
    const bool single = ddy[0] == 0 && ddy[1] == 0 && ddy[2] == 0;
    (single ? one : two) += 1;
    if (level != recorded) {
      (single ? one_wrong : two_wrong) += 1;
      if (single) ADD_FAILURE() << line << ": ptxvm chooses " << level;
    }
  }
  EXPECT_EQ(one, 728u);
  EXPECT_EQ(two, 154u);
  EXPECT_EQ(one_wrong, 0u);
  EXPECT_LE(two_wrong, 17u) << "of " << two;
  std::printf("tex.grad levels in 3D: %zu of %zu with one gradient and %zu of %zu with two are the H200's\n",
              one - one_wrong, one, two - two_wrong, two);
}

}  // namespace
}  // namespace ptxvm::texture
