// tex.grad with special gradient components (NaN, infinities, signed zeros, huge and subnormal
// values) against an H200: tests/hw/texture_lod/special_grads.txt (1D, 2D and 3D, max anisotropy 1
// and 16) and special_grads3d.txt (a NaN component in 3D images of several shapes), replayed through
// ptxvm's sampler on textures whose levels hold their own index, so that the value read is the
// level chosen. PTX §9.7.10.3 (001_23fdd5978b24a3ed.txt).
// (tests/hw/texture's "grad 3d" cases check the NaN rule off the centre.)
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "level_number_texture.h"
#include "texture/sample.h"

namespace ptxvm::texture {
namespace {

std::ifstream open(const char* file) {
  return std::ifstream((std::filesystem::path(__FILE__).parent_path() / "../hw/texture_lod" / file).string());
}

// special_grads.txt: "<d>D aniso <a>: <ddx, then ddy, as bits> -> <value bits> <value>".
TEST(TextureSpecialGradients, MatchTheH200) {
  const LevelNumbers textures[3][2] = {{{64, 0, 0, 1}, {64, 0, 0, 16}},
                                       {{64, 64, 0, 1}, {64, 64, 0, 16}},
                                       {{16, 16, 16, 1}, {16, 16, 16, 16}}};
  std::ifstream f = open("special_grads.txt");
  ASSERT_TRUE(f);
  size_t lookups = 0, wrong = 0;
  for (std::string line; std::getline(f, line);) {
    std::istringstream in(line);
    std::string dims_word, aniso_word, anisotropy, arrow, bits;
    in >> dims_word >> aniso_word >> anisotropy;
    const unsigned dims = unsigned(dims_word[0] - '0');
    float g[6] = {};
    for (unsigned k = 0; k < 2 * dims; ++k) {
      in >> bits;
      g[k] = std::bit_cast<float>(uint32_t(std::stoul(bits, nullptr, 16)));
    }
    in >> arrow >> bits;
    const float recorded = std::bit_cast<float>(uint32_t(std::stoul(bits, nullptr, 16)));
    const float got = textures[dims - 1][anisotropy == "16:" ? 1 : 0].at(g, g + dims);
    ++lookups;
    if (got != recorded && wrong++ < 8) ADD_FAILURE() << line << ": ptxvm " << got;
  }
  EXPECT_EQ(lookups, 3072u);
  EXPECT_EQ(wrong, 0u);
}

// special_grads3d.txt: "<w>x<h>x<d> (<n> levels) dd<x|y>.<x|y|z> NaN[, dd<x|y>.<x|y|z> <v>] ->
// <value>": a NaN component alone, and with one other component set to v (normalized units) in
// the 16^3 texture, at the centre. The gradient's end is NaN there, read as 0: the component spans
// half of its axis.
TEST(TextureSpecialGradients, NaNInAVolumeEndsAtZero) {
  std::ifstream f = open("special_grads3d.txt");
  ASSERT_TRUE(f);
  auto component = [](const char* name, char axis) { return (name[2] == 'y' ? 3u : 0u) + unsigned(axis - 'x'); };
  size_t lookups = 0;
  for (std::string line; std::getline(f, line);) {
    unsigned w, h, d;
    char which[8], axis, other[8] = "", other_axis = 'x';
    float value = 0, recorded;
    const bool alone =
        std::sscanf(line.c_str(), "%ux%ux%u (%*u levels) %3s.%c NaN -> %f", &w, &h, &d, which, &axis, &recorded) == 6;
    if (!alone)
      ASSERT_EQ(std::sscanf(line.c_str(), "%ux%ux%u (%*u levels) %3s.%c NaN, %3s.%c %f -> %f", &w, &h, &d, which, &axis,
                            other, &other_axis, &value, &recorded),
                9)
          << line;
    const LevelNumbers t(w, h, d, 1);
    const float size[3] = {float(w), float(h), float(d)};
    float g[6] = {};
    if (!alone) g[component(other, other_axis)] = value * size[unsigned(other_axis - 'x')];
    g[component(which, axis)] = std::bit_cast<float>(0x7fc00000u);
    EXPECT_EQ(t.at(g, g + 3), recorded) << line;
    ++lookups;
  }
  EXPECT_EQ(lookups, 216u);
}

}  // namespace
}  // namespace ptxvm::texture
