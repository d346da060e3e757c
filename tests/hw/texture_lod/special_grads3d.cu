// Which length a NaN gradient component stands for in a 3D image (issue 21; special_grads.cu found
// 8 texels in a 16^3 texture): a NaN in each component of ddx or ddy, the rest zero, through 3D
// textures of several sizes whose levels hold their own index (trilinear, max anisotropy 1), and in
// the 16^3 one with one other component set. Writes one line per lookup: the texture's size, the
// component that is NaN (and the other one set), the value read.
//   nvcc -arch=sm_90 -O2 -o /tmp/special_grads3d special_grads3d.cu && /tmp/special_grads3d > special_grads3d.txt
#include <cmath>
#include <cstdio>
#include <vector>

#include "level_numbers.h"

__global__ void sample(cudaTextureObject_t t, int which, int other, float value, float* out) {
  float g[6] = {0, 0, 0, 0, 0, 0};
  if (other >= 0) g[other] = value;
  g[which] = nanf("");
  *out = tex3DGrad<float>(t, 0.5f, 0.5f, 0.5f, make_float4(g[0], g[1], g[2], 0), make_float4(g[3], g[4], g[5], 0));
}

int main() {
  const int shapes[][3] = {{8, 8, 8}, {16, 16, 16}, {32, 32, 32}, {64, 64, 64}, {64, 16, 4}, {4, 32, 64}};
  float* out;
  cudaMalloc(&out, 4);
  for (const auto& s : shapes) {
    int levels = 1;
    while ((std::max(std::max(s[0], s[1]), s[2]) >> levels) > 0) ++levels;
    const cudaTextureObject_t t = level_number_texture(level_numbers(s[0], s[1], s[2], levels), levels, 1, false);
    for (int which = 0; which < 6; ++which) {
      sample<<<1, 1>>>(t, which, -1, 0, out);
      float v;
      cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost);
      std::printf("%dx%dx%d (%d levels) %s.%c NaN -> %.9g\n", s[0], s[1], s[2], levels, which < 3 ? "ddx" : "ddy",
                  "xyz"[which % 3], v);
    }
    if (s[0] != 16 || s[1] != 16) continue;
    // With one other component set (in normalized units: 1/16 to 1 of the axis), for the 16^3 one.
    for (int which = 0; which < 6; ++which)
      for (int other = 0; other < 6; ++other)
        for (float value : {0.0625f, 0.125f, 0.25f, 0.5f, 1.0f, -0.25f}) {
          if (other == which) continue;
          sample<<<1, 1>>>(t, which, other, value, out);
          float v;
          cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost);
          std::printf("%dx%dx%d (%d levels) %s.%c NaN, %s.%c %g -> %.9g\n", s[0], s[1], s[2], levels,
                      which < 3 ? "ddx" : "ddy", "xyz"[which % 3], other < 3 ? "ddx" : "ddy", "xyz"[other % 3], value, v);
        }
  }
  return cudaGetLastError() != cudaSuccess;
}
