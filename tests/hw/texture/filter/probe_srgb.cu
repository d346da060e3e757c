// Probes the H100's sRGB decoding (issue 21): a 256 x 1 RGBA8 texture whose texel x holds x in
// every channel, read with CU_TRSF_SRGB, point sampled at each texel (the table), then linearly
// filtered between texels x and x + 1 at every weight 0..255 for x in kPairs. Writes srgb.bin:
// uint32 count, the 256 table results (channel 0, f32 bits), then per pair uint32 count and 256
// results.
//   nvcc -O2 -o probe_srgb probe_srgb.cu && ./probe_srgb srgb.bin
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int kPairs[] = {0, 1, 10, 50, 100, 127, 200, 254};

__global__ void sample(cudaTextureObject_t t, float* out, int base, int linear) {
  const int a = threadIdx.x;
  const float x = linear ? base + 0.5f + a / 256.0f + 1.0f / 1024 : a + 0.5f;
  out[a] = tex2D<float4>(t, x, 0.5f).x;
}

cudaTextureObject_t texture(cudaArray_t a, bool linear) {
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = cudaReadModeNormalizedFloat;
  td.sRGB = 1;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  return t;
}

int main(int argc, char** argv) {
  FILE* f = std::fopen(argv[1], "wb");
  uint8_t texels[256 * 4];
  for (int x = 0; x < 256; ++x)
    for (int c = 0; c < 4; ++c) texels[4 * x + c] = uint8_t(x);
  const cudaChannelFormatDesc fmt = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a;
  cudaMallocArray(&a, &fmt, 256, 1);
  cudaMemcpy2DToArray(a, 0, 0, texels, 1024, 1024, 1, cudaMemcpyHostToDevice);
  float* out;
  cudaMalloc(&out, 256 * 4);
  std::vector<float> v(256);
  auto run = [&](cudaTextureObject_t t, int base, int linear) {
    sample<<<1, 256>>>(t, out, base, linear);
    cudaMemcpy(v.data(), out, 256 * 4, cudaMemcpyDeviceToHost);
    const uint32_t n = 256;
    std::fwrite(&n, 4, 1, f);
    std::fwrite(v.data(), 4, n, f);
  };
  run(texture(a, false), 0, 0);
  const cudaTextureObject_t lin = texture(a, true);
  for (int p : kPairs) run(lin, p, 1);
  std::fclose(f);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
