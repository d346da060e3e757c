// tex.grad on a cube map across every edge of every face on an H100/H200 (issue 21):
// cube_edges_inputs.h's lookups through a cube of 64 x 64 faces whose 7 levels hold their own index (trilinear, the trilinear
// optimization off, max anisotropy 1), so that each value read is the level the sampler chose from
// the unfolded face gradient, to 1/256. Writes uint32 count, then one f32 per lookup.
//   nvcc -arch=sm_90 -O2 -o /tmp/cube_edges cube_edges.cu && /tmp/cube_edges cube_edges.bin
#include <cstdio>
#include <vector>

#include "cube_edges_inputs.h"
#include "level_numbers.h"

__global__ void sample(cudaTextureObject_t t, const cube_edges::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const cube_edges::Lookup l = in[i];
  out[i] = texCubemapGrad<float>(t, l.dir[0], l.dir[1], l.dir[2], make_float4(l.ddx[0], l.ddx[1], l.ddx[2], 0),
                                 make_float4(0, 0, 0, 0));
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: cube_edges OUT.bin\n"), 2;
  const int levels = 7;
  const cudaTextureObject_t t = level_number_texture(level_number_cube(64, levels), levels, 1, true);
  const std::vector<float> out = run_lookups(cube_edges::lookups(), [&](const cube_edges::Lookup* in, float* o, int n) {
    sample<<<(n + 255) / 256, 256>>>(t, in, o, n);
  });
  if (!write_results(argv[1], out)) return std::fprintf(stderr, "CUDA error\n"), 1;
  std::printf("%zu lookups\n", out.size());
  return 0;
}
