// Texture and surface objects on CUDA arrays: a 2D float array read with point and linear
// filtering (weights of one half, exact), an RGBA8 surface written by one kernel and read back
// as normalized floats through a texture by another, and a 3D array copied in and out.
#include <vector>
#include "check.h"

__global__ void sample(cudaTextureObject_t point, cudaTextureObject_t linear, float* out, int w, int h) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * w + x] = tex2D<float>(point, x + 0.5f, y + 0.5f);                            // texel (x, y)
  out[w * h + y * w + x] = tex2D<float>(linear, x + 1.0f, y + 0.5f);                   // (x, y) and (x + 1, y)
}

__global__ void fill_surface(cudaSurfaceObject_t s, int w) {
  const int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(uchar4{(unsigned char)x, (unsigned char)y, (unsigned char)(x + y), 255}, s, x * 4, y);
}

__global__ void read_back(cudaTextureObject_t t, float4* out, int w) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);  // normalized: byte / 255
}

int main() {
  const int w = 16, h = 8;
  std::vector<float> texels(w * h);
  for (int i = 0; i < w * h; ++i) texels[i] = float(i % 7) * 2.0f - float(i / 16);
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &f, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, texels.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = array;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t point, linear;
  CHECK(cudaCreateTextureObject(&point, &r, &td, nullptr));
  td.filterMode = cudaFilterModeLinear;
  CHECK(cudaCreateTextureObject(&linear, &r, &td, nullptr));
  float* out;
  CHECK(cudaMalloc(&out, 2 * w * h * 4));
  sample<<<h, w>>>(point, linear, out, w, h);
  std::vector<float> got(2 * w * h);
  CHECK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      EXPECT(got[y * w + x] == texels[y * w + x]);
      const float right = texels[y * w + (x + 1 < w ? x + 1 : x)];
      EXPECT(got[w * h + y * w + x] == (texels[y * w + x] + right) * 0.5f);
    }

  cudaChannelFormatDesc rgba = cudaCreateChannelDesc<uchar4>();
  cudaArray_t image;
  CHECK(cudaMallocArray(&image, &rgba, w, h, cudaArraySurfaceLoadStore));
  cudaResourceDesc ir = {};
  ir.resType = cudaResourceTypeArray;
  ir.res.array.array = image;
  cudaSurfaceObject_t surface;
  CHECK(cudaCreateSurfaceObject(&surface, &ir));
  fill_surface<<<h, w>>>(surface, w);
  cudaTextureDesc nd = {};
  nd.filterMode = cudaFilterModePoint;
  nd.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t normalized;
  CHECK(cudaCreateTextureObject(&normalized, &ir, &nd, nullptr));
  float4* pixels;
  CHECK(cudaMalloc(&pixels, w * h * sizeof(float4)));
  read_back<<<h, w>>>(normalized, pixels, w);
  std::vector<float4> px(w * h);
  CHECK(cudaMemcpy(px.data(), pixels, px.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float4 p = px[y * w + x];
      EXPECT(p.x == x / 255.0f && p.y == y / 255.0f && p.z == (x + y) / 255.0f && p.w == 1.0f);
    }
  std::vector<uchar4> raw(w * h);
  CHECK(cudaMemcpy2DFromArray(raw.data(), w * 4, image, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  EXPECT(raw[3 * w + 5].x == 5 && raw[3 * w + 5].y == 3 && raw[3 * w + 5].z == 8);
  cudaChannelFormatDesc back;
  cudaExtent extent;
  unsigned flags;
  CHECK(cudaArrayGetInfo(&back, &extent, &flags, image));
  EXPECT(back.x == 8 && back.w == 8 && back.f == cudaChannelFormatKindUnsigned && extent.width == w && extent.height == h);
  // A 3D array through cudaMemcpy3D, in and back out, from a box inside it.
  cudaArray_t volume;
  CHECK(cudaMalloc3DArray(&volume, &f, make_cudaExtent(8, 4, 3)));
  std::vector<float> cube(8 * 4 * 3), round_trip(4 * 2 * 2, -1.0f);
  for (size_t i = 0; i < cube.size(); ++i) cube[i] = float(i);
  cudaMemcpy3DParms in = {};
  in.srcPtr = make_cudaPitchedPtr(cube.data(), 8 * 4, 8, 4);
  in.dstArray = volume;
  in.extent = make_cudaExtent(8, 4, 3);
  in.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&in));
  cudaMemcpy3DParms outward = {};
  outward.srcArray = volume;
  outward.srcPos = make_cudaPos(2, 1, 1);
  outward.dstPtr = make_cudaPitchedPtr(round_trip.data(), 4 * 4, 4, 2);
  outward.extent = make_cudaExtent(4, 2, 2);
  outward.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&outward));
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 4; ++x) EXPECT(round_trip[(z * 2 + y) * 4 + x] == cube[((z + 1) * 4 + y + 1) * 8 + x + 2]);
  CHECK(cudaFreeArray(volume));
  CHECK(cudaDestroyTextureObject(point));
  CHECK(cudaDestroyTextureObject(linear));
  CHECK(cudaDestroyTextureObject(normalized));
  CHECK(cudaDestroySurfaceObject(surface));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFreeArray(image));
  return pass();
}
