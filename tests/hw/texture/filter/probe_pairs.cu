// Probes how the H100 blends two texels of the 8-bit formats whose linear filtering ptxvm does not
// yet reproduce (issue 21): sRGB RGBA8 (CU_TRSF_SRGB) and signed normalized RGBA8, both read as
// normalized floats. A 512 x 1 texture holds pairs: texel 2k has every channel k (as a byte), texel
// 2k + 1 has R 0, G 255, B 128, A 0x55; unnormalized coordinates 2k + 0.5 + w/256 + 2^-10 blend
// them with weight w of the second, for k and w in 0..255 (the x weight alone: y sits at the row
// centre of a 1-row texture).
// Writes OUT: uint32 2, then per texture (sRGB, then signed): uint32 65,536, then 65,536 float4
// results, k-major.
//   nvcc -O2 -o probe_pairs probe_pairs.cu && ./probe_pairs pairs.bin
#include <cstdio>

#include "probe_row.h"

__global__ void sample(cudaTextureObject_t t, float4* out) {
  const int w = threadIdx.x, k = blockIdx.x;
  out[k * 256 + w] = tex2D<float4>(t, 2 * k + 0.5f + w / 256.0f + 1.0f / 1024, 0.5f);
}

int main(int argc, char** argv) {
  FILE* f = std::fopen(argv[1], "wb");
  const uint32_t textures = 2;
  std::fwrite(&textures, 4, 1, f);
  for (int srgb = 1; srgb >= 0; --srgb) {
    std::vector<uint8_t> texels(512 * 4);
    for (int k = 0; k < 256; ++k)
      for (int c = 0; c < 4; ++c) {
        texels[(2 * k) * 4 + c] = uint8_t(k);
        texels[(2 * k + 1) * 4 + c] = uint8_t(c == 0 ? 0 : c == 1 ? 255 : c == 2 ? 128 : 0x55);
      }
    const cudaTextureObject_t t = row_texture(texels, !srgb, srgb);
    float4* out;
    cudaMalloc(&out, 65536 * sizeof(float4));
    sample<<<256, 256>>>(t, out);
    std::vector<float4> v(65536);
    cudaMemcpy(v.data(), out, 65536 * sizeof(float4), cudaMemcpyDeviceToHost);
    const uint32_t n = 65536;
    std::fwrite(&n, 4, 1, f);
    std::fwrite(v.data(), sizeof(float4), n, f);
  }
  std::fclose(f);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
