// Dense maps of tex.grad's level of detail in a 3D image on an H100/H200 (issue 21): the lookups of
// lod3d_dense_inputs.h through a 128^3 float texture whose 8 levels hold their own index, trilinear,
// max anisotropy 1, so that each value read is the level the sampler chose, to 1/256. Writes
// uint32 count, then one f32 per lookup, in lookups()'s order.
//   nvcc -arch=sm_90 -O2 -o /tmp/lod3d_dense lod3d_dense.cu && /tmp/lod3d_dense lod3d_dense.bin
#include <cstdio>
#include <vector>

#include "lod3d_dense_inputs.h"

__global__ void sample(cudaTextureObject_t t, const lod3d_dense::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const lod3d_dense::Lookup l = in[i];
  const float s = 128;
  out[i] = tex3DGrad<float>(t, 0.5f, 0.5f, 0.5f, make_float4(l.ddx[0] / s, l.ddx[1] / s, l.ddx[2] / s, 0),
                            make_float4(l.ddy[0] / s, l.ddy[1] / s, l.ddy[2] / s, 0));
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: lod3d_dense OUT.bin\n"), 2;
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
  td.maxAnisotropy = 1;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  const std::vector<lod3d_dense::Lookup> in = lod3d_dense::lookups();
  const int n = int(in.size());
  lod3d_dense::Lookup* din;
  float* dout;
  cudaMalloc(&din, in.size() * sizeof in[0]);
  cudaMalloc(&dout, in.size() * sizeof(float));
  cudaMemcpy(din, in.data(), in.size() * sizeof in[0], cudaMemcpyHostToDevice);
  sample<<<(n + 255) / 256, 256>>>(t, din, dout, n);
  std::vector<float> out(in.size());
  cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return std::fprintf(stderr, "CUDA error\n"), 1;
  FILE* file = std::fopen(argv[1], "wb");
  const uint32_t count = uint32_t(n);
  std::fwrite(&count, 4, 1, file);
  std::fwrite(out.data(), 4, out.size(), file);
  std::fclose(file);
  std::printf("%d lookups\n", n);
  return 0;
}
