// Follows probe_aniso.cu (issue 21): where exactly the H100's anisotropic samples fall and how much
// each weighs. Footprints at every 1/256 of a texel: the 64 x 64 f32 texture holding 1 at texel
// (32, 32), no levels, linear filtering, normalized coordinates, max anisotropy 16; a major axis of L
// texels along x (dPdx = (L, 0)) and a minor one of 1 along y (dPdy = (0, 1)); lookups at x = 32.5 +
// di + p/256 (di in -13..13, p in 0..255), y = 32.5 (the row's centre, so only row 32 counts). The
// result is the weight the footprint centred at x gives texel 32: a piecewise linear function of x
// whose kinks sit at the samples.
//   part 6: L = 1 + j/32, j = 0..95 (1 .. 3.97), then 4 .. 8 by 1/4, then 9 .. 24;
//   part 8: L = 1 + j/256, j = 0..256, di in -3..3 (two samples: where, at every L);
//   part 9: L = 2 + j/64, j = 0..128, di in -5..5 (where the count grows past two).
// Levels (part 7): the 256 x 256 texture of 9 levels holding their level number, trilinear, at the
// centre; dPdx = (M, 0), dPdy = (0, M / r) with M = 32 texels and 45.25 (2^5.5) and r = 1 + j/64,
// j = 0..192 (1 .. 4), max anisotropy 2, 4, 8 and 16: one record per (anisotropy, M), the lookups
// of j.
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats (parts 6, 8, 9: L, 0, 0, 1; part 7: M, 0, 0, 0), uint32 n, n f32 results
// (parts 6, 8, 9: di-major, then p).
//   nvcc -O2 -o probe_aniso_phase probe_aniso_phase.cu && ./probe_aniso_phase aniso_phase.bin
#include <cmath>

#include "probe_grad.h"

int main(int argc, char** argv) {
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  const Texture one_hot = make(64, 0, true, 16, [](int, int x, int y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  // One record per major axis L: the footprint over di in -window..window at every 1/256.
  auto sweep = [&](uint32_t part, const std::vector<float>& lengths, int window) {
    for (float L : lengths) {
      std::vector<float4> at, grad;
      for (int di = -window; di <= window; ++di)
        for (int p = 0; p < 256; ++p) {
          at.push_back(make_float4(32.5f + di + p / 256.0f, 32.5f, 0, 0));
          grad.push_back(make_float4(L, 0, 0, 1));
        }
      const float head[4] = {L, 0, 0, 1};
      record(part, 16, head, one_hot, at, grad);
    }
  };
  std::vector<float> lengths;
  for (int j = 0; j < 96; ++j) lengths.push_back(1 + j / 32.0f);
  for (int j = 0; j <= 16; ++j) lengths.push_back(4 + j / 4.0f);
  for (int l = 9; l <= 24; ++l) lengths.push_back(float(l));
  sweep(6, lengths, 13);
  for (int a : {2, 4, 8, 16}) {
    const Texture t = make(256, 9, true, a, [](int level, int, int) { return float(level); });
    for (float major : {32.0f, 45.254834f}) {
      std::vector<float4> at, grad;
      for (int j = 0; j <= 192; ++j) {
        at.push_back(make_float4(128.5f, 128.5f, 0, 0));
        grad.push_back(make_float4(major, 0, 0, major / (1 + j / 64.0f)));
      }
      const float head[4] = {major, 0, 0, 0};
      record(7, float(a), head, t, at, grad);
    }
  }
  std::vector<float> fine, middle;
  for (int j = 0; j <= 256; ++j) fine.push_back(1 + j / 256.0f);
  for (int j = 0; j <= 128; ++j) middle.push_back(2 + j / 64.0f);
  sweep(8, fine, 3);
  sweep(9, middle, 5);
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  std::printf("%u records: %s\n", records, cudaGetErrorString(cudaGetLastError()));
}
