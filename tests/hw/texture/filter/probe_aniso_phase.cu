// Follows probe_aniso.cu (issue 21): where exactly the H100's anisotropic samples fall and how much
// each weighs. Footprints at every 1/256 of a texel: the 64 x 64 f32 texture holding 1 at texel
// (32, 32), no levels, linear filtering, normalized coordinates, max anisotropy 16; a major axis of L
// texels along x (dPdx = (L, 0)) and a minor one of 1 along y (dPdy = (0, 1)); lookups at x = 32.5 +
// di + p/256 (di in -13..13, p in 0..255), y = 32.5 (the row's centre, so only row 32 counts). The
// result is the weight the footprint centred at x gives texel 32: a piecewise linear function of x
// whose kinks sit at the samples.
//   part 6: L = 1 + j/32, j = 0..95 (1 .. 3.97), then 4 .. 8 by 1/4, then 9 .. 24.
// Levels (part 7): the 256 x 256 texture of 9 levels holding their level number, trilinear, at the
// centre; dPdx = (M, 0), dPdy = (0, M / r) with M = 32 texels and 45.25 (2^5.5) and r = 1 + j/64,
// j = 0..192 (1 .. 4), max anisotropy 2, 4, 8 and 16: one record per (anisotropy, M), the lookups
// of j.
// Writes OUT in probe_aniso.cu's format: uint32 records; per record: uint32 part, float max
// anisotropy, 4 floats (part 6: L, 0, 0, 1; part 7: M, 0, 0, 0), uint32 n, n f32 results (part 6:
// di-major, then p).
//   nvcc -O2 -o probe_aniso_phase probe_aniso_phase.cu && ./probe_aniso_phase aniso_phase.bin
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

__global__ void sample(cudaTextureObject_t t, const float4* at, const float4* grad, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = tex2DGrad<float>(t, at[i].x, at[i].y, make_float2(grad[i].x, grad[i].y), make_float2(grad[i].z, grad[i].w));
}

template <typename Fill>
cudaTextureObject_t make(int size, int levels, int anisotropy, Fill fill) {
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
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.maxAnisotropy = anisotropy;
  td.maxMipmapLevelClamp = float(levels > 0 ? levels - 1 : 0);
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  return t;
}

FILE* out_file;
uint32_t records = 0;

void record(uint32_t part, float anisotropy, const float head[4], cudaTextureObject_t t, int size,
            std::vector<float4> at, std::vector<float4> grad) {
  const int n = int(at.size());
  for (float4& v : at) v.x /= size, v.y /= size;
  for (float4& v : grad) v.x /= size, v.y /= size, v.z /= size, v.w /= size;
  float4 *da, *dg;
  float* dout;
  cudaMalloc(&da, n * sizeof(float4));
  cudaMalloc(&dg, n * sizeof(float4));
  cudaMalloc(&dout, n * 4);
  cudaMemcpy(da, at.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(dg, grad.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  sample<<<(n + 127) / 128, 128>>>(t, da, dg, dout, n);
  std::vector<float> v(n);
  cudaMemcpy(v.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  cudaFree(da), cudaFree(dg), cudaFree(dout);
  std::fwrite(&part, 4, 1, out_file);
  std::fwrite(&anisotropy, 4, 1, out_file);
  std::fwrite(head, 4, 4, out_file);
  const uint32_t count = n;
  std::fwrite(&count, 4, 1, out_file);
  std::fwrite(v.data(), 4, n, out_file);
  ++records;
}

int main(int argc, char** argv) {
  out_file = std::fopen(argv[1], "wb");
  std::fwrite(&records, 4, 1, out_file);
  const cudaTextureObject_t one_hot =
      make(64, 0, 16, [](int, int x, int y) { return x == 32 && y == 32 ? 1.0f : 0.0f; });
  std::vector<float> lengths;
  for (int j = 0; j < 96; ++j) lengths.push_back(1 + j / 32.0f);
  for (int j = 0; j <= 16; ++j) lengths.push_back(4 + j / 4.0f);
  for (int l = 9; l <= 24; ++l) lengths.push_back(float(l));
  for (float L : lengths) {
    std::vector<float4> at, grad;
    for (int di = -13; di <= 13; ++di)
      for (int p = 0; p < 256; ++p) {
        at.push_back(make_float4(32.5f + di + p / 256.0f, 32.5f, 0, 0));
        grad.push_back(make_float4(L, 0, 0, 1));
      }
    const float head[4] = {L, 0, 0, 1};
    record(6, 16, head, one_hot, 64, at, grad);
  }
  for (int a : {2, 4, 8, 16}) {
    const cudaTextureObject_t t = make(256, 9, a, [](int level, int, int) { return float(level); });
    for (float major : {32.0f, 45.254834f}) {
      std::vector<float4> at, grad;
      for (int j = 0; j <= 192; ++j) {
        at.push_back(make_float4(128.5f, 128.5f, 0, 0));
        grad.push_back(make_float4(major, 0, 0, major / (1 + j / 64.0f)));
      }
      const float head[4] = {major, 0, 0, 0};
      record(7, float(a), head, t, 256, at, grad);
    }
  }
  std::fseek(out_file, 0, SEEK_SET);
  std::fwrite(&records, 4, 1, out_file);
  std::fclose(out_file);
  std::printf("%u records: %s\n", records, cudaGetErrorString(cudaGetLastError()));
}
