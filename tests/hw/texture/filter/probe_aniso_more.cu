// Follows probe_aniso_levels.cu (issue 21): the open items 1, 3, 4 and 6 of README.md's list
// "Open, and the probes that would settle it".
//
// Part 16 (item 1, the upper level's footprint while a blend splits the weight): parts 11-13's
// 128 x 128 f32 texture of 8 levels, all 0 but texel (32, 32) of level 1 (the upper level of a
// 0-1 blend; X = 65 in level-0 texels) or texel (64, 64) of level 0 (X = 64.5); linear filtering,
// linear mip filtering, normalized coordinates, clamp, max anisotropy A = 16 and 4.
// dPdx = (L, 0), dPdy = (0, 1), L = A 2^((f - 1/4) / 256) computed in double, rounded to float, so
// that the level of detail log2(L) - log2(A), rounded up to 1/256, is f/256 (a quarter step below,
// so that rounding up and rounding to nearest agree). f is chosen for the sharpened upper share u:
//   A = 16 (u = 2f - 128):             f = 96, 128, 160  -> u = 64, 128, 192;
//   A = 4  (u = floor((7f + 2)/4) - 95): f = 91, 127, 128, 164 -> u = 64, 127, 129, 192.
// Lookups as parts 11-13: x = X + di + p/256, y = X (di in -w..w, p in 0..255), w = A + 6 for the
// texel on level 1, A + 4 on level 0; the result is the weight the footprint centred at x gives the
// texel. head: L, f, u, texel level (1 or 0); n = (2w + 1) 256, di-major, then p.
// After each A's footprints, one level-readout record (head 0, 0, 0, -1): the level-number
// texture of parts 14 and 18 (same A) looked up at its centre under each of that A's gradients,
// in f order (n = 3 or 4): the level blend those gradients really get.
// Order: A = 16, then 4; per A the texel on level 1, then 0; per level f ascending; the readout.
//
// Part 17 (item 3, the last bit of the minor-driven level): a 256 x 256 texture of 9 levels
// holding their level numbers, trilinear, max anisotropy 16, looked up at its centre (the result
// is the level blend, 1/256 steps, after sharpening). The major fixed at M in {8, 12} texels, the
// minor m = 2^(k/1024) texels, k = 0..2048 (every 1/1024 octave from 1 to 4; the ratio M/m stays
// within 2..12, so the level is log2(m), from the area), at angle t in {0, 0.05, 0.3} radians:
// dPdx = (M cos t, M sin t), dPdy = (-m sin t, m cos t), each component computed in double and
// rounded to float once (t = 0: exactly (M, 0) and (0, m); off the axes every component has
// more than 10 significant bits). head: M, t, 0, 0; n = 2049, by k. Order: M, then t.
//
// Part 18 (item 4, the level cap C(A)): the level-number texture as part 14 (256 x 256, 9
// levels), looked up at its centre, s = 2 + i/1024 texels, i = 0..2048 (computed in float):
//   c = 1: dPdx = (A s, 0), dPdy = (0, 1)  (part 14's configuration 1), for A = 9, 10, 11, 13, 14,
//          15, then 6, 8, 12, 16 (controls, as in part 14);
//   c = 7: dPdx = (8 s, 0), dPdy = (0, s)  (ratio 8) for A = 6.
// head: c, ratio (0 for c = 1, 8 for c = 7), 0, 0; n = 2049, by i. Order as listed.
//
// Part 19 (item 6, how RGBA8 and f16 round an anisotropic sum): a 64 x 64 texture of 4 channels,
// format 0: RGBA8 unsigned normalized (read as normalized float), format 1: f16 x 4 (read as
// float); no levels, linear filtering, normalized coordinates, clamp, max anisotropy 16; random
// texels (xorshift32, fixed seed; RGBA8: random bytes; f16: random sign, exponent 2^-4 .. 2^1,
// random mantissa). Per format first a data record, head: format, 0, 0, 1; n = 64 * 64 * 4: texel
// (x, y) channel c at (y 64 + x) 4 + c (RGBA8: the byte 0..255; f16: the half's value, exact).
// Then one lookup record per gradient pair (dPdx, dPdy) =
//   ((r, 0), (0, 1)) for r in {1, 1.5, 2, 3, 4, 5} (r = 1: plain bilinear, a control), then
//   ((1, 0), (0, 3)) (ratio 3 along y),
// head: format, dPdx.x, dPdy.y, 0; 4096 lookups at x = 8 + i 9/64, y = 8 + j 9/64 texels (i, j in
// 0..63, j-major), n = 16384: FOUR floats per lookup (channels x, y, z, w), result
// [(j 64 + i) 4 + c]. Order: format 0, then 1.
//
// Part 20 (item 4, whether the cap limits the sample count too), max anisotropy 6, dPdx = (a, 0),
// dPdy = (0, b), lookups x = X + di + p/256, y = X, di in -w..w, p in 0..255 (the weight the
// footprint centred at x gives the one texel). head: a, b, texture, 0; n = (2w + 1) 256:
//   texture -1: a 64 x 64 f32 array without levels, 1 at texel (32, 32) (X = 32.5, w = 10),
//               a = L in {5, 5.5, 5.875, 6, 6.5, 7, 8, 12}, b = 1;
//   texture 1: part 16's 8-level texture with the texel (32, 32) on level 1 (X = 65, w = 20),
//              ratio r in {5, 6, 7, 8, 12}: a = r b, b = 2 for r <= 6, else b = 2^3.5625 / r
//              (so the capped level log2(a) - 656/256 is 1; every level near 1 is sharpened to
//              level 1 alone).
// Order: texture -1 by L, then texture 1 by r.
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_more probe_aniso_more.cu
//   ./probe_aniso_more aniso_more.bin
#include <algorithm>
#include <cmath>
#include <cstring>

