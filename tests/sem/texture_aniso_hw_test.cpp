// Anisotropic tex.grad in 2D against an H200: the records of tests/hw/texture/filter's anisotropic
// probes, parts 1 to 30 (each probe's header and README.md say what each part holds), replayed
// lookup for lookup through ptxvm's sampler.
// PTX §9.7.10.3 (001_23fdd5978b24a3ed.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../hw/texture/filter/aniso_direction_inputs.h"
#include "../hw/texture_lod/aniso_area_inputs.h"
#include "../hw/texture_lod/aniso_wide_inputs.h"
#include "hw_records.h"
#include "texture/sample.h"

namespace ptxvm::texture {
namespace {

using Record = test::ProbeRecord;

std::vector<Record> records(const char* file = "aniso_more.bin.xz") { return test::read_probe_records(file); }

// probe_grad.h's texture: size x size f32 texels fill(level, x, y), `levels` levels (0: a plain
// array); clamp, linear, linear mip filter (the trilinear optimization on), normalized coordinates.
struct Square {
  std::vector<std::vector<float>> texels;
  std::vector<Image> levels;
  Object tex;
  uint32_t size;
  template <typename Fill>
  Square(uint32_t size_, uint32_t levels_n, uint32_t anisotropy, Fill fill) : size(size_) {
    const uint32_t n_levels = std::max(levels_n, 1u);
    for (uint32_t l = 0; l < n_levels; ++l) {
      const uint32_t n = size >> l;
      std::vector<float>& v = texels.emplace_back(size_t(n) * n);
      for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x) v[size_t(y) * n + x] = fill(l, x, y);
      Image img;
      img.width = img.height = n;
      img.row_pitch = 4 * n, img.slice_pitch = 4 * size_t(n) * n;
      levels.push_back(img);
    }
    for (uint32_t l = 0; l < n_levels; ++l) levels[l].data = reinterpret_cast<const uint8_t*>(texels[l].data());
    TextureResource& r = tex.resource;
    r.kind = levels_n > 0 ? TextureResource::Kind::MipmappedArray : TextureResource::Kind::Array;
    r.format = ChannelFormat::F32, r.channels = 1, r.width = r.height = size;
    r.levels = n_levels;
    TextureSampler& s = tex.sampler;
    s.address = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
    s.filter = s.mipmap_filter = FilterMode::Linear;
    s.normalized_coordinates = true;
    s.max_anisotropy = anisotropy;
    s.max_mipmap_level_clamp = float(levels_n > 0 ? levels_n - 1 : 0);
  }
  // A lookup at texel coordinates (x, y) with gradients in level-0 texels, as the probe's record()
  // passes them (each divided by the size in f32).
  float at(float x, float y, float dxx, float dxy, float dyx, float dyy) const {
    const float n = float(size);
    Lookup l;
    l.geometry = Geometry::D2, l.mip = Lookup::Mip::Grad;
    l.f = {x / n, y / n, 0};
    l.ddx = {dxx / n, dxy / n, 0}, l.ddy = {dyx / n, dyy / n, 0};
    return std::bit_cast<float>(sample(tex, levels, l, Result::F32)[0]);
  }
};

Square one_texel(uint32_t level, uint32_t anisotropy) {  // parts 11-13's texture, the texel on `level`
  const uint32_t c = 64 >> level;
  return Square(128, 8, anisotropy,
                [=](uint32_t l, uint32_t x, uint32_t y) { return l == level && x == c && y == c ? 1.0f : 0.0f; });
}

Square level_numbers(uint32_t anisotropy) {
  return Square(256, 9, anisotropy, [](uint32_t l, uint32_t, uint32_t) { return float(l); });
}

struct Count {
  size_t lookups = 0, wrong = 0, records = 0, records_wrong = 0;
  void add(size_t n, size_t bad) { lookups += n, wrong += bad, records += 1, records_wrong += bad != 0; }
  void print(const char* what) const {
    std::printf("%s: %zu of %zu lookups (%zu of %zu records whole) are the H200's\n", what, lookups - wrong, lookups,
                records - records_wrong, records);
  }
};

// The one-texel row lookups of parts 16 and 20: x = X + di + p/256, y = X.
size_t row_misses(const Square& t, float X, int w, const float (&g)[4], const std::vector<float>& hw) {
  size_t bad = 0, i = 0;
  for (int di = -w; di <= w; ++di)
    for (int p = 0; p < 256; ++p, ++i) bad += t.at(X + float(di) + float(p) / 256.0f, X, g[0], g[1], g[2], g[3]) != hw[i];
  return bad;
}

// Lookups on a grid around (X, X): x = X + i/per, y = X + j/per level-0 texels, i and j in
// -half..half, j-major (parts 23-25), the gradients the record's head.
size_t grid_misses(const Square& t, float X, int half, float per, const float (&g)[4], const std::vector<float>& hw) {
  size_t bad = 0, i = 0;
  for (int y = -half; y <= half; ++y)
    for (int x = -half; x <= half; ++x, ++i)
      bad += t.at(X + float(x) / per, X + float(y) / per, g[0], g[1], g[2], g[3]) != hw[i];
  return bad;
}

// The grid of parts 27 and 29, scaled to the footprint: x = X + i H/32, y = X + j H/32 level-0
// texels, i and j in -32..32, j-major, H = ceil((|dPdx.x| + |dPdx.y| + |dPdy.x| + |dPdy.y|) / 2) +
// margin (in double, as the probes compute it).
size_t footprint_grid_misses(const Square& t, float X, double margin, const float (&g)[4], const std::vector<float>& hw) {
  const double H = std::ceil((std::fabs(double(g[0])) + std::fabs(double(g[1])) + std::fabs(double(g[2])) +
                              std::fabs(double(g[3]))) / 2) + margin;
  size_t bad = 0, i = 0;
  for (int y = -32; y <= 32; ++y)
    for (int x = -32; x <= 32; ++x, ++i)
      bad += t.at(X + float(x * H / 32), X + float(y * H / 32), g[0], g[1], g[2], g[3]) != hw[i];
  return bad;
}

// probe_aniso.cu's grid (parts 1-4 and 10): x = 32.8125 + shift + di, y = 32.6875 + shift + dj
// texels, di and dj in -16..16, dj-major.
size_t shifted_grid_misses(const Square& t, float shift, const float (&g)[4], const float* hw) {
  size_t bad = 0, i = 0;
  for (int dj = -16; dj <= 16; ++dj)
    for (int di = -16; di <= 16; ++di, ++i)
      bad += t.at(32.8125f + shift + float(di), 32.6875f + shift + float(dj), g[0], g[1], g[2], g[3]) != hw[i];
  return bad;
}

Square one_hot(uint32_t levels, uint32_t anisotropy, uint32_t level = 0) {  // parts 1-10's texture
  const uint32_t c = 32 >> level;
  return Square(64, levels, anisotropy,
                [=](uint32_t l, uint32_t x, uint32_t y) { return l == level && x == c && y == c ? 1.0f : 0.0f; });
}

// Parts 1-4 (aniso.bin.xz): footprints of a major axis of 1 to 24 texels at six angles, a minor of
// 1 or 0.5 texel perpendicular, on a texture without levels (linear at limits 16 and 4, point) and
// on level 0 or 1 of a mipmapped one; part 5: the level-number texture's blend under majors of
// 2^(k/16) texels and ratios 1 to 32 along x, along y and at 45 degrees, limits 2 to 16.
TEST(TextureAnisotropic, FootprintsAtSixAnglesMatchTheH200) {
  const std::vector<Record> rs = records("aniso.bin.xz");
  ASSERT_EQ(rs.size(), 5u * 456 + 132);
  Count footprints[4], levels;
  for (const Record& r : rs) {
    const uint32_t a = uint32_t(r.anisotropy);
    if (r.part == 5) {
      const Square t = level_numbers(a);
      const int orientation = int(r.head[0]);
      const float ratio = r.head[1], h = 0.70710678f;
      size_t bad = 0;
      for (int k = 0; k < 128; ++k) {
        const float major = std::exp2(float(k) / 16.0f), minor = major / ratio;
        const float got = orientation == 0   ? t.at(128.5f, 128.5f, major, 0, 0, minor)
                          : orientation == 1 ? t.at(128.5f, 128.5f, minor, 0, 0, major)
                                             : t.at(128.5f, 128.5f, major * h, major * h, -minor * h, minor * h);
        bad += got != r.v[size_t(k)];
      }
      levels.add(r.v.size(), bad);
      continue;
    }
    Square t = r.part <= 2 ? one_hot(0, a) : one_hot(7, a, r.part == 4 ? 1 : 0);
    if (r.part == 2) t.tex.sampler.filter = FilterMode::Point;
    ASSERT_EQ(r.v.size(), 33u * 33u);
    footprints[r.part - 1].add(r.v.size(), shifted_grid_misses(t, 0, r.head, r.v.data()));
  }
  footprints[0].print("footprints without levels, linear (part 1)");
  footprints[1].print("footprints without levels, point (part 2)");
  footprints[2].print("footprints on level 0 of 7 (part 3)");
  footprints[3].print("footprints on level 1 of 7 (part 4)");
  levels.print("levels under ratios 1 to 32 (part 5)");
  for (const Count& c : footprints) EXPECT_EQ(c.wrong, 0u);
  EXPECT_EQ(levels.wrong, 0u);
}

// Parts 6, 8 and 9 (aniso_phase.bin.xz): a major axis of L texels along x, the minor 1, on the
// texture without levels, every 1/256 texel along the texel's row; part 7: the level-number
// texture's blend under a major of 32 or 45.25 texels and ratios 1 to 4, limits 2 to 16.
TEST(TextureAnisotropic, FootprintsAlongARowMatchTheH200) {
  const std::vector<Record> rs = records("aniso_phase.bin.xz");
  ASSERT_EQ(rs.size(), 129u + 8 + 257 + 129);
  const Square flat = one_hot(0, 16);
  Count rows, levels;
  for (const Record& r : rs) {
    if (r.part == 7) {
      const Square t = level_numbers(uint32_t(r.anisotropy));
      const float major = r.head[0];
      size_t bad = 0;
      for (int j = 0; j <= 192; ++j) bad += t.at(128.5f, 128.5f, major, 0, 0, major / (1 + float(j) / 64.0f)) != r.v[size_t(j)];
      levels.add(r.v.size(), bad);
      continue;
    }
    const int w = int(r.v.size() / 256 - 1) / 2;
    rows.add(r.v.size(), row_misses(flat, 32.5f, w, r.head, r.v));
  }
  rows.print("footprints along a row (parts 6, 8, 9)");
  levels.print("levels under ratios 1 to 4 (part 7)");
  EXPECT_EQ(rows.wrong, 0u);
  EXPECT_EQ(levels.wrong, 0u);
}

// Part 10 (aniso_step.bin.xz): majors of 1.25 to 12 texels at every 1/512 turn to 45 degrees and a
// few beyond, the minor 1 perpendicular, on probe_aniso.cu's grid and on it moved by 1/256 texel.
TEST(TextureAnisotropic, StepsOffTheAxesMatchTheH200) {
  const std::vector<Record> rs = records("aniso_step.bin.xz");
  ASSERT_EQ(rs.size(), 750u);
  const Square flat = one_hot(0, 16);
  Count grid;
  for (const Record& r : rs) {
    ASSERT_EQ(r.v.size(), 2u * 33 * 33);
    grid.add(r.v.size(), shifted_grid_misses(flat, 0, r.head, r.v.data()) +
                             shifted_grid_misses(flat, 1 / 256.0f, r.head, r.v.data() + 33 * 33));
  }
  grid.print("steps off the axes (part 10)");
  EXPECT_EQ(grid.wrong, 0u);
}

// Parts 11-13 (aniso_levels.bin.xz): ratio-A footprints along x on level 0, 1 or 2 at levels of
// detail j/16; part 14: the level-number texture's blend under seven gradient configurations,
// limits 1 to 16; part 15: the same texture through tex.level at levels j/1024.
TEST(TextureAnisotropic, FootprintsOnLevelsMatchTheH200) {
  const std::vector<Record> rs = records("aniso_levels.bin.xz");
  ASSERT_EQ(rs.size(), 134u + 70 + 10);
  Count rows, grads, explicit_levels;
  for (const Record& r : rs) {
    const uint32_t a = uint32_t(r.anisotropy);
    if (r.part == 14) {
      const Square t = level_numbers(a);
      const int c = int(r.head[0]);
      const float h = 0.70710678f;
      size_t bad = 0;
      for (int i = 0; i <= 2048; ++i) {
        const float s = 2 + float(i) / 1024.0f, major = 1.5f * s;
        const float g[7][4] = {{s, 0, 0, 1},     {float(a) * s, 0, 0, 1}, {s, 0, 0, s},
                               {1.5f * s, 0, 0, s}, {3.0f * s, 0, 0, s},    {major * h, major * h, -(s * h), s * h},
                               {s, 0, 0, 3.0f * s}};
        bad += t.at(128.5f, 128.5f, g[c][0], g[c][1], g[c][2], g[c][3]) != r.v[size_t(i)];
      }
      grads.add(r.v.size(), bad);
    } else if (r.part == 15) {
      const Square t = level_numbers(a);
      size_t bad = 0;
      for (int j = 0; j <= 2048; ++j) {
        Lookup l;
        l.geometry = Geometry::D2, l.mip = Lookup::Mip::Level;
        l.f = {0.5f, 0.5f, 0}, l.level = float(j) / 1024.0f;
        bad += std::bit_cast<float>(sample(t.tex, t.levels, l, Result::F32)[0]) != r.v[size_t(j)];
      }
      explicit_levels.add(r.v.size(), bad);
    } else {
      const uint32_t l = r.part - 11;
      const float X = (float(64 >> l) + 0.5f) * float(1u << l);
      rows.add(r.v.size(), row_misses(one_texel(l, a), X, int(r.v.size() / 256 - 1) / 2, r.head, r.v));
    }
  }
  rows.print("footprints on levels 0-2 (parts 11-13)");
  grads.print("levels under seven configurations (part 14)");
  explicit_levels.print("tex.level's blend (part 15)");
  EXPECT_EQ(rows.wrong, 0u);
  EXPECT_EQ(grads.wrong, 0u);
  EXPECT_EQ(explicit_levels.wrong, 0u);
}

TEST(TextureAnisotropic, FootprintsAcrossTwoLevelsMatchTheH200) {
  const std::vector<Record> rs = records();
  ASSERT_EQ(rs.size(), 62u);
  Count footprints, levels;
  for (const Record& r : rs) {
    if (r.part != 16) continue;
    const uint32_t a = uint32_t(r.anisotropy);
    if (r.head[3] < 0) {  // the level readout: the level-number texture under each gradient
      const Square t = level_numbers(a);
      const std::vector<int> fs = a == 16 ? std::vector<int>{96, 128, 160} : std::vector<int>{91, 127, 128, 164};
      size_t bad = 0;
      for (size_t k = 0; k < fs.size(); ++k)
        bad += t.at(128.5f, 128.5f, float(a * std::exp2((fs[k] - 0.25) / 256)), 0, 0, 1) != r.v[k];
      levels.add(fs.size(), bad);
      continue;
    }
    const uint32_t l = uint32_t(r.head[3]);
    const Square t = one_texel(l, a);
    const float g[4] = {r.head[0], 0, 0, 1};
    const size_t bad = row_misses(t, l == 1 ? 65.0f : 64.5f, int(a) + (l == 1 ? 6 : 4), g, r.v);
    footprints.add(r.v.size(), bad);
  }
  footprints.print("footprints across two levels (part 16)");
  levels.print("their levels (part 16)");
  EXPECT_EQ(levels.wrong, 0u);
  EXPECT_EQ(footprints.wrong, 0u);
}

// Part 17: the level the minor axis gives (the major fixed, the minor swept, at three angles);
// part 18: the level cap of limits 6 and 8-16 (dPdx = (A s, 0), dPdy = (0, 1)), and limit 6 at a
// ratio of 8. The level-number texture's blend, after the trilinear optimization.
TEST(TextureAnisotropic, LevelsMatchTheH200) {
  const std::vector<Record> rs = records();
  ASSERT_EQ(rs.size(), 62u);
  Count minor, cap;
  for (const Record& r : rs) {
    if (r.part == 17) {
      const Square t = level_numbers(16);
      const double M = r.head[0], angle = r.head[1], c = std::cos(angle), s = std::sin(angle);
      size_t bad = 0;
      for (int k = 0; k <= 2048; ++k) {
        const double m = std::exp2(k / 1024.0);
        bad += t.at(128.5f, 128.5f, float(M * c), float(M * s), float(-m * s), float(m * c)) != r.v[size_t(k)];
      }
      minor.add(r.v.size(), bad);
    } else if (r.part == 18) {
      const uint32_t a = uint32_t(r.anisotropy);
      const Square t = level_numbers(a);
      size_t bad = 0;
      for (int i = 0; i <= 2048; ++i) {
        const float s = 2 + float(i) / 1024.0f;
        const float got = r.head[0] == 1 ? t.at(128.5f, 128.5f, float(a) * s, 0, 0, 1) : t.at(128.5f, 128.5f, 8.0f * s, 0, 0, s);
        bad += got != r.v[size_t(i)];
      }
      cap.add(r.v.size(), bad);
    }
  }
  minor.print("levels from the minor axis (part 17)");
  cap.print("levels at the cap (part 18)");
  EXPECT_EQ(minor.wrong, 0u);
  EXPECT_EQ(cap.wrong, 0u);
}

// Part 20: limit 6, footprints past the cap: a texture without levels (major axes of 5 to 12
// texels), and the one-texel texture's level 1 at ratios 5 to 12.
TEST(TextureAnisotropic, FootprintsPastTheCapMatchTheH200) {
  const std::vector<Record> rs = records();
  ASSERT_EQ(rs.size(), 62u);
  Count rows;
  const Square flat(64, 0, 6, [](uint32_t, uint32_t x, uint32_t y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  const Square upper = one_texel(1, 6);
  for (const Record& r : rs) {
    if (r.part != 20) continue;
    const bool levels = r.head[2] > 0;
    const float g[4] = {r.head[0], 0, 0, levels ? r.head[1] : 1.0f};
    const size_t bad = levels ? row_misses(upper, 65.0f, 20, g, r.v) : row_misses(flat, 32.5f, 10, g, r.v);
    rows.add(r.v.size(), bad);
  }
  rows.print("footprints past the cap (part 20)");
  EXPECT_EQ(rows.wrong, 0u);
}

// Part 23 (aniso_oblique.bin.xz): footprints of rotated, oblique and random gradient pairs on a
// texture without levels, looked up on a grid of 1/16 texel around its one texel.
TEST(TextureAnisotropic, ObliqueFootprintsMatchTheH200) {
  const std::vector<Record> rs = records("aniso_oblique.bin.xz");
  ASSERT_EQ(rs.size(), 47u);
  const Square flat(64, 0, 16, [](uint32_t, uint32_t x, uint32_t y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  Count grid;
  for (const Record& r : rs) {
    ASSERT_EQ(r.v.size(), 193u * 193u);
    const size_t bad = grid_misses(flat, 32.5f, 96, 16, r.head, r.v);
    grid.add(r.v.size(), bad);
  }
  grid.print("oblique footprints (part 23)");
  EXPECT_EQ(grid.wrong, 0u);
}

// An f16 whose value `v` is (a normal half, as part 19's texels are): its bits.
uint16_t half_bits(float v) {
  const uint32_t b = std::bit_cast<uint32_t>(v);
  return uint16_t((b >> 16 & 0x8000) | ((((b >> 23) & 0xff) - 127 + 15) << 10) | (b >> 13 & 0x3ff));
}

// Replays probe_four.h's records of `part` in `file` (RGBA8 read as normalized floats, f16 x 4, or
// RGBA8 through sRGB: textures of random texels, no levels, limit 16, under ratios 1 to 5 along x
// and 3 along y): the misses per format, 0 RGBA8, 1 f16, 2 sRGB.
std::array<Count, 3> four_channel_misses(const char* file, uint32_t part) {
  std::array<Count, 3> formats;
  std::vector<uint8_t> texels;
  Object tex;
  std::vector<Image> levels(1);
  for (const Record& r : records(file)) {
    if (r.part != part) continue;
    const int format = int(r.head[0]);
    if (r.head[3] == 1) {  // the texels
      texels.assign(r.v.size() * (format != 1 ? 1 : 2), 0);
      for (size_t k = 0; k < r.v.size(); ++k)
        if (format != 1) {
          texels[k] = uint8_t(r.v[k]);
        } else {
          const uint16_t h = half_bits(r.v[k]);
          std::memcpy(&texels[2 * k], &h, 2);
        }
      tex = Object{};
      tex.resource.kind = TextureResource::Kind::Array;
      tex.resource.format = format != 1 ? ChannelFormat::U8 : ChannelFormat::F16;
      tex.sampler.srgb = format == 2;
      tex.resource.channels = 4, tex.resource.width = tex.resource.height = 64;
      tex.sampler.address = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
      tex.sampler.filter = tex.sampler.mipmap_filter = FilterMode::Linear;
      tex.sampler.normalized_coordinates = true, tex.sampler.max_anisotropy = 16;
      Image& img = levels[0];
      img.data = texels.data(), img.width = img.height = 64;
      img.row_pitch = 64 * (format != 1 ? 4 : 8), img.slice_pitch = img.row_pitch * 64;
      continue;
    }
    size_t bad = 0;
    for (int j = 0; j < 64; ++j)
      for (int i = 0; i < 64; ++i) {
        Lookup l;
        l.geometry = Geometry::D2, l.mip = Lookup::Mip::Grad;
        l.f = {(8 + float(i * 9) / 64.0f) / 64.0f, (8 + float(j * 9) / 64.0f) / 64.0f, 0};
        l.ddx = {r.head[1] / 64.0f, 0, 0}, l.ddy = {0, r.head[2] / 64.0f, 0};
        const std::array<uint32_t, 4> got = sample(tex, levels, l, Result::F32);
        for (unsigned c = 0; c < 4; ++c) bad += std::bit_cast<float>(got[c]) != r.v[size_t(j * 64 + i) * 4 + c];
      }
    formats[size_t(format)].add(r.v.size(), bad);
  }
  return formats;
}

// Part 19 (aniso_more.bin.xz): how RGBA8 and f16 (exponents 2^-4 to 2^1) round an anisotropic sum.
TEST(TextureAnisotropic, FormatsMatchTheH200) {
  const std::array<Count, 3> formats = four_channel_misses("aniso_more.bin.xz", 19);
  formats[0].print("RGBA8 footprints (part 19)");
  formats[1].print("f16 footprints (part 19)");
  EXPECT_EQ(formats[0].records, 7u);
  EXPECT_EQ(formats[0].wrong, 0u);
  EXPECT_EQ(formats[1].records, 7u);
  EXPECT_EQ(formats[1].wrong, 0u);
}

// Part 33 (aniso_f16.bin.xz): part 19's f16 footprints with texels of every magnitude, seven
// textures whose exponent fields run from e to e + 5, e = 1 to 25.
TEST(TextureAnisotropic, F16FootprintsOfEveryMagnitudeMatchTheH200) {
  const std::array<Count, 3> formats = four_channel_misses("aniso_f16.bin.xz", 33);
  formats[1].print("f16 footprints of every magnitude (part 33)");
  EXPECT_EQ(formats[1].records, 49u);
  EXPECT_EQ(formats[1].wrong, 0u);
}

// Part 34 (aniso_f16.bin.xz): part 19's RGBA8 texture read through sRGB.
TEST(TextureAnisotropic, SrgbFootprintsMatchTheH200) {
  const std::array<Count, 3> formats = four_channel_misses("aniso_f16.bin.xz", 34);
  formats[2].print("sRGB footprints (part 34)");
  EXPECT_EQ(formats[2].records, 7u);
  // Open: 7 colour channels one f16 step off (README.md, part 34). The count may only fall.
  EXPECT_LE(formats[2].wrong, 7u);
}

// Part 24 (aniso_angle.bin.xz): (L, 0) with a second gradient m (cos p, sin p), p = 0..60
// degrees, on a grid of 1/8 texel: the step direction where the gradients' sum is the major axis
// (level_of_detail.h, major_axis).
TEST(TextureAnisotropic, StepDirectionsMatchTheH200) {
  const std::vector<Record> rs = records("aniso_angle.bin.xz");
  ASSERT_EQ(rs.size(), 244u);
  const Square flat(64, 0, 16, [](uint32_t, uint32_t x, uint32_t y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  Count grid;
  for (const Record& r : rs) {
    ASSERT_EQ(r.v.size(), 65u * 65u);
    const size_t bad = grid_misses(flat, 32.5f, 32, 8, r.head, r.v);
    grid.add(r.v.size(), bad);
  }
  grid.print("step directions (part 24)");
  EXPECT_EQ(grid.wrong, 0u);
}

// Part 25 (aniso_round.bin.xz): rotated pairs of ratio 1 to 1.5 on the one-texel texture of parts
// 11-13 (the texel on level 0 or 1), at levels of about 1.4 and 1.75, on a grid of 1/8 texel. The
// levels blended are 1 and 2, so only the texel on level 1 shows (the texel on level 0 is a control
// that must read 0).
TEST(TextureAnisotropic, RotatedPairsOnLevelsMatchTheH200) {
  const std::vector<Record> rs = records("aniso_round.bin.xz");
  ASSERT_EQ(rs.size(), 64u);
  Count grid;
  for (size_t k = 0; k < rs.size(); ++k) {
    const Record& r = rs[k];
    const uint32_t level = k < 32 ? 0 : 1;
    const Square t = one_texel(level, 16);
    const float X = level == 0 ? 64.5f : 65.0f;
    ASSERT_EQ(r.v.size(), 97u * 97u);
    const size_t bad = grid_misses(t, X, 48, 8, r.head, r.v);
    grid.add(r.v.size(), bad);
  }
  grid.print("rotated pairs on levels (part 25)");
  EXPECT_EQ(grid.wrong, 0u);
}

// Part 26 (aniso_pair.bin.xz): two samples on level 1, the lower level of a 1-2 blend without the
// trilinear optimization, along x: ratios 4/256 to 252/256, level fractions 0 to 224/256 (every
// footprint at fraction 0, where the stretch is 1, exact).
TEST(TextureAnisotropic, TwoSamplesOnALevelMatchTheH200) {
  const std::vector<Record> rs = records("aniso_pair.bin.xz");
  ASSERT_EQ(rs.size(), 315u);
  Square t = one_texel(1, 16);
  t.tex.sampler.exact_trilinear = true;
  Count rows;
  for (const Record& r : rs) {
    ASSERT_EQ(r.v.size(), 257u);
    size_t bad = 0;
    for (int i = -128; i <= 128; ++i) bad += t.at(65.0f + float(i) / 32.0f, 65.0f, r.head[0], 0, 0, r.head[1]) != r.v[size_t(i + 128)];
    rows.add(r.v.size(), bad);
  }
  rows.print("two samples on a level (part 26)");
  EXPECT_EQ(rows.wrong, 0u);
}

// Parts 27 and 28 (aniso_random.bin.xz): 24 random gradient pairs (components up to 32 texels, as
// tests/hw/texture's "u8x4 random" case draws them) under three samplers (limit 16 with the
// trilinear optimization off and on, limit 4 with it off): part 27 looks up a 512 x 512 texture
// whose one texel lies on level 0 to 5 on a 65 x 65 grid over the footprint, part 28 reads the
// level each pair gives from the level-number texture.
TEST(TextureAnisotropic, RandomPairsOnLevelsMatchTheH200) {
  const std::vector<Record> rs = records("aniso_random.bin.xz");
  ASSERT_EQ(rs.size(), 504u);
  Count grid, level;
  for (size_t k = 0; k < rs.size(); ++k) {
    const Record& r = rs[k];
    const uint32_t limit = uint32_t(std::fabs(r.anisotropy));
    const bool exact = r.anisotropy > 0;  // the trilinear optimization off
    const float(&g)[4] = r.head;
    if (r.part == 28) {
      Square t = level_numbers(limit);
      t.tex.sampler.exact_trilinear = exact;
      level.add(1, t.at(128.5f, 128.5f, g[0], g[1], g[2], g[3]) != r.v[0]);
      continue;
    }
    const uint32_t l = uint32_t(k % 168 / 24), c = 256 >> l;  // per sampler: 6 levels of 24 pairs, then part 28
    Square t(512, 10, limit, [=](uint32_t lv, uint32_t x, uint32_t y) { return lv == l && x == c && y == c ? 1.0f : 0.0f; });
    t.tex.sampler.exact_trilinear = exact;
    const float X = (float(c) + 0.5f) * float(1u << l);
    ASSERT_EQ(r.v.size(), 65u * 65u);
    grid.add(r.v.size(), footprint_grid_misses(t, X, double(2u << l), g, r.v));
  }
  grid.print("random pairs on levels (part 27)");
  level.print("their levels (part 28)");
  EXPECT_EQ(grid.wrong, 0u);
  EXPECT_EQ(level.wrong, 0u);
}

// Parts 29 and 30 (aniso_stretch.bin.xz): footprints of two, four or more samples on the lower,
// stretched level of a 1-2 blend without the trilinear optimization, at 48 angles and five level
// fractions, their axis a gradient, the gradients' sum or their difference (part 29, on part 27's
// grid), and the level of each (part 30).
TEST(TextureAnisotropic, StretchedStepsMatchTheH200) {
  const std::vector<Record> rs = records("aniso_stretch.bin.xz");
  ASSERT_EQ(rs.size(), 1920u);
  Square t(512, 10, 16, [](uint32_t lv, uint32_t x, uint32_t y) { return lv == 1 && x == 128 && y == 128 ? 1.0f : 0.0f; });
  t.tex.sampler.exact_trilinear = true;
  Square numbers = level_numbers(16);
  numbers.tex.sampler.exact_trilinear = true;
  Count grid, level;
  for (const Record& r : rs) {
    const float(&g)[4] = r.head;
    if (r.part == 30) {
      level.add(1, numbers.at(128.5f, 128.5f, g[0], g[1], g[2], g[3]) != r.v[0]);
      continue;
    }
    ASSERT_EQ(r.v.size(), 65u * 65u);
    grid.add(r.v.size(), footprint_grid_misses(t, 257.0f, 4, g, r.v));
  }
  grid.print("stretched steps (part 29)");
  level.print("their levels (part 30)");
  EXPECT_EQ(grid.wrong, 0u);
  EXPECT_EQ(level.wrong, 0u);
}

// Parts 31 and 32 (aniso_direction.bin.xz): random gradient pairs whose sum or difference is about
// the major axis, pairs where other roundings of the 11/16-scaled vector would step elsewhere, and
// pairs whose sum or difference ties the longer gradient (aniso_direction_inputs.h), on part 27's
// grid around part 23's texel.
TEST(TextureAnisotropic, StepDirectionsOfSumsMatchTheH200) {
  const std::vector<Record> rs = records("aniso_direction.bin.xz");
  std::vector<aniso_direction::Pair> pairs = aniso_direction::pairs(31);
  const size_t random = pairs.size();
  for (const aniso_direction::Pair& p : aniso_direction::pairs(32)) pairs.push_back(p);
  ASSERT_EQ(rs.size(), pairs.size());
  const Square flat(64, 0, 16, [](uint32_t, uint32_t x, uint32_t y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  Count grid[2];
  for (size_t k = 0; k < rs.size(); ++k) {
    ASSERT_EQ(std::memcmp(rs[k].head, pairs[k].g, sizeof pairs[k].g), 0) << "record " << k;
    ASSERT_EQ(rs[k].v.size(), 65u * 65u);
    grid[k >= random].add(rs[k].v.size(), footprint_grid_misses(flat, 32.5f, 2, rs[k].head, rs[k].v));
  }
  grid[0].print("step directions of sums (part 31)");
  grid[1].print("sums and differences that tie the longer gradient (part 32)");
  EXPECT_EQ(grid[0].wrong, 0u);
  EXPECT_EQ(grid[1].wrong, 0u);
}

// tests/hw/texture_lod/aniso_wide.bin.xz: 150,000 random anisotropic lookups at random places of
// a 256 x 256 texture of 9 levels of random f32 texels, under max anisotropy 2, 4, 8 and 16 with
// the trilinear optimization and 4 and 16 without (aniso_wide_inputs.h).
TEST(TextureAnisotropic, RandomLookupsOnLevelsMatchTheH200) {
  const std::vector<float> recorded = test::read_lookup_results("aniso_wide.bin.xz");
  const std::vector<aniso_wide::Lookup> in = aniso_wide::lookups();
  ASSERT_EQ(recorded.size(), in.size());
  std::vector<Square> samplers;
  samplers.reserve(aniso_wide::kSamplers);
  for (int k = 0; k < aniso_wide::kSamplers; ++k) {
    samplers.emplace_back(256, 9, uint32_t(aniso_wide::kLimit[k]),
                          [](uint32_t l, uint32_t x, uint32_t y) { return aniso_wide::texel(int(l), int(x), int(y)); });
    samplers.back().tex.sampler.exact_trilinear = aniso_wide::kExact[k];
  }
  Count lookups;
  size_t wrong = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const aniso_wide::Lookup& l = in[i];
    const float got = samplers[l.sampler].at(l.x * 256, l.y * 256, l.ddx[0], l.ddx[1], l.ddy[0], l.ddy[1]);
    if (got != recorded[i] && wrong++ < 4)
      std::printf("aniso_wide lookup %zu (sampler %u): H200 %a, ptxvm %a\n", i, l.sampler, recorded[i], got);
  }
  lookups.add(in.size(), wrong);
  lookups.print("random lookups on levels (aniso_wide)");
  // Open: 5 lookups (tests/hw/texture_lod/README.md, aniso_wide). The count may only fall.
  EXPECT_LE(wrong, 5u);
}

// tests/hw/texture_lod/aniso_area.bin.xz: 330,000 pairs whose ddx measures 8 texels, so that the
// level read is log2(area) - 3 (trilinear optimization off): the area footprint_area takes, level
// for level.
TEST(TextureAnisotropic, AreasMatchTheH200) {
  const std::vector<float> recorded = test::read_lookup_results("aniso_area.bin.xz");
  const std::vector<aniso_area::Lookup> in = aniso_area::lookups();
  ASSERT_EQ(recorded.size(), in.size());
  Square t = level_numbers(16);
  t.tex.sampler.exact_trilinear = true;
  size_t bad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const aniso_area::Lookup& l = in[i];
    bad += t.at(128.5f, 128.5f, l.ddx[0], l.ddx[1], l.ddy[0], l.ddy[1]) != recorded[i];
  }
  std::printf("areas (aniso_area): %zu of %zu levels are the H200's\n", in.size() - bad, in.size());
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace ptxvm::texture
