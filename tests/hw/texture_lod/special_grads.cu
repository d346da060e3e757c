// tex.grad with special gradient components on an H100/H200 (issue 21): NaN, infinities, zero, a
// huge and a subnormal value in each component of ddx and ddy, the others regular, through 1D, 2D
// and 3D textures whose levels hold their own index (trilinear; max anisotropy 1 and 16, the
// trilinear optimization off), so that each value read is the level chosen, to 1/256. Writes one
// text line per lookup: the sampler, the gradients' bits (texels), the value read.
//   nvcc -arch=sm_90 -O2 -o /tmp/special_grads special_grads.cu && /tmp/special_grads > special_grads.txt
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "level_numbers.h"

struct Probe {
  int dims, sampler;  // sampler 0: max anisotropy 1, 1: 16
  float g[6];         // ddx then ddy, dims components each, in texels
};

__global__ void sample(const cudaTextureObject_t* t, const Probe* in, float* out, int n, float size1, float size2,
                       float size3) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Probe p = in[i];
  if (p.dims == 1) {
    out[i] = tex1DGrad<float>(t[p.sampler], 0.5f, p.g[0] / size1, p.g[1] / size1);
  } else if (p.dims == 2) {
    out[i] = tex2DGrad<float>(t[2 + p.sampler], 0.5f, 0.5f, make_float2(p.g[0] / size2, p.g[1] / size2),
                              make_float2(p.g[2] / size2, p.g[3] / size2));
  } else {
    out[i] = tex3DGrad<float>(t[4 + p.sampler], 0.5f, 0.5f, 0.5f,
                              make_float4(p.g[0] / size3, p.g[1] / size3, p.g[2] / size3, 0),
                              make_float4(p.g[3] / size3, p.g[4] / size3, p.g[5] / size3, 0));
  }
}

int main() {
  const int n1 = 64, l1 = 7, n2 = 64, l2 = 7, n3 = 16, l3 = 5;
  const cudaMipmappedArray_t m1 = level_numbers(n1, 0, 0, l1), m2 = level_numbers(n2, n2, 0, l2),
                             m3 = level_numbers(n3, n3, n3, l3);
  cudaTextureObject_t objects[6] = {level_number_texture(m1, l1, 1, true),  level_number_texture(m1, l1, 16, true),
                                    level_number_texture(m2, l2, 1, true),  level_number_texture(m2, l2, 16, true),
                                    level_number_texture(m3, l3, 1, true),  level_number_texture(m3, l3, 16, true)};
  float nan, inf, denormal;
  const uint32_t bits[3] = {0x7fc00000u, 0x7f800000u, 0x00000100u};
  std::memcpy(&nan, &bits[0], 4), std::memcpy(&inf, &bits[1], 4), std::memcpy(&denormal, &bits[2], 4);
  const float specials[] = {nan, -nan, inf, -inf, 0.0f, -0.0f, 1e30f, denormal};
  const float regular[] = {0.0f, 1.0f, 3.0f, -2.5f};
  std::vector<Probe> in;
  for (int dims = 1; dims <= 3; ++dims)
    for (int sampler = 0; sampler < 2; ++sampler)
      for (int pos = 0; pos < 2 * dims; ++pos)
        for (float s : specials)
          for (int base = 0; base < 16; ++base) {  // the other components from `regular`, by base's digits
            Probe p{dims, sampler, {}};
            for (int k = 0, b = base; k < 2 * dims; ++k, b = b * 3 + 1) p.g[k] = regular[(b + k) % 4];
            p.g[pos] = s;
            in.push_back(p);
          }
  const int n = int(in.size());
  cudaTextureObject_t* dt;
  cudaMalloc(&dt, sizeof objects);
  cudaMemcpy(dt, objects, sizeof objects, cudaMemcpyHostToDevice);
  const std::vector<float> out = run_lookups(in, [&](const Probe* d_in, float* o, int count) {
    sample<<<(count + 127) / 128, 128>>>(dt, d_in, o, count, float(n1), float(n2), float(n3));
  });
  if (cudaGetLastError() != cudaSuccess) return std::fprintf(stderr, "CUDA error\n"), 1;
  for (int i = 0; i < n; ++i) {
    const Probe& p = in[i];
    std::printf("%dD aniso %d:", p.dims, p.sampler ? 16 : 1);
    for (int k = 0; k < 2 * p.dims; ++k) {
      uint32_t b;
      std::memcpy(&b, &p.g[k], 4);
      std::printf(" %08x", b);
    }
    uint32_t b;
    std::memcpy(&b, &out[i], 4);
    std::printf(" -> %08x %.9g\n", b, out[i]);
  }
  return 0;
}
