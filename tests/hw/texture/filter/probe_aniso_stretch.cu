// Stretched steps on a level (issue 21; README.md, parts 27 and 28 left open how the step of a
// stretched level turns and rounds): footprints of two, four or more samples at every angle, on the
// lower level of a blend, their axis a gradient, the gradients' sum or their difference.
//
// Part 29: a 512 x 512 f32 texture of 10 levels, all 0 but texel (128, 128) of level 1 (X = 257
// level-0 texels); linear filtering, linear mip filtering with the trilinear optimization off,
// normalized coordinates, clamp, max anisotropy 16. For angle t = k pi/24 (k = 0..47, all around)
// and a level 1 + f/256 (f in {24, 72, 120, 168, 216}), with m = 2^(1 + (f + 1/2)/256) texels:
//   kind 0 (the axis dPdx): dPdx = 3m (cos t, sin t), dPdy = m (-sin t, cos t);
//   kind 1 (the axis their sum): dPdx = a (cos t, sin t), dPdy = a (cos(t + 0.6), sin(t + 0.6));
//   kind 2 (their difference): dPdx = a (cos t, sin t), dPdy = -a (cos(t + 0.6), sin(t + 0.6)),
// a = 2.327 m (so that the minor axis, the area over 11/16 of the sum, is about m);
//   kind 3 (two samples): dPdx = 1.5m (cos t, sin t), dPdy = m (-sin t, cos t).
// Each component computed in double, rounded to float once. Lookups on part 27's grid: x = X + i
// H/32, y = X + j H/32 level-0 texels, i and j in -32..32, j-major (n = 4,225), H = ceil((|dPdx.x|
// + |dPdx.y| + |dPdy.x| + |dPdy.y|) / 2) + 4 texels (in double). head: dPdx.x, dPdx.y, dPdy.x,
// dPdy.y. Order: kind, then f, then k.
//
// Part 30: the level each footprint gives: the level-number texture (256 x 256, 9 levels, level
// k's texels all k) looked up once at (128.5, 128.5) under the same gradients and sampler (n = 1,
// the same order, after part 29).
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_stretch probe_aniso_stretch.cu
//   ./probe_aniso_stretch aniso_stretch.bin
#include <cmath>
#include <vector>

#include "probe_grad.h"

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_stretch OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  std::vector<float4> pairs;
  for (int kind = 0; kind < 4; ++kind)
    for (int f : {24, 72, 120, 168, 216})
      for (int k = 0; k < 48; ++k) {
        const double m = std::exp2(1 + (f + 0.5) / 256), t = k * M_PI / 24;
        if (kind == 0 || kind == 3) {
          const double L = kind == 0 ? 3 * m : 1.5 * m;
          pairs.push_back(make_float4(float(L * std::cos(t)), float(L * std::sin(t)), float(-m * std::sin(t)),
                                      float(m * std::cos(t))));
        } else {
          const double a = 2.327 * m, s = kind == 1 ? a : -a;
          pairs.push_back(make_float4(float(a * std::cos(t)), float(a * std::sin(t)), float(s * std::cos(t + 0.6)),
                                      float(s * std::sin(t + 0.6))));
        }
      }
  const Texture t = with_trilinear(
      make(512, 10, true, 16, [](int level, int x, int y) { return level == 1 && x == 128 && y == 128 ? 1.0f : 0.0f; }),
      true);
  uint32_t expected = 0;
  for (const float4& g : pairs) {
    const double H =
        std::ceil((std::fabs(double(g.x)) + std::fabs(double(g.y)) + std::fabs(double(g.z)) + std::fabs(double(g.w))) / 2) + 4;
    std::vector<float4> at, grads;
    for (int j = -32; j <= 32; ++j)
      for (int i = -32; i <= 32; ++i) {
        at.push_back(make_float4(257.0f + float(i * H / 32), 257.0f + float(j * H / 32), 0, 0));
        grads.push_back(g);
      }
    const float head[4] = {g.x, g.y, g.z, g.w};
    record(29, 16, head, t, at, grads);
    ++expected;
  }
  const Texture numbers = with_trilinear(make(256, 9, true, 16, [](int level, int, int) { return float(level); }), true);
  for (const float4& g : pairs) {
    const float head[4] = {g.x, g.y, g.z, g.w};
    record(30, 16, head, numbers, {make_float4(128.5f, 128.5f, 0, 0)}, {g});
    ++expected;
  }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t e = cudaGetLastError();
  std::printf("%u records (expected %u): %s\n", records, expected, cudaGetErrorString(e));
  return records == expected && e == cudaSuccess ? 0 : 1;
}
