// Follows probe_pairs.cu (issue 21): which quantum the H100's sRGB filter cuts a blend's smaller
// decoded value to, for every larger byte. A 512 x 1 sRGB RGBA8 texture holds pairs: texel 2k has
// every channel k, texel 2k + 1 has R 1, G 5, B 20, A 0 (alpha is not sRGB); lookups at 2k + 0.5 +
// w/256 + 2^-10 blend them with weight w of the second, for k in 0..255 and w in 1..255.
// Writes OUT: uint32 65,280, then float4 results, k-major (w from 1).
//   nvcc -O2 -o probe_srgb_quantum probe_srgb_quantum.cu && ./probe_srgb_quantum srgb_quantum.bin
#include <cstdio>

#include "probe_row.h"

__global__ void sample(cudaTextureObject_t t, float4* out) {
  const int w = threadIdx.x + 1, k = blockIdx.x;
  out[k * 255 + threadIdx.x] = tex2D<float4>(t, 2 * k + 0.5f + w / 256.0f + 1.0f / 1024, 0.5f);
}

int main(int argc, char** argv) {
  std::vector<uint8_t> texels(512 * 4);
  const uint8_t second[4] = {1, 5, 20, 0};
  for (int k = 0; k < 256; ++k)
    for (int c = 0; c < 4; ++c) texels[(2 * k) * 4 + c] = uint8_t(k), texels[(2 * k + 1) * 4 + c] = second[c];
  const cudaTextureObject_t t = row_texture(texels, false, true);
  float4* out;
  const uint32_t n = 256 * 255;
  cudaMalloc(&out, n * sizeof(float4));
  sample<<<256, 255>>>(t, out);
  std::vector<float4> v(n);
  cudaMemcpy(v.data(), out, n * sizeof(float4), cudaMemcpyDeviceToHost);
  FILE* f = std::fopen(argv[1], "wb");
  std::fwrite(&n, 4, 1, f);
  std::fwrite(v.data(), sizeof(float4), n, f);
  std::fclose(f);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
