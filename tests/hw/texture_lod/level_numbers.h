// Textures whose mip levels hold their own index, for issue 21's level-of-detail probes: a lookup
// through one with a linear mip filter returns the level the sampler chose, to the 1/256 its blend
// resolves.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

// A mipmapped f32 array of w x h x d texels (h and d 0 for the dimensions it lacks), `levels`
// levels, level l filled with l.
inline cudaMipmappedArray_t level_numbers(int w, int h, int d, int levels) {
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  cudaMallocMipmappedArray(&m, &f, make_cudaExtent(w, h, d), levels);
  for (int l = 0; l < levels; ++l) {
    cudaArray_t a;
    cudaGetMipmappedArrayLevel(&a, m, l);
    const int lw = std::max(w >> l, 1), lh = std::max(h >> l, 1), ld = std::max(d >> l, 1);
    std::vector<float> v(size_t(lw) * lh * ld, float(l));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(v.data(), lw * 4, lw, lh);
    p.dstArray = a;
    p.extent = make_cudaExtent(lw, lh, ld);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
  }
  return m;
}

// A cube map of size x size faces, `levels` levels, level l filled with l.
inline cudaMipmappedArray_t level_number_cube(int size, int levels) {
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  cudaMallocMipmappedArray(&m, &f, make_cudaExtent(size, size, 6), levels, cudaArrayCubemap);
  for (int l = 0; l < levels; ++l) {
    cudaArray_t a;
    cudaGetMipmappedArrayLevel(&a, m, l);
    const int n = std::max(size >> l, 1);
    std::vector<float> v(size_t(n) * n * 6, float(l));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(v.data(), n * 4, n, n);
    p.dstArray = a;
    p.extent = make_cudaExtent(n, n, 6);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
  }
  return m;
}

// A texture object over it: clamp, linear with a linear mip filter, normalized coordinates, the
// given max anisotropy, and the trilinear optimization off where `exact_trilinear`.
inline cudaTextureObject_t level_number_texture(cudaMipmappedArray_t m, int levels, int anisotropy,
                                                bool exact_trilinear) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = m;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = float(levels - 1);
  td.maxAnisotropy = anisotropy;
  td.disableTrilinearOptimization = exact_trilinear;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  return t;
}

// Copies `in` to the device, runs kernel(in, out, n) over it and returns the n results.
template <typename In, typename Kernel>
std::vector<float> run_lookups(const std::vector<In>& in, Kernel kernel) {
  const int n = int(in.size());
  In* din;
  float* dout;
  cudaMalloc(&din, in.size() * sizeof(In));
  cudaMalloc(&dout, in.size() * sizeof(float));
  cudaMemcpy(din, in.data(), in.size() * sizeof(In), cudaMemcpyHostToDevice);
  kernel(din, dout, n);
  std::vector<float> out(in.size());
  cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(din), cudaFree(dout);
  return out;
}

// Writes uint32 count, then the results, as the dense probes' .bin files hold them.
inline bool write_results(const char* path, const std::vector<float>& out) {
  if (cudaGetLastError() != cudaSuccess) return false;
  FILE* file = std::fopen(path, "wb");
  const uint32_t count = uint32_t(out.size());
  std::fwrite(&count, 4, 1, file);
  std::fwrite(out.data(), 4, out.size(), file);
  std::fclose(file);
  return true;
}
