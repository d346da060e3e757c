// The anisotropic level of detail with the major axis fixed (issue 21): aniso_area_inputs.h's pairs
// through a 1024 x 1024 float texture whose 11 levels hold their own index, trilinear, max
// anisotropy 16, the trilinear optimization off, so that each value read is log2(minor axis) =
// log2(area) - 3 as the H200 takes it, to 1/256. Writes uint32 count, then one f32 per lookup.
//   nvcc -arch=sm_90 -O2 -o /tmp/aniso_area aniso_area.cu && /tmp/aniso_area aniso_area.bin
#include <cstdio>
#include <vector>

#include "aniso_area_inputs.h"

__global__ void sample(cudaTextureObject_t t, const aniso_area::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const aniso_area::Lookup l = in[i];
  out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(l.ddx[0] / 1024, l.ddx[1] / 1024),
                            make_float2(l.ddy[0] / 1024, l.ddy[1] / 1024));
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: aniso_area OUT.bin\n"), 2;
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
  td.maxAnisotropy = 16;
  td.disableTrilinearOptimization = 1;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  const std::vector<aniso_area::Lookup> in = aniso_area::lookups();
  const int n = int(in.size());
  aniso_area::Lookup* din;
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
