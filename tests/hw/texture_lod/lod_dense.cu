// Dense maps of tex.grad's level of detail on an H100/H200 (issue 21): the lookups of
// lod_dense_inputs.h through a 1024 x 1024 float texture whose 11 levels hold their own index,
// trilinear, so that each value read is the level the sampler chose, to 1/256. Writes
// lod_dense.bin: uint32 count, then one f32 per lookup, in lookups()'s order.
//   nvcc -arch=sm_90 -O2 -o /tmp/lod_dense lod_dense.cu && /tmp/lod_dense lod_dense.bin
#include <cstdio>
#include <vector>

#include "level_numbers.h"
#include "lod_dense_inputs.h"

__global__ void sample(const cudaTextureObject_t* t, const lod_dense::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const lod_dense::Lookup l = in[i];
  out[i] = tex2DGrad<float>(t[l.sampler], 0.5f, 0.5f, make_float2(l.ddx[0] / 1024, l.ddx[1] / 1024),
                            make_float2(l.ddy[0] / 1024, l.ddy[1] / 1024));
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: lod_dense OUT.bin\n"), 2;
  const int levels = 11;
  const cudaMipmappedArray_t m = level_numbers(1024, 1024, 0, levels);
  // sampler 0: max anisotropy 1; 1: 16 with the trilinear optimization off
  const cudaTextureObject_t objects[2] = {level_number_texture(m, levels, 1, false),
                                          level_number_texture(m, levels, 16, true)};
  cudaTextureObject_t* dt;
  cudaMalloc(&dt, sizeof objects);
  cudaMemcpy(dt, objects, sizeof objects, cudaMemcpyHostToDevice);
  const std::vector<float> out = run_lookups(lod_dense::lookups(), [&](const lod_dense::Lookup* in, float* o, int n) {
    sample<<<(n + 255) / 256, 256>>>(dt, in, o, n);
  });
  if (!write_results(argv[1], out)) return std::fprintf(stderr, "CUDA error\n"), 1;
  std::printf("%zu lookups\n", out.size());
  return 0;
}
