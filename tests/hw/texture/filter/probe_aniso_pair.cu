// Two samples (anisotropy ratios under 2) on a level above 0 (issue 21; README.md, part 25): where
// do they sit, as a function of the ratio and the level blend?
//
// Part 26: parts 11-13's texture shape (128 x 128 f32, 8 levels, all 0 but texel (32, 32) of level
// 1, X = 65 level-0 texels), linear filtering, linear mip filtering with the trilinear optimization
// OFF (cudaTextureDesc::disableTrilinearOptimization: the upper level's share is the level's
// fraction f itself), normalized coordinates, clamp, max anisotropy 16. dPdx = (L, 0), dPdy = (0, m)
// with m = 2^(1 + f/256 + 1/1024) and L = m 2^((x + 1/4)/256) (each computed in double, rounded to
// float once), so that the level is 1 + f/256 and the ratio x/256 (a quarter step above, so that
// rounding up and down agree), for x = 4, 8, ..., 252 and f in {0, 32, 96, 160, 224}. Lookups along
// the texel's row: x = X + i/32, y = X level-0 texels, i in -128..128 (n = 257). head: L, m, x, f.
// Order: f-major, then x.
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_pair probe_aniso_pair.cu
//   ./probe_aniso_pair aniso_pair.bin
#include <cmath>
#include <vector>

#include "probe_grad.h"

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_pair OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  Texture t = make(128, 8, true, 16, [](int level, int x, int y) { return level == 1 && x == 32 && y == 32 ? 1.0f : 0.0f; });
  // make() leaves the trilinear optimization on: rebuild the object with it off.
  cudaResourceDesc res{};
  cudaGetTextureObjectResourceDesc(&res, t.object);
  cudaTextureDesc td{};
  cudaGetTextureObjectTextureDesc(&td, t.object);
  td.disableTrilinearOptimization = 1;
  cudaDestroyTextureObject(t.object);
  cudaCreateTextureObject(&t.object, &res, &td, nullptr);
  uint32_t expected = 0;
  for (int f : {0, 32, 96, 160, 224})
    for (int x = 4; x <= 252; x += 4) {
      const double m = std::exp2(1 + f / 256.0 + 1 / 1024.0), L = m * std::exp2((x + 0.25) / 256);
      std::vector<float4> at, grads;
      for (int i = -128; i <= 128; ++i) {
        at.push_back(make_float4(65.0f + i / 32.0f, 65.0f, 0, 0));
        grads.push_back(make_float4(float(L), 0, 0, float(m)));
      }
      const float head[4] = {float(L), float(m), float(x), float(f)};
      record(26, 16, head, t, at, grads);
      ++expected;
    }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t e = cudaGetLastError();
  std::printf("%u records (expected %u): %s\n", records, expected, cudaGetErrorString(e));
  return records == expected && e == cudaSuccess ? 0 : 1;
}
