// Follows probe_aniso.cu and probe_aniso_phase.cu (issue 21): the H100's anisotropic footprint on
// levels above 0, and the last bit of the level of detail (and its sharpened blend) with max
// anisotropy > 1.
//
// Footprints on levels (parts 11, 12, 13): a 128 x 128 f32 texture of 8 levels, all 0 but one
// texel: texel (64, 64) of level 0 (part 11), (32, 32) of level 1 (part 12) or (16, 16) of level 2
// (part 13); linear filtering, linear mip filtering, normalized coordinates, clamp, max anisotropy
// A = 16 and 4. A major axis of L = A 2^(j/16) texels along x, dPdx = (L, 0), a minor one of 1
// along y, dPdy = (0, 1), so that the level of detail is log2(L / A) = j/16 (up to the last bit of
// the hardware's log) and the ratio A: part 11 for j = 0..16, part 12 for j = 0..32, part 13 for
// j = 16..32. Lookups as probe_aniso_phase.cu's part 6, at every 1/256 of a texel along the row
// through the texel: x = X + di + p/256, y = X (di in -w..w, p in 0..255), X the texel's centre in
// level 0's texels (64.5, 65, 66 for parts 11, 12, 13: y is then the centre of the texel's row on
// its own level); w = A/2 max(S, 2^l) + 2^(l+1) + 2 for the texel on level l, S = L/A rounded up to
// a power of two (room for A samples 2^ceil(lod) or 2^l level-0 texels apart, and the filter). The
// result is the weight the footprint centred at x gives the texel.
// Order: A = 16, then 4; per A the texel on level 0, 1, 2; per level j ascending.
//
// Level readout (parts 14, 15): a 256 x 256 texture of 9 levels holding their level numbers,
// trilinear, looked up at its centre, so that a lookup returns the level blend (1/256 steps, after
// the sharpening of the blend that max anisotropy > 1 brings), for max anisotropy A in
// {1, 2, 3, 4, 5, 6, 7, 8, 12, 16}:
//   part 14 (tex.grad): one record per (A, configuration c = 0..6), lookup i = 0..2048 with
//     s = 2 + i/1024 texels (exact: every 1/2048 of the octave 2..4, every mantissa of 11 bits);
//     the gradients, computed in float (h = 0.70710678f):
//       c = 0: dPdx = (s, 0),      dPdy = (0, 1)    major swept, minor 1;
//       c = 1: dPdx = (A s, 0),    dPdy = (0, 1)    the lod from the major, log2(A s) - log2 A;
//       c = 2: dPdx = (s, 0),      dPdy = (0, s)    isotropic;
//       c = 3: dPdx = (1.5 s, 0),  dPdy = (0, s)    the lod from the minor, ratio 1.5;
//       c = 4: dPdx = (3 s, 0),    dPdy = (0, s)    ratio 3;
//       c = 5: dPdx = (1.5 s h, 1.5 s h), dPdy = (-(s h), s h)    ratio 1.5 at 45 degrees;
//       c = 6: dPdx = (s, 0),      dPdy = (0, 3 s)  ratio 3, the major in dPdy, along y;
//   part 15 (tex.level, tex2DLod): one record per A, lookup j = 0..2048 at level j/1024 (0 to 2).
// Order: part 14 A-major then c, then part 15 by A.
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats (parts 11-13: dPdx.x, dPdx.y, dPdy.x, dPdy.y = L, 0, 0, 1; part 14: c, 0, 0,
// 0; part 15: 0, 0, 0, 0), uint32 n, n f32 results (parts 11-13: n = (2w + 1) 256, di-major, then
// p; parts 14, 15: n = 2049, by i or j).
//   nvcc -O2 -arch=sm_90 -o probe_aniso_levels probe_aniso_levels.cu
//   ./probe_aniso_levels aniso_levels.bin
#include <algorithm>
#include <cmath>

#include "probe_grad.h"

__global__ void sample_level(cudaTextureObject_t t, float x, float y, const float* level,
                             float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = tex2DLod<float>(t, x, y, level[i]);
}

// As record, for tex.level lookups at the texture's centre.
void record_level(uint32_t part, float anisotropy, const Texture& t,
                  const std::vector<float>& level) {
  const int n = int(level.size());
  float *dl, *dout;
  cudaMalloc(&dl, n * 4);
  cudaMalloc(&dout, n * 4);
  cudaMemcpy(dl, level.data(), n * 4, cudaMemcpyHostToDevice);
  sample_level<<<(n + 127) / 128, 128>>>(t.object, 0.5f, 0.5f, dl, dout, n);
  std::vector<float> v(n);
  cudaMemcpy(v.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  cudaFree(dl), cudaFree(dout);
  const float head[4] = {0, 0, 0, 0};
  write_record(part, anisotropy, head, v);
}

// Part 14's gradients (see above).
float4 readout_grad(int c, int a, float s) {
  const float h = 0.70710678f;
  switch (c) {
    case 0: return make_float4(s, 0, 0, 1);
    case 1: return make_float4(float(a) * s, 0, 0, 1);
    case 2: return make_float4(s, 0, 0, s);
    case 3: return make_float4(1.5f * s, 0, 0, s);
    case 4: return make_float4(3.0f * s, 0, 0, s);
    case 5: {
      const float major = 1.5f * s;
      return make_float4(major * h, major * h, -(s * h), s * h);
    }
    default: return make_float4(s, 0, 0, 3.0f * s);
  }
}

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_levels OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  uint32_t expected = 0;
  for (int a : {16, 4})
    for (int l = 0; l < 3; ++l) {
      const int c = 64 >> l;  // the texel, on level l
      const Texture t = make(128, 8, true, a, [=](int level, int x, int y) {
        return level == l && x == c && y == c ? 1.0f : 0.0f;
      });
      const float X = (c + 0.5f) * float(1 << l);
      for (int j = l == 2 ? 16 : 0; j <= (l == 0 ? 16 : 32); ++j) {
        const float L = float(a * std::exp2(j / 16.0));
        double S = 1;  // L / A rounded up to a power of two, at least 2^l
        while (S < L / double(a) * (1 - 1e-6)) S *= 2;
        const int w = int(a / 2 * std::max(S, double(1 << l))) + (2 << l) + 2;
        std::vector<float4> at, grad;
        for (int di = -w; di <= w; ++di)
          for (int p = 0; p < 256; ++p) {
            at.push_back(make_float4(X + di + p / 256.0f, X, 0, 0));
            grad.push_back(make_float4(L, 0, 0, 1));
          }
        const float head[4] = {L, 0, 0, 1};
        record(11 + l, float(a), head, t, at, grad);
        ++expected;
      }
    }
  const int limits[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16};
  std::vector<Texture> numbered;
  for (int a : limits)
    numbered.push_back(make(256, 9, true, a, [](int level, int, int) { return float(level); }));
  for (int k = 0; k < 10; ++k)
    for (int c = 0; c < 7; ++c) {
      std::vector<float4> at, grad;
      for (int i = 0; i <= 2048; ++i) {
        at.push_back(make_float4(128.5f, 128.5f, 0, 0));
        grad.push_back(readout_grad(c, limits[k], 2 + i / 1024.0f));
      }
      const float head[4] = {float(c), 0, 0, 0};
      record(14, float(limits[k]), head, numbered[k], at, grad);
      ++expected;
    }
  for (int k = 0; k < 10; ++k) {
    std::vector<float> level;
    for (int j = 0; j <= 2048; ++j) level.push_back(j / 1024.0f);
    record_level(15, float(limits[k]), numbered[k], level);
    ++expected;
  }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t e = cudaGetLastError();
  std::printf("%u records: %s\n", records, cudaGetErrorString(e));
  return records == expected && e == cudaSuccess ? 0 : 1;
}
