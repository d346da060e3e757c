// Follows probe_aniso.cu (issue 21): the step between the H100's anisotropic samples when the major
// axis is off the texture's axes, and the two samples' offset (ratio < 2) there.
//
// Footprints, part 10: the 64 x 64 f32 texture of probe_aniso.cu holding 1 at texel (32, 32), no
// levels, linear filtering, normalized coordinates, clamp, max anisotropy 16. A major axis of L
// texels at angle a in dPdx, a minor one of 1 texel perpendicular to it in dPdy:
// dPdx = (L cos a, L sin a), dPdy = (-sin a, cos a) (each component computed in double, rounded to
// float once; an exact 0 on the axes). Each footprint is looked up on two grids of 33 x 33 lookups,
// shifted by whole texels (di, dj) in -16..16 from a sub-texel position:
//   grid 0: (32.8125, 32.6875) + (di, dj), probe_aniso.cu's part 1 grid;
//   grid 1: (32.8125 + 1/256, 32.6875 + 1/256) + (di, dj),
// so that a step (or an offset) quantized relative to the centre moves every sample by the 1/256
// the centre moves, and an absolute position quantized coarser than 1/256 does not. Lookup (di, dj)
// returns the weight the footprint centred there gives texel (32, 32), which is the footprint's
// weight at offset (-di, -dj) from its centre.
//   L in {1.25, 1.5, 1.75, 4, 4.25, 5, 6, 7, 8, 12} (ratio < 2: two samples; ratio >= 4);
//   a = t / 512 turn for t = 0..64 (0 to 45 degrees every 0.703125 degrees), then, for symmetry,
//   t in {88, 104, 120} (t = 40, 24, 8 mirrored through 45 degrees), 128 (90 degrees), 152 (90 +
//   t = 24), 192 (135), 280 (180 + t = 24), 488 (-t = 24); then the directions (2, 1) and (3, 1)
//   (26.57 and 18.43 degrees, the angles of probe_aniso.cu, normalized in double).
// One record per (L, a), L-major: 10 x 75 = 750 records.
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part (10), float max
// anisotropy (16), float dPdx.x, dPdx.y, dPdy.x, dPdy.y (texels), uint32 n (2178), n f32 results:
// grid-major, then dj, then di (result [g][dj + 16][di + 16]).
//   nvcc -O2 -arch=sm_90 -o probe_aniso_step probe_aniso_step.cu && ./probe_aniso_step OUT
#include <cmath>

#include "probe_grad.h"

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_step OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  const Texture t =
      make(64, 0, true, 16, [](int, int x, int y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  const float lengths[] = {1.25f, 1.5f, 1.75f, 4, 4.25f, 5, 6, 7, 8, 12};
  std::vector<double> angles;  // radians
  const double pi = 3.14159265358979323846;
  for (int k = 0; k <= 64; ++k) angles.push_back(2 * pi * k / 512);
  for (int k : {88, 104, 120, 128, 152, 192, 280, 488}) angles.push_back(2 * pi * k / 512);
  angles.push_back(std::atan2(1.0, 2.0));
  angles.push_back(std::atan2(1.0, 3.0));
  for (float L : lengths)
    for (double a : angles) {
      double c = std::cos(a), s = std::sin(a);
      if (std::fabs(c) < 1e-12) c = 0;
      if (std::fabs(s) < 1e-12) s = 0;
      const float g[4] = {float(L * c), float(L * s), float(-s), float(c)};
      std::vector<float4> at, grad;
      for (int grid = 0; grid < 2; ++grid)
        for (int dj = -16; dj <= 16; ++dj)
          for (int di = -16; di <= 16; ++di) {
            const float shift = grid / 256.0f;
            at.push_back(make_float4(32.8125f + shift + di, 32.6875f + shift + dj, 0, 0));
            grad.push_back(make_float4(g[0], g[1], g[2], g[3]));
          }
      record(10, 16, g, t, at, grad);
    }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t e = cudaGetLastError();
  std::printf("%u records: %s\n", records, cudaGetErrorString(e));
  return records == 750 && e == cudaSuccess ? 0 : 1;
}
