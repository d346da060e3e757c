// Where the H200 puts a cube-map lookup whose face coordinate is exactly a texel edge (issue 21):
// cube_quotient_inputs.h's directions, point-sampled from a cube of 64 x 64 faces whose texel (x, y)
// of face f holds x + 64 y + 4096 f. Writes uint32 count, then the texel read per lookup (f32).
//   nvcc -arch=sm_90 -O2 -o /tmp/cube_quotient cube_quotient.cu && /tmp/cube_quotient cube_quotient.bin
#include <cstdio>
#include <vector>

#include "cube_quotient_inputs.h"
#include "level_numbers.h"

__global__ void sample(cudaTextureObject_t t, const cube_quotient::Lookup* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = texCubemap<float>(t, in[i].dir[0], in[i].dir[1], in[i].dir[2]);
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: cube_quotient OUT.bin\n"), 2;
  const int size = 64;
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMalloc3DArray(&a, &f, make_cudaExtent(size, size, 6), cudaArrayCubemap);
  std::vector<float> v(size_t(size) * size * 6);
  for (size_t k = 0; k < v.size(); ++k) v[k] = float(k);  // x + 64 y + 4096 face
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(v.data(), size * 4, size, size);
  p.dstArray = a;
  p.extent = make_cudaExtent(size, size, 6);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  const std::vector<float> out = run_lookups(cube_quotient::lookups(), [&](const cube_quotient::Lookup* in, float* o, int n) {
    sample<<<(n + 255) / 256, 256>>>(t, in, o, n);
  });
  if (!write_results(argv[1], out)) return std::fprintf(stderr, "CUDA error\n"), 1;
  std::printf("%zu lookups\n", out.size());
  return 0;
}
