// Nearly isotropic rotated gradient pairs on mip levels (issue 21): tests/hw/texture's "grad 2d"
// cases still differ by 1/512 texel in rotated pairs of ratio 1 to 1.1 whose level is above 0;
// part 23 has such pairs only without levels, where they are exact.
//
// Part 25: parts 11-13's texture (probe_aniso_levels.cu): 128 x 128 f32, 8 levels, all 0 but one
// texel: (64, 64) of level 0 (X = 64.5 level-0 texels) or (32, 32) of level 1 (X = 65); linear
// filtering, linear mip filtering (the trilinear optimization on), normalized coordinates, clamp,
// max anisotropy 16. Lookups on a grid around X: x = X + i/8, y = X + j/8 level-0 texels, i and j in
// -48..48 (±6 texels), j-major (n = 97 * 97 = 9,409). The gradients: dPdx = g (cos t, sin t), dPdy =
// (g / r) (-sin t, cos t) for the ratio r in {1, 1.05, 1.2, 1.5}, the angle t in {0, atan(2/3), pi/6,
// pi/4} and g = 2^(1 + f) texels for f in {0.4, 0.75} (levels of about 1.4 and 1.75 at r = 1), each
// component computed in double, rounded to float once. head: dPdx.x, dPdx.y, dPdy.x, dPdy.y.
// Order: texel level 0 then 1; per level f, then r, then t.
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_round probe_aniso_round.cu
//   ./probe_aniso_round aniso_round.bin
#include <array>
#include <cmath>
#include <vector>

#include "probe_grad.h"

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_round OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  uint32_t expected = 0;
  for (int l : {0, 1}) {
    const int c = 64 >> l;
    const Texture t = make(128, 8, true, 16, [=](int level, int x, int y) {
      return level == l && x == c && y == c ? 1.0f : 0.0f;
    });
    const float X = l == 0 ? 64.5f : 65.0f;
    for (double f : {0.4, 0.75})
      for (double r : {1.0, 1.05, 1.2, 1.5})
        for (double a : {0.0, std::atan(2.0 / 3), M_PI / 6, M_PI / 4}) {
          const double g = std::exp2(1 + f);
          const float4 grad = make_float4(float(g * std::cos(a)), float(g * std::sin(a)), float(-g / r * std::sin(a)),
                                          float(g / r * std::cos(a)));
          std::vector<float4> at, grads;
          for (int j = -48; j <= 48; ++j)
            for (int i = -48; i <= 48; ++i) {
              at.push_back(make_float4(X + i / 8.0f, X + j / 8.0f, 0, 0));
              grads.push_back(grad);
            }
          const float head[4] = {grad.x, grad.y, grad.z, grad.w};
          record(25, 16, head, t, at, grads);
          ++expected;
        }
  }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t e = cudaGetLastError();
  std::printf("%u records (expected %u): %s\n", records, expected, cudaGetErrorString(e));
  return records == expected && e == cudaSuccess ? 0 : 1;
}
