// tex.grad on cube maps against an H200: tests/hw/texture/filter/probe_cube_grad.cu's records
// (cube_grad.bin.xz; its header and README.md say what each part holds). Part 21: the level of
// detail of 4,320 gradient pairs at directions onto every face, for max anisotropy 1 to 16; part
// 22: anisotropic footprints on a face, through a texture of one texel. PTX §9.7.10.3
// (001_23fdd5978b24a3ed.txt).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../hw/texture_lod/cube_edge_inputs.h"
#include "../hw/texture_lod/cube_quotient_inputs.h"
#include "hw_records.h"
#include "texture/sample.h"

namespace ptxvm::texture {
namespace {

using Record = test::ProbeRecord;

std::vector<Record> records() { return test::read_probe_records("cube_grad.bin.xz"); }

// A cube map of 64 x 64 faces, f32, one channel, as the probe makes it: `levels` levels (1: a
// plain cube array) of texels fill(level, face, x, y); clamp, linear, linear mip filter without the
// trilinear optimization, normalized coordinates.
struct Cube {
  std::vector<std::vector<float>> texels;
  std::vector<Image> levels;
  Object tex;
  template <typename Fill>
  Cube(uint32_t levels_n, uint32_t anisotropy, Fill fill) {
    for (uint32_t l = 0; l < levels_n; ++l) {
      const uint32_t n = 64 >> l;
      std::vector<float>& v = texels.emplace_back(size_t(n) * n * 6);
      for (uint32_t f = 0; f < 6; ++f)
        for (uint32_t y = 0; y < n; ++y)
          for (uint32_t x = 0; x < n; ++x) v[(size_t(f) * n + y) * n + x] = fill(l, f, x, y);
    }
    for (uint32_t l = 0; l < levels_n; ++l) {
      const uint32_t n = 64 >> l;
      Image img;
      img.data = reinterpret_cast<const uint8_t*>(texels[l].data());
      img.width = img.height = n, img.depth = 6;
      img.row_pitch = 4 * n, img.slice_pitch = 4 * size_t(n) * n;
      levels.push_back(img);
    }
    TextureResource& r = tex.resource;
    r.kind = levels_n > 1 ? TextureResource::Kind::MipmappedArray : TextureResource::Kind::Array;
    r.format = ChannelFormat::F32, r.channels = 1, r.width = r.height = 64, r.depth = 6, r.cubemap = true;
    r.levels = levels_n;
    TextureSampler& s = tex.sampler;
    s.address = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
    s.filter = s.mipmap_filter = FilterMode::Linear;
    s.normalized_coordinates = true, s.exact_trilinear = true;
    s.max_anisotropy = anisotropy;
    s.max_mipmap_level_clamp = float(levels_n - 1);
  }
  float at(const std::array<float, 3>& direction, const std::array<float, 3>& ddx, const std::array<float, 3>& ddy) const {
    Lookup l;
    l.geometry = Geometry::Cube, l.mip = Lookup::Mip::Grad;
    l.f = direction, l.ddx = ddx, l.ddy = ddy;
    return std::bit_cast<float>(sample(tex, levels, l, Result::F32)[0]);
  }
};

// The level of detail: one record of inputs, then the levels chosen with each max anisotropy.
// Every level is the H200's, with every max anisotropy.
TEST(TextureCubeGradients, LevelOfDetailMatchesTheH200) {
  const std::vector<Record> rs = records();
  ASSERT_EQ(rs.size(), 327u);
  const std::vector<float>& in = rs[0].v;
  ASSERT_EQ(in.size(), 4320u * 12);
  for (size_t k = 1; k <= 5; ++k) {
    const Record& r = rs[k];
    ASSERT_EQ(r.part, 21u);
    const Cube cube(7, uint32_t(r.anisotropy), [](uint32_t l, uint32_t, uint32_t, uint32_t) { return float(l); });
    size_t wrong = 0;
    for (size_t i = 0; i < r.v.size(); ++i) {
      const float* p = &in[12 * i];
      const float got = cube.at({p[0], p[1], p[2]}, {p[4], p[5], p[6]}, {p[8], p[9], p[10]});
      if (got != r.v[i] && wrong++ < 4)
        ADD_FAILURE() << "max anisotropy " << r.anisotropy << ", lookup " << i << ": ptxvm " << got << ", H200 " << r.v[i];
    }
    std::printf("cube tex.grad levels, max anisotropy %g: %zu of %zu are the H200's\n", r.anisotropy,
                r.v.size() - wrong, r.v.size());
    EXPECT_EQ(wrong, 0u);
  }
}

// Footprints on a face: the one-texel texture looked up every 1/64 texel along a major axis of L
// texels (the probe's header gives the directions and gradients, rebuilt here as it builds them).
TEST(TextureCubeGradients, FootprintsMatchTheH200) {
  const std::vector<Record> rs = records();
  ASSERT_EQ(rs.size(), 327u);
  size_t lookups = 0, wrong = 0, rows = 0, rows_wrong = 0;
  for (size_t k = 7; k < rs.size(); ++k) {
    const Record& r = rs[k];
    ASSERT_EQ(r.part, 22u);
    const double L = r.head[0];
    const int kind = int(r.head[1]), code = int(r.head[2]), P = int(r.head[3]);
    const int face = code & 7;
    const double m = 1 + ((code >> 3) & 1);
    ASSERT_EQ(r.v.size(), size_t(2 * P + 1));
    const Cube cube(1, uint32_t(r.anisotropy), [](uint32_t, uint32_t f, uint32_t x, uint32_t y) {
      return (f == 0 || f == 4) && x == 32 && y == 32 ? 1.0f : 0.0f;
    });
    // Face +x: s = -z, t = -y, radial +x. Face +z: s = +x, t = -y, radial +z.
    const double off = 32.5 / 32 - 1;
    const double C[2][3] = {{1, -off, -off}, {off, -off, 1}}, S[2][3] = {{0, 0, -1}, {1, 0, 0}},
                 T[3] = {0, -1, 0}, R[2][3] = {{1, 0, 0}, {0, 0, 1}};
    const int f = face == 0 ? 0 : 1;
    const double angle[4][2] = {{1, 0}, {0, 1}, {std::sqrt(0.5), std::sqrt(0.5)}, {2 / std::sqrt(5.0), 1 / std::sqrt(5.0)}};
    const double* w = angle[kind == 4 ? 0 : kind];
    double u[3], v[3];
    for (int c = 0; c < 3; ++c) u[c] = w[0] * S[f][c] + w[1] * T[c], v[c] = -w[1] * S[f][c] + w[0] * T[c];
    std::array<float, 3> gx, gy;
    for (int c = 0; c < 3; ++c)
      gx[c] = float(L * u[c] / 32 + (kind == 4 ? L * R[f][c] / 32 : 0)), gy[c] = float(v[c] / 32);
    size_t bad = 0;
    for (int p = -P; p <= P; ++p) {
      std::array<float, 3> at;
      for (int c = 0; c < 3; ++c) at[c] = float(m * (C[f][c] + p / 64.0 * u[c] / 32));
      bad += cube.at(at, gx, gy) != r.v[size_t(p + P)];
    }
    lookups += r.v.size(), wrong += bad, rows += 1, rows_wrong += bad != 0;
  }
  std::printf("cube footprints: %zu of %zu lookups (%zu of %zu rows whole) are the H200's\n", lookups - wrong, lookups,
              rows - rows_wrong, rows);
  EXPECT_EQ(rows, 320u);
  EXPECT_EQ(wrong, 0u);
}

// The levels of a texture_lod probe of single gradients on a 64 x 64 level-number cube that ptxvm
// does not reproduce.
template <typename Lookup>
size_t level_misses(const char* file, const std::vector<Lookup>& in) {
  const std::vector<float> recorded = test::read_lookup_results(file);
  EXPECT_EQ(recorded.size(), in.size());
  if (recorded.size() != in.size()) return in.size();
  const Cube cube(7, 1, [](uint32_t l, uint32_t, uint32_t, uint32_t) { return float(l); });
  size_t wrong = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const Lookup& l = in[i];
    wrong += cube.at({l.dir[0], l.dir[1], l.dir[2]}, {l.ddx[0], l.ddx[1], l.ddx[2]}, {0, 0, 0}) != recorded[i];
  }
  std::printf("%s: %zu of %zu levels are the H200's\n", file, in.size() - wrong, in.size());
  return wrong;
}

// tests/hw/texture_lod/cube_edge.bin.xz: gradients whose end sweeps across the edge of face +x onto
// face +y, the level each gives (every 1/256 of direction-space length from 0 to 4, four directions,
// four sideways components), and cube_edges.bin.xz (from two points of every face across each of
// its four edges): level for level.
TEST(TextureCubeGradients, EdgeCrossingsMatchTheH200) {
  EXPECT_EQ(level_misses("cube_edge.bin.xz", cube_edge::one_edge()), 0u);
  EXPECT_EQ(level_misses("cube_edges.bin.xz", cube_edge::every_edge()), 0u);
}

// tests/hw/texture_lod/cube_quotient.bin.xz: point lookups whose face coordinate is exactly a texel
// edge, for every |ma| in [1, 2) in 1/1024 steps: the H200's sc/|ma| (the SFU's reciprocal times sc)
// lands below the edge for 2,300 of them; texel for texel.
TEST(TextureCubeGradients, FaceCoordinatesOnTexelEdgesMatchTheH200) {
  const std::vector<float> recorded = test::read_lookup_results("cube_quotient.bin.xz");
  const std::vector<cube_quotient::Lookup> in = cube_quotient::lookups();
  ASSERT_EQ(recorded.size(), in.size());
  Cube cube(1, 1, [](uint32_t, uint32_t face, uint32_t x, uint32_t y) { return float(x + 64 * y + 4096 * face); });
  cube.tex.sampler.filter = FilterMode::Point;
  size_t wrong = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const cube_quotient::Lookup& l = in[i];
    wrong += cube.at({l.dir[0], l.dir[1], l.dir[2]}, {0, 0, 0}, {0, 0, 0}) != recorded[i];
  }
  std::printf("cube face coordinates on texel edges: %zu of %zu texels are the H200's\n", in.size() - wrong, in.size());
  EXPECT_EQ(wrong, 0u);
}

}  // namespace
}  // namespace ptxvm::texture
