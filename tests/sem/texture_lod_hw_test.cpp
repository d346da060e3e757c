// tex.grad's level of detail (src/texture/level_of_detail.h) against the levels an H200 chose in
// tests/hw/texture_lod (its README says how they were recorded): 2,744 lookups in a 2D texture of
// 11 levels and 882 in a 3D one of 8, so the recorded value is the level clamped to [0, 10] or
// [0, 7].
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "texture/level_of_detail.h"

namespace ptxvm::texture {
namespace {

// How many lookups of one and of two gradients a recording holds, and how many ptxvm misses; a
// miss of one gradient is a failure of its own.
struct Replayed {
  size_t one = 0, two = 0, one_wrong = 0, two_wrong = 0;
};

// Each line of `file`: ddx then ddy, `dims` components each, then "->", the value's bits.
Replayed replay(const char* file, unsigned dims, float top_level) {
  std::ifstream f((std::filesystem::path(__FILE__).parent_path() / "../hw/texture_lod" / file).string());
  EXPECT_TRUE(f) << file;
  Replayed r;
  for (std::string line; std::getline(f, line);) {
    std::istringstream in(line);
    float ddx[3] = {}, ddy[3] = {};
    for (unsigned d = 0; d < dims; ++d) in >> ddx[d];
    for (unsigned d = 0; d < dims; ++d) in >> ddy[d];
    std::string arrow, hex;
    in >> arrow >> hex;
    const float recorded = std::bit_cast<float>(uint32_t(std::stoul(hex, nullptr, 16)));
    const float level = std::clamp(grad_level(ddx, ddy), 0.0f, top_level);
    const bool single = ddy[0] == 0 && ddy[1] == 0 && ddy[2] == 0;
    (single ? r.one : r.two) += 1;
    if (level != recorded) {
      (single ? r.one_wrong : r.two_wrong) += 1;
      if (single) ADD_FAILURE() << file << ": " << line << ": ptxvm chooses " << level;
    }
  }
  std::printf("tex.grad levels (%s): %zu of %zu with one gradient and %zu of %zu with two are the H200's\n", file,
              r.one - r.one_wrong, r.one, r.two - r.two_wrong, r.two);
  return r;
}

// Two gradients: the rule is not complete yet (the README); the counts of misses may only fall.
TEST(TextureLevelOfDetail, MatchesTheH200In2D) {
  const Replayed r = replay("lod.txt", 2, 10);
  EXPECT_EQ(r.one, 1353u);
  EXPECT_EQ(r.two, 1391u);
  EXPECT_EQ(r.one_wrong, 0u);
  EXPECT_LE(r.two_wrong, 57u);
}

TEST(TextureLevelOfDetail, MatchesTheH200In3D) {
  const Replayed r = replay("lod3d.txt", 3, 7);
  EXPECT_EQ(r.one, 728u);
  EXPECT_EQ(r.two, 154u);
  EXPECT_EQ(r.one_wrong, 0u);
  EXPECT_LE(r.two_wrong, 12u);
}

}  // namespace
}  // namespace ptxvm::texture
