// Random gradient pairs on mip levels (issue 21): tests/hw/texture's "grad 2d u8x4 random" case
// differs in 87 of its 128 random lookups, where no probe so far had oblique footprints of more
// than two samples on levels above 0.
//
// Part 27: a 512 x 512 f32 texture of 10 levels, all 0 but one texel, (c, c) of level l for c =
// 256 >> l, l in 0..5 (the pairs' levels lie between 1 and 5), so X = (c + 1/2) 2^l level-0
// texels; linear filtering, linear mip filtering, normalized coordinates, clamp, under three
// samplers: max anisotropy 16 with the trilinear optimization off, 16 with it on, and 4 with it off
// (head's anisotropy: 16, -16 (on), 4). 24 random gradient pairs (splitmix64, seed 27: every
// component k/1024 level-0 texels, k uniform in -32768..32767, as the "u8x4 random" case draws
// them). Lookups on a grid around X: x = X + i H/32, y = X + j H/32 level-0 texels, i and j in
// -32..32, j-major (n = 65 * 65 = 4,225), where H = ceil((|dPdx.x| + |dPdx.y| + |dPdy.x| +
// |dPdy.y|) / 2) + 2^(l + 1) texels (computed in double). head: dPdx.x, dPdx.y, dPdy.x, dPdy.y.
// Order: sampler, then l, then pair, each sampler's part 28 records after its part 27 ones.
//
// Part 28: the level each pair gives: the level-number texture (256 x 256, 9 levels, level k's
// texels all k; parts 16-18's) looked up once at (128.5, 128.5) under the same pairs and samplers
// (n = 1, order: sampler, then pair).
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_random probe_aniso_random.cu
//   ./probe_aniso_random aniso_random.bin
#include <cmath>
#include <vector>

#include "../../splitmix64.h"
#include "probe_grad.h"

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_random OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  uint64_t seed = 27;
  std::vector<float4> pairs;
  for (int k = 0; k < 24; ++k) {
    float c[4];
    for (float& v : c) v = float(int64_t(ptxvm_hw_seed::splitmix64(seed) % 65536) - 32768) / 1024.0f;
    pairs.push_back(make_float4(c[0], c[1], c[2], c[3]));
  }
  const int limits[3] = {16, 16, 4};
  const bool exact[3] = {true, false, true};
  uint32_t expected = 0;
  for (int s = 0; s < 3; ++s) {
    const float head_limit = exact[s] ? float(limits[s]) : -float(limits[s]);
    for (int l = 0; l < 6; ++l) {
      const int c = 256 >> l;
      const Texture t = with_trilinear(
          make(512, 10, true, limits[s], [=](int level, int x, int y) { return level == l && x == c && y == c ? 1.0f : 0.0f; }),
          exact[s]);
      const float X = (float(c) + 0.5f) * float(1 << l);
      for (const float4& g : pairs) {
        const double H = std::ceil((std::fabs(double(g.x)) + std::fabs(double(g.y)) + std::fabs(double(g.z)) +
                                    std::fabs(double(g.w))) / 2) + double(2 << l);
        std::vector<float4> at, grads;
        for (int j = -32; j <= 32; ++j)
          for (int i = -32; i <= 32; ++i) {
            at.push_back(make_float4(X + float(i * H / 32), X + float(j * H / 32), 0, 0));
            grads.push_back(g);
          }
        const float head[4] = {g.x, g.y, g.z, g.w};
        record(27, head_limit, head, t, at, grads);
        ++expected;
      }
      cudaDestroyTextureObject(t.object);
    }
    const Texture numbers =
        with_trilinear(make(256, 9, true, limits[s], [](int level, int, int) { return float(level); }), exact[s]);
    for (const float4& g : pairs) {
      const float head[4] = {g.x, g.y, g.z, g.w};
      record(28, head_limit, head, numbers, {make_float4(128.5f, 128.5f, 0, 0)}, {g});
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
