// tex.grad's level of detail (src/texture/level_of_detail.h) against the levels an H200 chose in
// tests/hw/texture_lod (its README says how they were recorded): 2,744 lookups in a 2D texture of
// 11 levels and 882 in a 3D one of 8, so the recorded value is the level clamped to [0, 10] or
// [0, 7]; lod_dense's 1,048,576 isotropic lookups in 2D; lod3d_dense's 352,256 and lod3d_rest's
// 200,000 in a volume.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../hw/texture_lod/lod3d_dense_inputs.h"
#include "../hw/texture_lod/lod3d_rest_inputs.h"
#include "../hw/texture_lod/lod_dense_inputs.h"
#include "hw_records.h"
#include "level_number_texture.h"
#include "texture/level_of_detail.h"

namespace ptxvm::texture {
namespace {

// How many lookups of one and of two gradients a recording holds, and how many ptxvm misses; a
// miss of one gradient is a failure of its own.
struct Replayed {
  size_t one = 0, two = 0, one_wrong = 0, two_wrong = 0;
};

// Each line of `file`: ddx then ddy, `dims` components each, then "->", the value's bits; the
// level `level_of` gives for the line's gradients.
template <typename LevelOf>
Replayed replay(const char* file, unsigned dims, LevelOf level_of) {
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
    const float level = level_of(ddx, ddy);
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

TEST(TextureLevelOfDetail, MatchesTheH200In2D) {
  const Replayed r =
      replay("lod.txt", 2, [](const float (&x)[3], const float (&y)[3]) { return std::clamp(grad_level(x, y), 0.0f, 10.0f); });
  EXPECT_EQ(r.one, 1353u);
  EXPECT_EQ(r.two, 1391u);
  EXPECT_EQ(r.one_wrong, 0u);
  EXPECT_EQ(r.two_wrong, 0u);
}

// Every isotropic lookup of lod_dense (sets 0-5: the logarithm at 16 bits, one gradient on a grid of
// 1/64 texel, parallel pairs, sums and differences on that grid, random pairs), level for level.
TEST(TextureLevelOfDetail, MatchesTheH200sDenseMaps) {
  const std::vector<float> recorded = test::read_lookup_results("lod_dense.bin.xz");
  const std::vector<lod_dense::Lookup> in = lod_dense::lookups();
  ASSERT_EQ(recorded.size(), in.size());
  size_t isotropic = 0, wrong = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const lod_dense::Lookup& l = in[i];
    if (l.sampler != 0) continue;
    const float ddx[3] = {l.ddx[0], l.ddx[1], 0}, ddy[3] = {l.ddy[0], l.ddy[1], 0};
    const float level = std::clamp(grad_level(ddx, ddy), 0.0f, 10.0f);
    ++isotropic;
    if (level != recorded[i] && wrong++ < 8)
      ADD_FAILURE() << "set " << l.set << ": ddx (" << l.ddx[0] << ", " << l.ddx[1] << "), ddy (" << l.ddy[0]
                    << ", " << l.ddy[1] << "): H200 " << recorded[i] << ", ptxvm " << level;
  }
  EXPECT_EQ(isotropic, 1048576u);
  EXPECT_EQ(wrong, 0u);
}

// tests/hw/texture/filter/lod.bin.xz (probe_lod.cu): one gradient (a, b)/64 texels, a and b in
// 0..255, on a 256 x 256 texture of 9 levels (uint32 65,536, then the levels, b-major).
TEST(TextureLevelOfDetail, MatchesTheH200sFirstMap) {
  const std::string data =
      test::read_xz((std::filesystem::path(__FILE__).parent_path() / "../hw/texture/filter/lod.bin.xz").string());
  ASSERT_EQ(data.size(), 4u * 65537);
  size_t wrong = 0;
  for (int b = 0; b < 256; ++b)
    for (int a = 0; a < 256; ++a) {
      float recorded;
      std::memcpy(&recorded, data.data() + 4 * (1 + b * 256 + a), 4);
      const float ddx[3] = {float(a) / 64.0f, float(b) / 64.0f, 0}, ddy[3] = {};
      const float level = std::clamp(grad_level(ddx, ddy), 0.0f, 8.0f);
      if (level != recorded && wrong++ < 4) ADD_FAILURE() << "(" << a << ", " << b << ")/64: H200 " << recorded << ", ptxvm " << level;
    }
  EXPECT_EQ(wrong, 0u);
}

// lod3d.txt through the sampler (at the centre of lod3d.cu's 128^3 texture of 8 levels, as the
// probe looks up).
TEST(TextureLevelOfDetail, MatchesTheH200In3D) {
  const LevelNumbers volume(128, 128, 128, 1);  // lod3d.cu's and lod3d_dense.cu's texture
  const Replayed r = replay("lod3d.txt", 3, [&](const float (&x)[3], const float (&y)[3]) { return volume.at(x, y); });
  EXPECT_EQ(r.one, 728u);
  EXPECT_EQ(r.two, 154u);
  EXPECT_EQ(r.one_wrong, 0u);
  EXPECT_EQ(r.two_wrong, 0u);
}

// lod3d_dense's lookups in a volume, through the sampler (which follows each gradient to its end
// in f32): one gradient, 2D sums, sums and differences with a third component, random pairs, level
// for level.
TEST(TextureLevelOfDetail, MatchesTheH200sDenseMapsIn3D) {
  const std::vector<float> recorded = test::read_lookup_results("lod3d_dense.bin.xz");
  const std::vector<lod3d_dense::Lookup> in = lod3d_dense::lookups();
  ASSERT_EQ(recorded.size(), in.size());
  const LevelNumbers volume(128, 128, 128, 1);  // lod3d.cu's and lod3d_dense.cu's texture
  size_t wrong[5] = {};
  for (size_t i = 0; i < in.size(); ++i)
    if (volume.at(in[i].ddx, in[i].ddy) != recorded[i]) ++wrong[in[i].set];
  std::printf("tex.grad levels in 3D (lod3d_dense): misses per set %zu %zu %zu %zu %zu\n", wrong[0], wrong[1],
              wrong[2], wrong[3], wrong[4]);
  for (int set = 0; set < 5; ++set) EXPECT_EQ(wrong[set], 0u) << "set " << set;
}

// lod3d_rest's lookups (the 11/16 length of three-component sums and differences: a sum with
// exact 10-bit components whose smallest is swept, the smallest or the middle with an 11th bit,
// near-parallel random pairs), level for level.
TEST(TextureLevelOfDetail, MatchesTheH200sSumsInAVolume) {
  const std::vector<float> recorded = test::read_lookup_results("lod3d_rest.bin.xz");
  const std::vector<lod3d_rest::Lookup> in = lod3d_rest::lookups();
  ASSERT_EQ(recorded.size(), in.size());
  const LevelNumbers volume(128, 128, 128, 1);  // lod3d.cu's and lod3d_dense.cu's texture
  size_t wrong[4] = {};
  for (size_t i = 0; i < in.size(); ++i)
    if (volume.at(in[i].ddx, in[i].ddy) != recorded[i]) ++wrong[in[i].set];
  std::printf("tex.grad levels in 3D (lod3d_rest): misses per set %zu %zu %zu %zu\n", wrong[0], wrong[1], wrong[2],
              wrong[3]);
  for (int set = 0; set < 4; ++set) EXPECT_EQ(wrong[set], 0u) << "set " << set;
}

}  // namespace
}  // namespace ptxvm::texture
