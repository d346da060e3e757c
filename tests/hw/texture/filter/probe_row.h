// What probe_pairs.cu, probe_srgb_quantum.cu and probe_snorm8.cu share: a 512 x 1 RGBA8 texture of
// the given bytes (signed or unsigned, sRGB or not), clamped, linearly filtered and read as
// normalized floats, whose texels 2k and 2k + 1 a lookup at 2k + 0.5 + w/256 blends.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

inline cudaTextureObject_t row_texture(const std::vector<uint8_t>& texels, bool is_signed, bool srgb) {
  const cudaChannelFormatDesc fmt = is_signed ? cudaCreateChannelDesc<char4>() : cudaCreateChannelDesc<uchar4>();
  cudaArray_t a;
  cudaMallocArray(&a, &fmt, 512, 1);
  cudaMemcpy2DToArray(a, 0, 0, texels.data(), 512 * 4, 512 * 4, 1, cudaMemcpyHostToDevice);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.sRGB = srgb;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  return t;
}
