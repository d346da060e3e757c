// Follows probe_pairs.cu (issue 21): the H100's signed normalized 8-bit blend for every raw
// weighted sum S = Σ byte · weight (probe_pairs.cu shows the result depends on S alone). A 512 x 1
// signed RGBA8 texture read as normalized floats holds pairs: texel 2k has every channel a = k -
// 128, texel 2k + 1 every channel a + 1 (127 for a = 127); coordinates 2k + 0.5 + w/256 + 2^-10
// blend them with weight w of the second, so S = 256 a + w covers -32768 .. 32512.
// Writes OUT: uint32 65,536, then the R channel of each lookup (f32), k-major.
//   nvcc -O2 -o probe_snorm8 probe_snorm8.cu && ./probe_snorm8 snorm8.bin
#include <cstdio>

#include "probe_row.h"

__global__ void sample(cudaTextureObject_t t, float* out) {
  const int w = threadIdx.x, k = blockIdx.x;
  out[k * 256 + w] = tex2D<float4>(t, 2 * k + 0.5f + w / 256.0f + 1.0f / 1024, 0.5f).x;
}

int main(int argc, char** argv) {
  std::vector<uint8_t> texels(512 * 4);
  for (int k = 0; k < 256; ++k)
    for (int c = 0; c < 4; ++c) {
      const int v = k - 128;
      texels[(2 * k) * 4 + c] = uint8_t(v);
      texels[(2 * k + 1) * 4 + c] = uint8_t(v < 127 ? v + 1 : 127);
    }
  const cudaTextureObject_t t = row_texture(texels, true, false);
  float* out;
  const uint32_t n = 65536;
  cudaMalloc(&out, n * 4);
  sample<<<256, 256>>>(t, out);
  std::vector<float> v(n);
  cudaMemcpy(v.data(), out, n * 4, cudaMemcpyDeviceToHost);
  FILE* f = std::fopen(argv[1], "wb");
  std::fwrite(&n, 4, 1, f);
  std::fwrite(v.data(), 4, n, f);
  std::fclose(f);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
