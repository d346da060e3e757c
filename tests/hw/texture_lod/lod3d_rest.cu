// The 11/16 length of a three-component sum or difference on an H100/H200 (issue 21): the lookups of
// lod3d_rest_inputs.h through a 128^3 float texture whose 8 levels hold their own index, trilinear,
// max anisotropy 1, so that each value read is the level the sampler chose, to 1/256. Writes
// uint32 count, then one f32 per lookup, in lookups()'s order.
//   nvcc -arch=sm_90 -O2 -o /tmp/lod3d_rest lod3d_rest.cu && /tmp/lod3d_rest lod3d_rest.bin
#include <cstdio>
#include <vector>

#include "level_numbers.h"
#include "lod3d_rest_inputs.h"

__global__ void sample(cudaTextureObject_t t, const lod3d_rest::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const lod3d_rest::Lookup l = in[i];
  const float s = 128;
  out[i] = tex3DGrad<float>(t, 0.5f, 0.5f, 0.5f, make_float4(l.ddx[0] / s, l.ddx[1] / s, l.ddx[2] / s, 0),
                            make_float4(l.ddy[0] / s, l.ddy[1] / s, l.ddy[2] / s, 0));
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: lod3d_rest OUT.bin\n"), 2;
  const int levels = 8;
  const cudaTextureObject_t t = level_number_texture(level_numbers(128, 128, 128, levels), levels, 1, false);
  const std::vector<float> out =
      run_lookups(lod3d_rest::lookups(), [&](const lod3d_rest::Lookup* in, float* o, int n) {
        sample<<<(n + 255) / 256, 256>>>(t, in, o, n);
      });
  if (!write_results(argv[1], out)) return std::fprintf(stderr, "CUDA error\n"), 1;
  std::printf("%zu lookups\n", out.size());
  return 0;
}
