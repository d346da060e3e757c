// Probes the H100's anisotropic filtering (issue 21): where tex.grad samples when
// max_anisotropy > 1, with which weights, and at which level of detail.
//
// Footprints: a 64 x 64 f32 texture holding 1 at texel (32, 32) and 0 elsewhere, normalized
// coordinates, clamp. Each gradient pair is looked up 33 x 33 times at one sub-texel position,
// (32.8125, 32.6875) in texels, shifted by whole texels (di, dj) in -16..16: lookup (di, dj) returns
// the weight the footprint centred there gives texel (32, 32), which is the footprint's weight at
// offset (-di, -dj) from its centre.
//   part 1: an array with no levels, linear filtering, max anisotropy 16 and 4;
//   part 2: the same with point filtering, max anisotropy 16;
//   part 3: a 7-level mipmapped array whose level 0 holds the one texel (the others 0), linear
//           filtering and linear mip filtering, max anisotropy 16;
//   part 4: as part 3 with the one texel at (16, 16) of level 1 instead.
// Gradient pairs: a major axis of L texels at angle a and a minor one of m texels perpendicular to
// it, L in 1 .. 24, m in {1, 0.5}, six angles, the major axis in dPdx or in dPdy.
//
// Levels (part 5): a 256 x 256 texture of 9 levels holding their level number, trilinear, so that
// a lookup returns the level the filter uses (1/256 steps). The major axis M = 2^(k/16) texels,
// k = 0..127, the minor M / r, r in {1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32}, along x, along y and at
// 45 degrees; max anisotropy 2, 4, 8 and 16. One record per (anisotropy, orientation, r), with the
// 128 lookups of k.
//
// Writes OUT: uint32 records; per record: uint32 part, float max_anisotropy, float dPdx.x,
// dPdx.y, dPdy.x, dPdy.y (texels of level 0; parts 1-4; part 5: the orientation 0 x, 1 y, 2 45
// degrees, then r, 0, 0), uint32 n, n f32 results.
//   nvcc -O2 -o probe_aniso probe_aniso.cu && ./probe_aniso aniso.bin
#include <cmath>

#include "probe_grad.h"

void footprints(uint32_t part, int anisotropy, const Texture& t) {
  const float lengths[] = {1, 1.25f, 1.5f, 1.75f, 2, 2.5f, 3, 3.5f, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24};
  const float angles[][2] = {{1, 0}, {0, 1}, {2, 1}, {1, 1}, {1, 2}, {3, 1}};  // directions, normalized below
  for (float major : lengths)
    for (float minor : {1.0f, 0.5f})
      for (const auto& d : angles)
        for (int swap = 0; swap < 2; ++swap) {
          const float len = std::sqrt(d[0] * d[0] + d[1] * d[1]), c = d[0] / len, s = d[1] / len;
          float g[4] = {major * c, major * s, -minor * s, minor * c};
          if (swap) std::swap(g[0], g[2]), std::swap(g[1], g[3]);
          std::vector<float4> at, grad;
          for (int dj = -16; dj <= 16; ++dj)
            for (int di = -16; di <= 16; ++di) {
              at.push_back(make_float4(32.8125f + di, 32.6875f + dj, 0, 0));
              grad.push_back(make_float4(g[0], g[1], g[2], g[3]));
            }
          record(part, float(anisotropy), g, t, at, grad);
        }
}

int main(int argc, char** argv) {
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  auto one_hot = [](int level, int x, int y) { return level == 0 && x == 32 && y == 32 ? 1.0f : 0.0f; };
  for (int a : {16, 4}) footprints(1, a, make(64, 0, true, a, one_hot));
  footprints(2, 16, make(64, 0, false, 16, one_hot));
  footprints(3, 16, make(64, 7, true, 16, one_hot));
  footprints(4, 16, make(64, 7, true, 16, [](int level, int x, int y) { return level == 1 && x == 16 && y == 16 ? 1.0f : 0.0f; }));
  const float ratios[] = {1, 1.5f, 2, 3, 4, 6, 8, 12, 16, 24, 32};
  for (int a : {2, 4, 8, 16}) {
    const Texture t = make(256, 9, true, a, [](int level, int, int) { return float(level); });
    for (int orientation = 0; orientation < 3; ++orientation)
      for (float r : ratios) {
        std::vector<float4> at, grad;
        for (int k = 0; k < 128; ++k) {
          const float major = std::exp2(k / 16.0f), minor = major / r;
          at.push_back(make_float4(128.5f, 128.5f, 0, 0));
          if (orientation == 0) grad.push_back(make_float4(major, 0, 0, minor));
          else if (orientation == 1) grad.push_back(make_float4(minor, 0, 0, major));
          else grad.push_back(make_float4(major * 0.70710678f, major * 0.70710678f, -minor * 0.70710678f, minor * 0.70710678f));
        }
        const float head[4] = {float(orientation), r, 0, 0};
        record(5, float(a), head, t, at, grad);
      }
  }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  std::printf("%u records: %s\n", records, cudaGetErrorString(cudaGetLastError()));
}
