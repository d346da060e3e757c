// Anisotropic footprints of gradient pairs that are not axis-aligned (issue 21): the part of
// tests/hw/texture's "grad" cases that still differs is rotated perpendicular pairs and random
// pairs, where the major axis, its step and the ratio are all oblique.
//
// Part 23: a 64 x 64 f32 texture without levels, all 0 but texel (32, 32), which holds 1; linear
// filtering, normalized coordinates, clamp, max anisotropy 16 (probe_grad.h's make). Each lookup
// returns the weight its footprint gives that texel. Per gradient pair, lookups on a grid around
// the texel's centre X = 32.5: x = X + i/16, y = X + j/16 texels, i and j in -96..96 (±6 texels),
// j-major (n = 193 * 193 = 37,249). head: dPdx.x, dPdx.y, dPdy.x, dPdy.y (level-0 texels, as
// given; record() divides by the size in f32). The pairs, each component computed in double and
// rounded to float once:
//   - perpendicular, rotated: dPdx = L (cos t, sin t), dPdy = (-sin t, cos t) for t in {atan(1/2),
//     atan(2/3), pi/6, pi/3, 0.17} and L in {1.5, 3, 6} (15 pairs);
//   - oblique: dPdx = (L, 0), dPdy = m (cos p, sin p) for p in {pi/6, pi/3, 1.4}, L in {3, 6},
//     m in {1, 2} (12 pairs);
//   - random: 20 pairs, each component uniform in [-6, 6) (xorshift32, fixed seed; 24 bits).
// Order as listed (t-major, then L; p-major, then L, then m).
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_oblique probe_aniso_oblique.cu
//   ./probe_aniso_oblique aniso_oblique.bin
#include <array>
#include <cmath>
#include <vector>

#include "probe_grad.h"

uint32_t rng = 0x6C8E9CF5u;
double uniform() {  // [0, 1)
  rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
  return double(rng >> 8) / double(1 << 24);
}

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_oblique OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  const Texture t = make(64, 0, true, 16, [](int, int x, int y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  std::vector<std::array<double, 4>> pairs;
  for (double angle : {std::atan(0.5), std::atan(2.0 / 3), M_PI / 6, M_PI / 3, 0.17})
    for (double L : {1.5, 3.0, 6.0})
      pairs.push_back({L * std::cos(angle), L * std::sin(angle), -std::sin(angle), std::cos(angle)});
  for (double p : {M_PI / 6, M_PI / 3, 1.4})
    for (double L : {3.0, 6.0})
      for (double m : {1.0, 2.0}) pairs.push_back({L, 0, m * std::cos(p), m * std::sin(p)});
  for (int k = 0; k < 20; ++k) {
    std::array<double, 4> g;
    for (double& c : g) c = 12 * uniform() - 6;
    pairs.push_back(g);
  }
  const float X = 32.5f;
  for (const auto& g : pairs) {
    const float4 grad = make_float4(float(g[0]), float(g[1]), float(g[2]), float(g[3]));
    std::vector<float4> at, grads;
    for (int j = -96; j <= 96; ++j)
      for (int i = -96; i <= 96; ++i) {
        at.push_back(make_float4(X + i / 16.0f, X + j / 16.0f, 0, 0));
        grads.push_back(grad);
      }
    const float head[4] = {grad.x, grad.y, grad.z, grad.w};
    record(23, 16, head, t, at, grads);
  }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t e = cudaGetLastError();
  std::printf("%u records (expected %zu): %s\n", records, pairs.size(), cudaGetErrorString(e));
  return records == pairs.size() && e == cudaSuccess ? 0 : 1;
}
