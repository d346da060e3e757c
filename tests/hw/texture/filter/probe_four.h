// What probe_aniso_more.cu (part 19) and probe_aniso_f16.cu (part 33) share: 64 x 64 textures of
// four channels of random texels, RGBA8 unsigned normalized or f16, looked up four channels at a
// time under seven gradient pairs (probe_aniso_more.cu's header says which).
#pragma once

#include <cuda_fp16.h>

#include <cstdint>
#include <vector>

#include "probe_grad.h"

__global__ void sample4(cudaTextureObject_t t, const float4* at, const float4* grad, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = tex2DGrad<float4>(t, at[i].x, at[i].y, make_float2(grad[i].x, grad[i].y), make_float2(grad[i].z, grad[i].w));
}

uint32_t rng = 0x2545F491u;
uint32_t next_random() {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

// Part 19's texture: format 0 RGBA8 unorm, 1 f16 x 4 (random sign and mantissa, exponent field
// `exponent` to `exponent` + 5), 2 RGBA8 unorm read through sRGB (part 34); `values` gets the
// texels as floats (the bytes for RGBA8).
cudaTextureObject_t make4(int format, int size, std::vector<float>& values, uint32_t exponent = 11) {
  const int n = size * size * 4;
  values.assign(n, 0);
  std::vector<uint8_t> bytes(n);
  std::vector<uint16_t> halves(n);
  for (int k = 0; k < n; ++k) {
    const uint32_t r = next_random();
    if (format != 1) {
      bytes[k] = uint8_t(r >> 24);
      values[k] = float(bytes[k]);
    } else {
      const uint32_t sign = (r >> 31) & 1, field = exponent + (r >> 16) % 6, mantissa = r & 0x3ff;
      halves[k] = uint16_t(sign << 15 | field << 10 | mantissa);
      __half_raw raw;
      raw.x = halves[k];
      values[k] = __half2float(__half(raw));
    }
  }
  const cudaChannelFormatDesc fmt =
      format != 1 ? cudaCreateChannelDesc<uchar4>() : cudaCreateChannelDescHalf4();
  cudaArray_t a;
  cudaMallocArray(&a, &fmt, size, size);
  const int pitch = size * (format != 1 ? 4 : 8);
  cudaMemcpy2DToArray(a, 0, 0, format != 1 ? (const void*)bytes.data() : (const void*)halves.data(), pitch,
                      pitch, size, cudaMemcpyHostToDevice);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.maxAnisotropy = 16;
  td.readMode = format != 1 ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.sRGB = format == 2;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  return t;
}

// As record, for four-channel lookups (texel coordinates and gradients).
void record4(uint32_t part, float anisotropy, const float head[4], cudaTextureObject_t t, int size, const std::vector<float4>& at,
             const std::vector<float4>& grad) {
  const int n = int(at.size());
  std::vector<float4> a(at), g(grad);
  for (float4& v : a) v.x /= size, v.y /= size;
  for (float4& v : g) v.x /= size, v.y /= size, v.z /= size, v.w /= size;
  float4 *da, *dg, *dout;
  cudaMalloc(&da, n * sizeof(float4));
  cudaMalloc(&dg, n * sizeof(float4));
  cudaMalloc(&dout, n * sizeof(float4));
  cudaMemcpy(da, a.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(dg, g.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  sample4<<<(n + 127) / 128, 128>>>(t, da, dg, dout, n);
  std::vector<float> v(size_t(n) * 4);
  cudaMemcpy(v.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
  cudaFree(da), cudaFree(dg), cudaFree(dout);
  write_record(part, anisotropy, head, v);
}

// One texture's records: the texels (head: format, 0, 0, 1), then a record per gradient pair
// ((r, 0), (0, 1)) for r in {1, 1.5, 2, 3, 4, 5} and ((1, 0), (0, 3)) (head: format, dPdx.x, dPdy.y,
// 0) of 4,096 lookups at x = 8 + i 9/64, y = 8 + j 9/64 texels (i, j in 0..63, j-major), four floats
// each. Returns the count of records written (8).
uint32_t four_channel_records(uint32_t part, int format, uint32_t exponent = 11) {
  std::vector<float> values;
  const cudaTextureObject_t t = make4(format, 64, values, exponent);
  const float data_head[4] = {float(format), 0, 0, 1};
  write_record(part, 16, data_head, values);
  const float pairs[][2] = {{1, 1}, {1.5f, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {1, 3}};
  for (const auto& p : pairs) {
    std::vector<float4> at, grad;
    for (int j = 0; j < 64; ++j)
      for (int i = 0; i < 64; ++i) {
        at.push_back(make_float4(8 + i * 9 / 64.0f, 8 + j * 9 / 64.0f, 0, 0));
        grad.push_back(make_float4(p[0], 0, 0, p[1]));
      }
    const float head[4] = {float(format), p[0], p[1], 0};
    record4(part, 16, head, t, 64, at, grad);
  }
  return 8;
}
