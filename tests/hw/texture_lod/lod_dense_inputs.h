// The gradient pairs of lod_dense.cu (issue 21), shared by the probe that recorded them on an H200
// and by the replay (tests/sem/texture_lod_hw_test.cpp): each lookup is ddx, ddy in texels of a
// 1024 x 1024 texture and the sampler it goes through (0: max anisotropy 1; 1: max anisotropy 16
// with the trilinear optimization off), so that the value read is the level of detail in 1/256.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace lod_dense {

struct Lookup {
  float ddx[2], ddy[2];
  uint32_t set, sampler;
};

// The sets, in the order they are recorded:
//  0 one gradient (1 + i/65536, 0), i = 0..65535: the logarithm at 16 bits of the length;
//  1 one gradient (p, q)/64, p, q = 0..511: the length of one vector;
//  2 a pair ddx = ddy = (p, q)/64, p, q = 0..255: the sum's term for parallel gradients;
//  3 ddx = (floor(p/2), floor(q/2))/64, ddy = (ceil(p/2), ceil(q/2))/64, p, q = 0..511: the sum;
//  4 ddx = (ceil(p/2), ceil(q/2))/64, ddy = -(floor(p/2), floor(q/2))/64: the difference;
//  5 131,072 random pairs (components ±2^(6u) v, u and v uniform);
//  6 anisotropy 16: ddx = (8, 0), ddy = (c, m)/64, c = -128..128, m = 64..160: the area 8m
//    whatever c is, the major axis 8 texels;
//  7 set 6 turned by 5, 20, 30 and 45 degrees (the turn in f32, so the area is 8m to f32's bits);
//  8 anisotropy 16: ddx = (M, 0), ddy = (0, 1 + j/256), M = 5.5, 6.25, 7, 9.75, j = 0..767;
//  9 anisotropy 16: 65,536 random pairs as set 5's.
inline std::vector<Lookup> lookups() {
  std::vector<Lookup> v;
  for (int i = 0; i < 65536; ++i) v.push_back({{1.0f + float(i) / 65536, 0}, {0, 0}, 0, 0});
  for (int q = 0; q < 512; ++q)
    for (int p = 0; p < 512; ++p) v.push_back({{float(p) / 64, float(q) / 64}, {0, 0}, 1, 0});
  for (int q = 0; q < 256; ++q)
    for (int p = 0; p < 256; ++p) v.push_back({{float(p) / 64, float(q) / 64}, {float(p) / 64, float(q) / 64}, 2, 0});
  for (int q = 0; q < 512; ++q)
    for (int p = 0; p < 512; ++p)
      v.push_back({{float(p / 2) / 64, float(q / 2) / 64}, {float((p + 1) / 2) / 64, float((q + 1) / 2) / 64}, 3, 0});
  for (int q = 0; q < 512; ++q)
    for (int p = 0; p < 512; ++p)
      v.push_back({{float((p + 1) / 2) / 64, float((q + 1) / 2) / 64}, {-float(p / 2) / 64, -float(q / 2) / 64}, 4, 0});
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto uniform = [&state] {  // [0, 1), 24 bits of a 64-bit LCG
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return float(state >> 40) / 16777216.0f;
  };
  auto component = [&] {
    const float scale = std::exp2(6 * uniform());
    return (uniform() < 0.5f ? -scale : scale) * uniform();
  };
  for (int i = 0; i < 131072; ++i) {
    Lookup l{{component(), component()}, {component(), component()}, 5, 0};
    v.push_back(l);
  }
  for (int m = 64; m <= 160; ++m)
    for (int c = -128; c <= 128; ++c) v.push_back({{8, 0}, {float(c) / 64, float(m) / 64}, 6, 1});
  for (float degrees : {5.0f, 20.0f, 30.0f, 45.0f}) {
    const float a = degrees * 3.14159265f / 180, cs = std::cos(a), sn = std::sin(a);
    for (int m = 64; m <= 160; ++m)
      for (int c = -128; c <= 128; ++c) {
        const float x = float(c) / 64, y = float(m) / 64;
        v.push_back({{8 * cs, 8 * sn}, {x * cs - y * sn, x * sn + y * cs}, 7, 1});
      }
  }
  for (float major : {5.5f, 6.25f, 7.0f, 9.75f})
    for (int j = 0; j < 768; ++j) v.push_back({{major, 0}, {0, 1 + float(j) / 256}, 8, 1});
  for (int i = 0; i < 65536; ++i) {
    Lookup l{{component(), component()}, {component(), component()}, 9, 1};
    v.push_back(l);
  }
  return v;
}

}  // namespace lod_dense
