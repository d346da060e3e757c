// Probes how the H100 turns tex.grad's gradients into a level of detail (issue 21): a 256 x 256
// mipmapped f32 texture (9 levels) whose texels hold their level number, trilinear filtering, so
// that a lookup returns the lod as the level blend sees it (1/256 steps). Gradients dPdx = (a, b)
// / 64 texels of level 0 for a, b in 0..255, dPdy = 0 (max_anisotropy 1: the longer gradient
// decides). Writes lod.bin: uint32 count, 65,536 f32 results, b-major.
//   nvcc -O2 -o probe_lod probe_lod.cu && ./probe_lod lod.bin
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

__global__ void sample(cudaTextureObject_t t, float* out) {
  const int a = threadIdx.x, b = blockIdx.x;
  const float2 dx = make_float2(a / 64.0f / 256.0f, b / 64.0f / 256.0f), dy = make_float2(0.0f, 0.0f);
  out[b * 256 + a] = tex2DGrad<float>(t, 0.5f, 0.5f, dx, dy);
}

int main(int argc, char** argv) {
  const int levels = 9;
  const cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  cudaMallocMipmappedArray(&m, &fmt, make_cudaExtent(256, 256, 0), levels);
  for (int l = 0; l < levels; ++l) {
    cudaArray_t a;
    cudaGetMipmappedArrayLevel(&a, m, l);
    const int n = 256 >> l;
    std::vector<float> v(size_t(n) * n, float(l));
    cudaMemcpy2DToArray(a, 0, 0, v.data(), n * 4, n * 4, n, cudaMemcpyHostToDevice);
  }
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = m;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.maxAnisotropy = 1;
  td.maxMipmapLevelClamp = float(levels - 1);
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  float* out;
  cudaMalloc(&out, 65536 * 4);
  sample<<<256, 256>>>(t, out);
  std::vector<float> v(65536);
  cudaMemcpy(v.data(), out, 65536 * 4, cudaMemcpyDeviceToHost);
  FILE* f = std::fopen(argv[1], "wb");
  const uint32_t n = 65536;
  std::fwrite(&n, 4, 1, f);
  std::fwrite(v.data(), 4, n, f);
  std::fclose(f);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
