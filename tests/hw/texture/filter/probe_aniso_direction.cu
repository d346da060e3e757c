// The step direction of anisotropic footprints whose major axis is the gradients' sum or
// difference (issue 21; README.md, "Step directions of sums: part 31"): how the vector scaled by
// 11/16 is rounded before the step is quantized.
//
// Parts 31 and 32: part 23's texture (64 x 64 f32 without levels, all 0 but texel (32, 32); linear,
// normalized coordinates, clamp, max anisotropy 16). Per gradient pair of aniso_direction_inputs.h
// (part 31: 1,500 random pairs whose sum or difference is about the major axis, then pairs where
// candidate roundings disagree; part 32: pairs whose sum or difference ties the longer gradient),
// lookups on a grid scaled to the footprint around the texel's centre X = 32.5:
// x = X + i H/32, y = X + j H/32 texels, i and j in -32..32, j-major (n = 4,225), H =
// ceil((|dPdx.x| + |dPdx.y| + |dPdy.x| + |dPdy.y|) / 2) + 2 (in double). head: dPdx.x, dPdx.y,
// dPdy.x, dPdy.y.
//
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats head, uint32 n, n f32 results.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe_aniso_direction probe_aniso_direction.cu
//   ./probe_aniso_direction aniso_direction.bin
#include <cmath>
#include <vector>

#include "aniso_direction_inputs.h"
#include "probe_grad.h"

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe_aniso_direction OUT\n"), 2;
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  const Texture t = make(64, 0, true, 16, [](int, int x, int y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  size_t expected = 0;
  for (int part : {31, 32})
    for (const aniso_direction::Pair& p : aniso_direction::pairs(part)) {
      const float4 g = make_float4(p.g[0], p.g[1], p.g[2], p.g[3]);
      const double H = std::ceil((std::fabs(double(g.x)) + std::fabs(double(g.y)) + std::fabs(double(g.z)) +
                                  std::fabs(double(g.w))) / 2) + 2;
      std::vector<float4> at, grads;
      for (int j = -32; j <= 32; ++j)
        for (int i = -32; i <= 32; ++i) {
          at.push_back(make_float4(32.5f + float(i * H / 32), 32.5f + float(j * H / 32), 0, 0));
          grads.push_back(g);
        }
      record(part, 16, p.g, t, at, grads);
      ++expected;
    }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  const cudaError_t e = cudaGetLastError();
  std::printf("%u records (expected %zu): %s\n", records, expected, cudaGetErrorString(e));
  return records == expected && e == cudaSuccess ? 0 : 1;
}
