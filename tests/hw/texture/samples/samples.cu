// CUDA-samples-style texture and surface kernels (issue 21): compiled to samples.ptx by
//   nvcc -ptx -arch=sm_90 -O3 -o samples.ptx samples.cu
// and run by run_samples.cpp on a GPU's driver (the recording) and on ptxvm's drop-in driver.

// Bilinear resize of an RGBA8 image: normalized coordinates at the output pixel centres, linear
// filtering, read as normalized floats, written back as RGBA8 (the simpleTexture/resize pattern).
extern "C" __global__ void bilinear_resize(cudaTextureObject_t src, uchar4* dst, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const float4 c = tex2D<float4>(src, (x + 0.5f) / w, (y + 0.5f) / h);
  dst[y * w + x] = make_uchar4(c.x * 255.0f + 0.5f, c.y * 255.0f + 0.5f, c.z * 255.0f + 0.5f, c.w * 255.0f + 0.5f);
}

// Ray-marching a volume (the volumeRender pattern): trilinear samples of a float 3D texture along
// a ray per pixel, summed front to back.
extern "C" __global__ void volume_march(cudaTextureObject_t vol, float* dst, int w, int h, int steps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float sum = 0.0f;
  for (int i = 0; i < steps; ++i) {
    const float t = (i + 0.5f) / steps;
    sum = sum * 0.9f + tex3D<float>(vol, (x + 0.5f) / w, (y + 0.5f) / h * (1.0f - t) + 0.25f * t, t);
  }
  dst[y * w + x] = sum;
}

// A layered 2D texture (the simpleLayeredTexture pattern): each layer's texel, point sampled,
// scaled by its layer number.
extern "C" __global__ void layered(cudaTextureObject_t tex, float* dst, int w, int h, int layers) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  for (int l = 0; l < layers; ++l) dst[(l * h + y) * w + x] = tex2DLayered<float>(tex, x + 0.5f, y + 0.5f, l) * (l + 1);
}

// Surface write then read-back (the simpleSurfaceWrite pattern): each thread writes its pixel
// transformed, synchronizes, and reads its neighbour's.
extern "C" __global__ void surface_roundtrip(cudaSurfaceObject_t surf, float* dst, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float v;
  surf2Dread(&v, surf, x * 4, y);
  surf2Dwrite(v * 2.0f + 1.0f, surf, x * 4, y);
  __syncthreads();
  surf2Dread(&v, surf, ((x + 1) % w) * 4, y);
  dst[y * w + x] = v;
}
