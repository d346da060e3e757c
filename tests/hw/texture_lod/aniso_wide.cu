// Random anisotropic tex.grad lookups on an H100/H200 (issue 21): the lookups of aniso_wide_inputs.h
// through a 256 x 256 f32 texture of 9 levels of random texels (clamp, linear with a linear mip
// filter, normalized coordinates) under six samplers (max anisotropy 2, 4, 8, 16 with the trilinear
// optimization, 4 and 16 without). Writes uint32 count, then one f32 per lookup, in lookups()'s
// order.
//   nvcc -arch=sm_90 -O2 -o /tmp/aniso_wide aniso_wide.cu && /tmp/aniso_wide aniso_wide.bin
#include <cstdio>
#include <vector>

#include "aniso_wide_inputs.h"
#include "level_numbers.h"

struct Objects {
  cudaTextureObject_t t[aniso_wide::kSamplers];
};

__global__ void sample(Objects o, const aniso_wide::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const aniso_wide::Lookup l = in[i];
  const float s = aniso_wide::kSize;
  out[i] = tex2DGrad<float>(o.t[l.sampler], l.x, l.y, make_float2(l.ddx[0] / s, l.ddx[1] / s),
                            make_float2(l.ddy[0] / s, l.ddy[1] / s));
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: aniso_wide OUT.bin\n"), 2;
  using namespace aniso_wide;
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  cudaMallocMipmappedArray(&m, &f, make_cudaExtent(kSize, kSize, 0), kLevels);
  for (int l = 0; l < kLevels; ++l) {
    const int n = kSize >> l;
    std::vector<float> v(size_t(n) * n);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) v[size_t(y) * n + x] = texel(l, x, y);
    cudaArray_t a;
    cudaGetMipmappedArrayLevel(&a, m, l);
    cudaMemcpy2DToArray(a, 0, 0, v.data(), n * 4, n * 4, n, cudaMemcpyHostToDevice);
  }
  Objects o;
  for (int s = 0; s < kSamplers; ++s) o.t[s] = level_number_texture(m, kLevels, kLimit[s], kExact[s]);
  const std::vector<float> out = run_lookups(lookups(), [&](const Lookup* in, float* r, int n) {
    sample<<<(n + 255) / 256, 256>>>(o, in, r, n);
  });
  if (!write_results(argv[1], out)) return std::fprintf(stderr, "CUDA error\n"), 1;
  std::printf("%zu lookups\n", out.size());
  return 0;
}