#include "probe_four.h"

// The one-texel row lookups of parts 16 and 20: x = X + di + p/256, y = X.
void row_lookups(float X, int w, float4 g, std::vector<float4>& at, std::vector<float4>& grad) {
  for (int di = -w; di <= w; ++di)
    for (int p = 0; p < 256; ++p) {
      at.push_back(make_float4(X + di + p / 256.0f, X, 0, 0));
      grad.push_back(g);
    }
}

Texture level_numbers(int a) {
  return make(256, 9, true, a, [](int level, int, int) { return float(level); });
}

Texture one_texel(int l, int a) {  // parts 11-13's texture, the texel on level l
  const int c = 64 >> l;
  return make(128, 8, true, a, [=](int level, int x, int y) { return level == l && x == c && y == c ? 1.0f : 0.0f; });
}

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_more OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  uint32_t expected = 0;

  // Part 16.
  for (int a : {16, 4}) {
    const std::vector<int> fs = a == 16 ? std::vector<int>{96, 128, 160} : std::vector<int>{91, 127, 128, 164};
    auto share = [=](int f) { return std::clamp(a == 16 ? 2 * f - 128 : (7 * f + 2) / 4 - 95, 0, 256); };
    auto length = [=](int f) { return float(a * std::exp2((f - 0.25) / 256)); };
    for (int l : {1, 0}) {
      const Texture t = one_texel(l, a);
      const float X = l == 1 ? 65.0f : 64.5f;
      const int w = a + (l == 1 ? 6 : 4);
      for (int f : fs) {
        const float L = length(f);
        std::vector<float4> at, grad;
        row_lookups(X, w, make_float4(L, 0, 0, 1), at, grad);
        const float head[4] = {L, float(f), float(share(f)), float(l)};
        record(16, float(a), head, t, at, grad);
        ++expected;
      }
    }
    const Texture numbered = level_numbers(a);
    std::vector<float4> at, grad;
    for (int f : fs) {
      at.push_back(make_float4(128.5f, 128.5f, 0, 0));
      grad.push_back(make_float4(length(f), 0, 0, 1));
    }
    const float head[4] = {0, 0, 0, -1};
    record(16, float(a), head, numbered, at, grad);
    ++expected;
  }

  // Part 17.
  {
    const Texture numbered = level_numbers(16);
    for (double M : {8.0, 12.0})
      for (double angle : {0.0, 0.05, 0.3}) {
        const double c = std::cos(angle), s = std::sin(angle);
        std::vector<float4> at, grad;
        for (int k = 0; k <= 2048; ++k) {
          const double m = std::exp2(k / 1024.0);
          at.push_back(make_float4(128.5f, 128.5f, 0, 0));
          grad.push_back(make_float4(float(M * c), float(M * s), float(-m * s), float(m * c)));
        }
        const float head[4] = {float(M), float(angle), 0, 0};
        record(17, 16, head, numbered, at, grad);
        ++expected;
      }
  }

  // Part 18.
  for (int a : {9, 10, 11, 13, 14, 15, 6, 8, 12, 16}) {
    const Texture numbered = level_numbers(a);
    for (int c : {1, 7}) {
      if (c == 7 && a != 6) continue;
      std::vector<float4> at, grad;
      for (int i = 0; i <= 2048; ++i) {
        const float s = 2 + i / 1024.0f;
        at.push_back(make_float4(128.5f, 128.5f, 0, 0));
        grad.push_back(c == 1 ? make_float4(float(a) * s, 0, 0, 1) : make_float4(8.0f * s, 0, 0, s));
      }
      const float head[4] = {float(c), c == 1 ? 0.0f : 8.0f, 0, 0};
      record(18, float(a), head, numbered, at, grad);
      ++expected;
    }
  }

  // Part 19.
  for (int format : {0, 1}) expected += four_channel_records(19, format);

  // Part 20.
  {
    const Texture flat =
        make(64, 0, true, 6, [](int, int x, int y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
    for (float L : {5.0f, 5.5f, 5.875f, 6.0f, 6.5f, 7.0f, 8.0f, 12.0f}) {
      std::vector<float4> at, grad;
      row_lookups(32.5f, 10, make_float4(L, 0, 0, 1), at, grad);
      const float head[4] = {L, 1, -1, 0};
      record(20, 6, head, flat, at, grad);
      ++expected;
    }
    const Texture t = one_texel(1, 6);
    for (int r : {5, 6, 7, 8, 12}) {
      const float b = r <= 6 ? 2.0f : float(std::exp2(3.5625) / r), a = float(r) * b;
      std::vector<float4> at, grad;
      row_lookups(65.0f, 20, make_float4(a, 0, 0, b), at, grad);
      const float head[4] = {a, b, 1, 0};
      record(20, 6, head, t, at, grad);
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
