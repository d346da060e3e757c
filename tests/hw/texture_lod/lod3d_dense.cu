// Dense maps of tex.grad's level of detail in a 3D image on an H100/H200 (issue 21): the lookups of
// lod3d_dense_inputs.h (`dense`) or lod3d_rest_inputs.h (`rest`) through a 128^3 float texture whose
// 8 levels hold their own index, trilinear, max anisotropy 1, so that each value read is the level
// the sampler chose, to 1/256. Writes uint32 count, then one f32 per lookup, in lookups()'s order.
//   nvcc -arch=sm_90 -O2 -o /tmp/lod3d_dense lod3d_dense.cu
//   /tmp/lod3d_dense dense lod3d_dense.bin && /tmp/lod3d_dense rest lod3d_rest.bin
#include <cstdio>
#include <string>
#include <vector>

#include "level_numbers.h"
#include "lod3d_dense_inputs.h"
#include "lod3d_rest_inputs.h"

__global__ void sample(cudaTextureObject_t t, const lod3d_dense::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const lod3d_dense::Lookup l = in[i];
  const float s = 128;
  out[i] = tex3DGrad<float>(t, 0.5f, 0.5f, 0.5f, make_float4(l.ddx[0] / s, l.ddx[1] / s, l.ddx[2] / s, 0),
                            make_float4(l.ddy[0] / s, l.ddy[1] / s, l.ddy[2] / s, 0));
}

int main(int argc, char** argv) {
  const bool dense = argc == 3 && std::string(argv[1]) == "dense";
  if (argc != 3 || (!dense && std::string(argv[1]) != "rest"))
    return std::fprintf(stderr, "usage: lod3d_dense dense|rest OUT.bin\n"), 2;
  const int levels = 8;
  const cudaTextureObject_t t = level_number_texture(level_numbers(128, 128, 128, levels), levels, 1, false);
  const std::vector<float> out =
      run_lookups(dense ? lod3d_dense::lookups() : lod3d_rest::lookups(), [&](const lod3d_dense::Lookup* in, float* o, int n) {
        sample<<<(n + 255) / 256, 256>>>(t, in, o, n);
      });
  if (!write_results(argv[2], out)) return std::fprintf(stderr, "CUDA error\n"), 1;
  std::printf("%zu lookups\n", out.size());
  return 0;
}
