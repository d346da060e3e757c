// Probes the H100's bilinear filter arithmetic (issue 21): 2 x 2 textures of chosen texels, sampled
// with linear filtering at unnormalized coordinates x = 0.5 + a/256 + 2^-10, y = 0.5 + b/256 +
// 2^-10 for every weight pair (a, b) in 0..255 (the 2^-10 keeps the weights off rounding ties),
// each result's first channel as f32 bits. Writes filter.bin: per texel set, uint32 count, words.
//   nvcc -O2 -o probe_filter probe_filter.cu && ./probe_filter filter.bin
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

__global__ void sample(cudaTextureObject_t t, float* out) {
  const int a = threadIdx.x, b = blockIdx.x;
  out[b * 256 + a] = tex2D<float>(t, 0.5f + a / 256.0f + 1.0f / 1024, 0.5f + b / 256.0f + 1.0f / 1024);
}

template <typename T>
std::vector<float> run(const T (&texels)[4], cudaChannelFormatDesc fmt, cudaTextureReadMode mode) {
  cudaArray_t a;
  cudaMallocArray(&a, &fmt, 2, 2);
  cudaMemcpy2DToArray(a, 0, 0, texels, 2 * sizeof(T), 2 * sizeof(T), 2, cudaMemcpyHostToDevice);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = mode;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  float* out;
  cudaMalloc(&out, 65536 * 4);
  sample<<<256, 256>>>(t, out);
  std::vector<float> v(65536);
  cudaMemcpy(v.data(), out, 65536 * 4, cudaMemcpyDeviceToHost);
  cudaFree(out);
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
  return v;
}

int main(int argc, char** argv) {
  FILE* f = std::fopen(argv[1], "wb");
  auto put = [&](const std::vector<float>& v) {
    const uint32_t n = uint32_t(v.size());
    std::fwrite(&n, 4, 1, f);
    std::fwrite(v.data(), 4, n, f);
  };
  const uint8_t u8sets[][4] = {{0, 255, 0, 0}, {0, 0, 0, 255}, {0, 255, 255, 255}, {100, 200, 30, 60}, {0, 1, 0, 0}};
  for (const auto& s : u8sets) put(run(s, cudaCreateChannelDesc<unsigned char>(), cudaReadModeNormalizedFloat));
  const float f32sets[][4] = {{0, 1, 0, 0}, {0, 0, 0, 1}, {1, 3, 7, 5}, {0.1f, 0.7f, 0.3f, 0.9f}};
  for (const auto& s : f32sets) put(run(s, cudaCreateChannelDesc<float>(), cudaReadModeElementType));
  std::fclose(f);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
