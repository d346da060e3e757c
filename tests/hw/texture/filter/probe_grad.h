// What probe_aniso.cu and probe_aniso_phase.cu share: square f32 textures (plain or mipmapped,
// clamped, normalized coordinates) and the record of a batch of tex2DGrad lookups, in the format
// probe_aniso.cu describes.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

__global__ void sample(cudaTextureObject_t t, const float4* at, const float4* grad, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = tex2DGrad<float>(t, at[i].x, at[i].y, make_float2(grad[i].x, grad[i].y), make_float2(grad[i].z, grad[i].w));
}

struct Texture {
  cudaTextureObject_t object;
  int size;  // level 0's width and height
};

// A square f32 texture of `levels` levels (0: a plain array), filled by fill(level, x, y).
template <typename Fill>
Texture make(int size, int levels, bool linear, int anisotropy, Fill fill) {
  const cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  cudaResourceDesc res{};
  auto upload = [&](cudaArray_t a, int l) {
    const int n = size >> l;
    std::vector<float> v(size_t(n) * n);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) v[size_t(y) * n + x] = fill(l, x, y);
    cudaMemcpy2DToArray(a, 0, 0, v.data(), n * 4, n * 4, n, cudaMemcpyHostToDevice);
  };
  if (levels == 0) {
    cudaArray_t a;
    cudaMallocArray(&a, &fmt, size, size);
    upload(a, 0);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
  } else {
    cudaMipmappedArray_t m;
    cudaMallocMipmappedArray(&m, &fmt, make_cudaExtent(size, size, 0), levels);
    for (int l = 0; l < levels; ++l) {
      cudaArray_t a;
      cudaGetMipmappedArrayLevel(&a, m, l);
      upload(a, l);
    }
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = m;
  }
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.maxAnisotropy = anisotropy;
  td.maxMipmapLevelClamp = float(levels > 0 ? levels - 1 : 0);
  td.readMode = cudaReadModeElementType;
  Texture t{0, size};
  cudaCreateTextureObject(&t.object, &res, &td, nullptr);
  return t;
}

// make()'s object (for probes from part 27 on) with the trilinear optimization off (`exact`) or left on.
Texture with_trilinear(Texture t, bool exact) {
  if (!exact) return t;
  cudaResourceDesc res{};
  cudaGetTextureObjectResourceDesc(&res, t.object);
  cudaTextureDesc td{};
  cudaGetTextureObjectTextureDesc(&td, t.object);
  td.disableTrilinearOptimization = 1;
  cudaDestroyTextureObject(t.object);
  cudaCreateTextureObject(&t.object, &res, &td, nullptr);
  return t;
}

FILE* out_file;        // the output, opened by main
uint32_t records = 0;  // written so far

// One record: part, max anisotropy, head, then the count and the results.
void write_record(uint32_t part, float anisotropy, const float head[4], const std::vector<float>& v) {
  std::fwrite(&part, 4, 1, out_file);
  std::fwrite(&anisotropy, 4, 1, out_file);
  std::fwrite(head, 4, 4, out_file);
  const uint32_t count = uint32_t(v.size());
  std::fwrite(&count, 4, 1, out_file);
  std::fwrite(v.data(), 4, v.size(), out_file);
  ++records;
}

// Runs the lookups (texel coordinates and gradients of level 0) and writes one record.
void record(uint32_t part, float anisotropy, const float head[4], const Texture& t, const std::vector<float4>& at,
            const std::vector<float4>& grad) {
  const int n = int(at.size());
  std::vector<float4> a(at), g(grad);
  for (float4& v : a) v.x /= t.size, v.y /= t.size;
  for (float4& v : g) v.x /= t.size, v.y /= t.size, v.z /= t.size, v.w /= t.size;
  float4 *da, *dg;
  float* dout;
  cudaMalloc(&da, n * sizeof(float4));
  cudaMalloc(&dg, n * sizeof(float4));
  cudaMalloc(&dout, n * 4);
  cudaMemcpy(da, a.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(dg, g.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  sample<<<(n + 127) / 128, 128>>>(t.object, da, dg, dout, n);
  std::vector<float> v(n);
  cudaMemcpy(v.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  cudaFree(da), cudaFree(dg), cudaFree(dout);
  write_record(part, anisotropy, head, v);
}
