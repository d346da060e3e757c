// tex.grad's level of detail in a 3D image on an H100/H200 (issue 21): a 128^3 float texture whose
// 8 mip levels hold their own index, read with linear filtering between levels at the centre,
// returns the level the sampler chose (to 1/256) for each pair of gradients.
//   nvcc -arch=sm_90 -o /tmp/lod3d lod3d.cu && /tmp/lod3d > lod3d.txt
// Each line: ddx.x ddx.y ddx.z ddy.x ddy.y ddy.z (in texels) -> the value read, in hex and decimal.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

struct Grad {
  float x[3], y[3];
};

__global__ void sample(cudaTextureObject_t t, const Grad* grads, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Grad g = grads[i];
  out[i] = tex3DGrad<float>(t, 0.5f, 0.5f, 0.5f, make_float4(g.x[0] / 128, g.x[1] / 128, g.x[2] / 128, 0),
                            make_float4(g.y[0] / 128, g.y[1] / 128, g.y[2] / 128, 0));
}

int main() {
  const int size = 128, levels = 8;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mip;
  cudaMallocMipmappedArray(&mip, &f, make_cudaExtent(size, size, size), levels);
  for (int l = 0; l < levels; ++l) {
    cudaArray_t level;
    cudaGetMipmappedArrayLevel(&level, mip, l);
    const int s = size >> l;
    std::vector<float> v(size_t(s) * s * s, float(l));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(v.data(), s * 4, s, s);
    p.dstArray = level;
    p.extent = make_cudaExtent(s, s, s);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
  }
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = mip;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = levels - 1;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, nullptr);

  std::vector<Grad> g;
  // one gradient: every component triple on a grid (the length rule in 3D)
  for (float a = 0; a <= 4; a += 0.5f)
    for (float b = 0; b <= 4; b += 0.5f)
      for (float c = 0; c <= 4; c += 0.5f)
        if (a + b + c > 0) g.push_back({{a, b, c}, {0, 0, 0}});
  // two gradients: the 2D pairs of lod.cu in the xy plane, then in the xz and yz planes
  for (int plane = 0; plane < 3; ++plane)
    for (float r : {2.0f, 4.0f, 6.0f})
      for (int deg = 0; deg <= 90; deg += 10) {
        const float a = float(deg) * 3.14159265f / 180;
        Grad x{{0, 0, 0}, {0, 0, 0}};
        const int u = plane == 2 ? 1 : 0, v = plane == 0 ? 1 : 2;
        x.x[u] = 4;
        x.y[u] = r * std::cos(a), x.y[v] = r * std::sin(a);
        g.push_back(x);
      }
  // two gradients out of the axes' planes
  for (int i = 0; i < 64; ++i) {
    const float s = float(i);
    g.push_back({{1 + std::fmod(s * 0.37f, 3.0f), std::fmod(s * 0.61f, 2.5f), std::fmod(s * 0.83f, 2.0f)},
                 {std::fmod(s * 0.29f, 2.0f), 1 + std::fmod(s * 0.53f, 3.0f), std::fmod(s * 0.71f, 2.5f)}});
  }
  Grad* dg;
  float* dout;
  cudaMalloc(&dg, g.size() * sizeof(Grad));
  cudaMalloc(&dout, g.size() * sizeof(float));
  cudaMemcpy(dg, g.data(), g.size() * sizeof(Grad), cudaMemcpyHostToDevice);
  sample<<<int(g.size() + 127) / 128, 128>>>(t, dg, dout, int(g.size()));
  std::vector<float> out(g.size());
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < g.size(); ++i) {
    unsigned bits;
    std::memcpy(&bits, &out[i], 4);
    std::printf("%.9g %.9g %.9g %.9g %.9g %.9g -> %08x %.9g\n", g[i].x[0], g[i].x[1], g[i].x[2], g[i].y[0], g[i].y[1],
                g[i].y[2], bits, out[i]);
  }
  return cudaGetLastError() != cudaSuccess;
}
