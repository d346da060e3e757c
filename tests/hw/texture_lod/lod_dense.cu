// Dense maps of tex.grad's level of detail on an H100/H200 (issue 21): the lookups of
// lod_dense_inputs.h through a 1024 x 1024 float texture whose 11 levels hold their own index,
// trilinear, so that each value read is the level the sampler chose, to 1/256. Writes
// lod_dense.bin: uint32 count, then one f32 per lookup, in lookups()'s order.
//   nvcc -arch=sm_90 -O2 -o /tmp/lod_dense lod_dense.cu && /tmp/lod_dense lod_dense.bin
#include <cstdio>
#include <vector>

#include "lod_dense_inputs.h"

__global__ void sample(const cudaTextureObject_t* t, const lod_dense::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const lod_dense::Lookup l = in[i];
  out[i] = tex2DGrad<float>(t[l.sampler], 0.5f, 0.5f, make_float2(l.ddx[0] / 1024, l.ddx[1] / 1024),
                            make_float2(l.ddy[0] / 1024, l.ddy[1] / 1024));
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: lod_dense OUT.bin\n"), 2;
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
  cudaTextureObject_t objects[2];
  for (int k = 0; k < 2; ++k) {
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    td.maxMipmapLevelClamp = levels - 1;
    td.maxAnisotropy = k == 0 ? 1 : 16;
    td.disableTrilinearOptimization = k;
    cudaCreateTextureObject(&objects[k], &r, &td, nullptr);
  }
  const std::vector<lod_dense::Lookup> in = lod_dense::lookups();
  const int n = int(in.size());
  cudaTextureObject_t* dt;
  lod_dense::Lookup* din;
  float* dout;
  cudaMalloc(&dt, sizeof objects);
  cudaMalloc(&din, in.size() * sizeof in[0]);
  cudaMalloc(&dout, in.size() * sizeof(float));
  cudaMemcpy(dt, objects, sizeof objects, cudaMemcpyHostToDevice);
  cudaMemcpy(din, in.data(), in.size() * sizeof in[0], cudaMemcpyHostToDevice);
  sample<<<(n + 255) / 256, 256>>>(dt, din, dout, n);
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
