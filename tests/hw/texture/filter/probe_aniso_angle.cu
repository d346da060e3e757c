// The step direction of anisotropic footprints whose major axis is the gradients' sum (issue 21;
// README.md, "Oblique footprints: part 23": the H200 steps 1-4 degrees off the sum's direction).
//
// Part 24: part 23's texture (64 x 64 f32 without levels, all 0 but texel (32, 32); linear,
// normalized coordinates, clamp, max anisotropy 16). Per gradient pair, lookups on a grid around the
// texel's centre X = 32.5: x = X + i/8, y = X + j/8 texels, i and j in -32..32 (±4 texels), j-major
// (n = 65 * 65 = 4,225). The pairs: dPdx = (L, 0), dPdy = m (cos p, sin p) for (L, m) in {(3, 2),
// (4, 3), (3, 3), (5, 2)} and p = k degrees, k = 0..60 (L-major; each component computed in double
// and rounded to float once). head: dPdx.x, dPdx.y, dPdy.x, dPdy.y.
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_angle probe_aniso_angle.cu
//   ./probe_aniso_angle aniso_angle.bin
#include <array>
#include <cmath>
#include <vector>

#include "probe_grad.h"

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_angle OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  const Texture t = make(64, 0, true, 16, [](int, int x, int y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  const double lm[4][2] = {{3, 2}, {4, 3}, {3, 3}, {5, 2}};
  uint32_t expected = 0;
  for (const auto& p : lm)
    for (int k = 0; k <= 60; ++k) {
      const double a = k * M_PI / 180;
      const float4 grad = make_float4(float(p[0]), 0, float(p[1] * std::cos(a)), float(p[1] * std::sin(a)));
      std::vector<float4> at, grads;
      for (int j = -32; j <= 32; ++j)
        for (int i = -32; i <= 32; ++i) {
          at.push_back(make_float4(32.5f + i / 8.0f, 32.5f + j / 8.0f, 0, 0));
          grads.push_back(grad);
        }
      const float head[4] = {grad.x, grad.y, grad.z, grad.w};
      record(24, 16, head, t, at, grads);
      ++expected;
    }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t e = cudaGetLastError();
  std::printf("%u records (expected %u): %s\n", records, expected, cudaGetErrorString(e));
  return records == expected && e == cudaSuccess ? 0 : 1;
}
