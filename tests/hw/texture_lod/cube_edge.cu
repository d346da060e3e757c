// tex.grad on a cube map across a face edge on an H100/H200 (issue 21): cube_edge_inputs.h's lookups
// (one_edge for cube_edge.bin, every_edge for cube_edges.bin) through a cube of 64 x 64 faces whose
// 7 levels hold their own index (trilinear, the trilinear optimization off, max anisotropy 1), so
// that each value read is the level the sampler chose from the unfolded face gradient, to 1/256.
// Writes uint32 count, then one f32 per lookup.
//   nvcc -arch=sm_90 -O2 -o /tmp/cube_edge cube_edge.cu
//   /tmp/cube_edge one cube_edge.bin && /tmp/cube_edge every cube_edges.bin
#include <cstdio>
#include <string>
#include <vector>

#include "cube_edge_inputs.h"
#include "level_numbers.h"

__global__ void sample(cudaTextureObject_t t, const cube_edge::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const cube_edge::Lookup l = in[i];
  out[i] = texCubemapGrad<float>(t, l.dir[0], l.dir[1], l.dir[2], make_float4(l.ddx[0], l.ddx[1], l.ddx[2], 0),
                                 make_float4(0, 0, 0, 0));
}

int main(int argc, char** argv) {
  const std::string set = argc == 3 ? argv[1] : "";
  if (set != "one" && set != "every") return std::fprintf(stderr, "usage: cube_edge one|every OUT.bin\n"), 2;
  const int levels = 7;
  const cudaTextureObject_t t = level_number_texture(level_number_cube(64, levels), levels, 1, true);
  const std::vector<float> out = run_lookups(set == "one" ? cube_edge::one_edge() : cube_edge::every_edge(),
                                             [&](const cube_edge::Lookup* in, float* o, int n) {
                                               sample<<<(n + 255) / 256, 256>>>(t, in, o, n);
                                             });
  if (!write_results(argv[2], out)) return std::fprintf(stderr, "CUDA error\n"), 1;
  std::printf("%zu lookups\n", out.size());
  return 0;
}
