// The H100/H200's level of detail for tex.grad (issue 21): a 1024 x 1024 float texture whose 11
// mip levels hold their own index, read with linear filtering between levels, returns the level
// of detail the sampler chose (to 1/256, the blend's resolution) for each pair of gradients.
//   nvcc -arch=sm_90 -o /tmp/lod lod.cu && /tmp/lod > lod.txt
// Each line: ddx.x ddx.y ddy.x ddy.y (in texels) -> the value read, in hex and decimal.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void sample(cudaTextureObject_t t, const float4* grads, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 g = grads[i];
  out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g.x / 1024, g.y / 1024), make_float2(g.z / 1024, g.w / 1024));
}

int main() {
  const int size = 1024, levels = 11;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mip;
  cudaMallocMipmappedArray(&mip, &f, make_cudaExtent(size, size, 0), levels);
  for (int l = 0; l < levels; ++l) {
    cudaArray_t level;
    cudaGetMipmappedArrayLevel(&level, mip, l);
    const int s = size >> l;
    std::vector<float> v(size_t(s) * s, float(l));
    cudaMemcpy2DToArray(level, 0, 0, v.data(), s * 4, s * 4, s, cudaMemcpyHostToDevice);
  }
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = mip;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = levels - 1;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, nullptr);

  std::vector<float4> g;
  const float magnitudes[] = {1.0f, 1.25f, 1.5f, 2.0f, 3.0f, 5.0f, 7.0f, 10.0f, 33.0f, 100.0f};
  for (float m : magnitudes)
    for (int deg = 0; deg <= 90; deg += 3) {
      const float a = float(deg) * 3.14159265f / 180, c = m * std::cos(a), s = m * std::sin(a);
      g.push_back({c, s, 0, 0});                    // one gradient
      g.push_back({c, s, -s, c});                   // a perpendicular one of the same length
      g.push_back({c, s, -s * 0.5f, c * 0.5f});     // half as long
      g.push_back({c, s, c, s});                    // the same
    }
  for (float x = 0.5f; x <= 8.0f; x += 0.5f)       // off-axis pairs on a grid
    for (float y = 0.0f; y <= 8.0f; y += 0.5f) g.push_back({x, y, 0, 0});
  // Dense sweeps: one axis-aligned gradient from 1 to 2 texels (the logarithm), a fixed x with a
  // growing y (how the components combine), two axis-aligned gradients (how the two combine),
  // and a second gradient of the same length turning from the first.
  for (int i = 0; i <= 512; ++i) g.push_back({1.0f + float(i) / 512, 0, 0, 0});
  for (int i = 0; i <= 256; ++i) g.push_back({4.0f, float(i) / 64, 0, 0});
  for (int i = 0; i <= 256; ++i) g.push_back({4.0f, 0, 0, float(i) / 32});
  for (int deg = 0; deg <= 180; deg += 2) {
    const float a = float(deg) * 3.14159265f / 180;
    g.push_back({4.0f, 0, 4.0f * std::cos(a), 4.0f * std::sin(a)});
  }
  // A second gradient of other lengths turning from the first (4 texels along x), and the pair
  // turned together by 30 degrees.
  for (float r : {1.0f, 2.0f, 3.0f, 6.0f, 8.0f})
    for (int deg = 0; deg <= 90; deg += 5) {
      const float a = float(deg) * 3.14159265f / 180;
      g.push_back({4.0f, 0, r * std::cos(a), r * std::sin(a)});
    }
  for (int deg = 0; deg <= 90; deg += 5) {
    const float a = float(deg) * 3.14159265f / 180, t = 30 * 3.14159265f / 180;
    g.push_back({4.0f * std::cos(t), 4.0f * std::sin(t), 4.0f * std::cos(a + t), 4.0f * std::sin(a + t)});
  }
  float4* dg;
  float* dout;
  cudaMalloc(&dg, g.size() * sizeof(float4));
  cudaMalloc(&dout, g.size() * sizeof(float));
  cudaMemcpy(dg, g.data(), g.size() * sizeof(float4), cudaMemcpyHostToDevice);
  sample<<<int(g.size() + 127) / 128, 128>>>(t, dg, dout, int(g.size()));
  std::vector<float> out(g.size());
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < g.size(); ++i) {
    unsigned bits;
    std::memcpy(&bits, &out[i], 4);
    std::printf("%.9g %.9g %.9g %.9g -> %08x %.9g\n", g[i].x, g[i].y, g[i].z, g[i].w, bits, out[i]);
  }
  return cudaGetLastError() != cudaSuccess;
}
