// The anisotropic level of detail with the major axis fixed (issue 21): aniso_area_inputs.h's pairs
// through a 1024 x 1024 float texture whose 11 levels hold their own index, trilinear, max
// anisotropy 16, the trilinear optimization off, so that each value read is log2(minor axis) =
// log2(area) - 3 as the H200 takes it, to 1/256. Writes uint32 count, then one f32 per lookup.
//   nvcc -arch=sm_90 -O2 -o /tmp/aniso_area aniso_area.cu && /tmp/aniso_area aniso_area.bin
#include <cstdio>
#include <vector>

#include "aniso_area_inputs.h"
#include "level_numbers.h"

__global__ void sample(cudaTextureObject_t t, const aniso_area::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const aniso_area::Lookup l = in[i];
  out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(l.ddx[0] / 1024, l.ddx[1] / 1024),
                            make_float2(l.ddy[0] / 1024, l.ddy[1] / 1024));
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: aniso_area OUT.bin\n"), 2;
  const int levels = 11;
  const cudaTextureObject_t t = level_number_texture(level_numbers(1024, 1024, 0, levels), levels, 16, true);
  const std::vector<float> out = run_lookups(aniso_area::lookups(), [&](const aniso_area::Lookup* in, float* o, int n) {
    sample<<<(n + 255) / 256, 256>>>(t, in, o, n);
  });
  if (!write_results(argv[1], out)) return std::fprintf(stderr, "CUDA error\n"), 1;
  std::printf("%zu lookups\n", out.size());
  return 0;
}
