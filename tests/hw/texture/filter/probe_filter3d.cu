// Probes the H100's trilinear weights (issue 21): 2 x 2 x 2 f32 textures with one texel 1 and the
// rest 0, so that a lookup returns that corner's weight, sampled at unnormalized coordinates
// 0.5 + a/256 + 2^-10 for every (a, b) in 0..255 and the c of kZ. Writes filter3d.bin: per
// corner (x fastest) and per c, uint32 count, then 65,536 f32 results, b-major.
//   nvcc -O2 -o probe_filter3d probe_filter3d.cu && ./probe_filter3d filter3d.bin
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int kZ[] = {1, 64, 127, 129, 192, 255};

__global__ void sample(cudaTextureObject_t t, float* out, int c) {
  const int a = threadIdx.x, b = blockIdx.x;
  out[b * 256 + a] =
      tex3D<float>(t, 0.5f + a / 256.0f + 1.0f / 1024, 0.5f + b / 256.0f + 1.0f / 1024, 0.5f + c / 256.0f + 1.0f / 1024);
}

int main(int argc, char** argv) {
  FILE* f = std::fopen(argv[1], "wb");
  const cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  float* out;
  cudaMalloc(&out, 65536 * 4);
  std::vector<float> v(65536);
  for (int corner = 0; corner < 8; ++corner) {
    float texels[8] = {};
    texels[corner] = 1.0f;
    cudaArray_t a;
    cudaMalloc3DArray(&a, &fmt, make_cudaExtent(2, 2, 2));
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(texels, 8, 2, 2);
    p.dstArray = a;
    p.extent = make_cudaExtent(2, 2, 2);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc td{};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &res, &td, nullptr);
    for (int c : kZ) {
      sample<<<256, 256>>>(t, out, c);
      cudaMemcpy(v.data(), out, 65536 * 4, cudaMemcpyDeviceToHost);
      const uint32_t n = 65536;
      std::fwrite(&n, 4, 1, f);
      std::fwrite(v.data(), 4, n, f);
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  std::fclose(f);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
