// Pitched 2D memory: cudaMallocPitch, cudaMemcpy2D both ways, cudaMemset, a kernel that walks
// rows by the pitch.
#include <vector>
#include "check.h"

__global__ void transpose_add(const float* in, size_t in_pitch, float* out, size_t out_pitch, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const float v = *reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + y * in_pitch + x * 4);
  float* o = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + x * out_pitch + y * 4);
  *o += v;
}

int main() {
  const int w = 37, h = 23;
  std::vector<float> host(w * h), back(h * w);
  for (int i = 0; i < w * h; ++i) host[i] = float(i);
  float *in, *out;
  size_t in_pitch, out_pitch;
  CHECK(cudaMallocPitch(&in, &in_pitch, w * 4, h));
  CHECK(cudaMallocPitch(&out, &out_pitch, h * 4, w));
  EXPECT(in_pitch >= w * 4 && out_pitch >= h * 4);
  CHECK(cudaMemcpy2D(in, in_pitch, host.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, out_pitch * w));
  transpose_add<<<dim3(2, 2), dim3(32, 16)>>>(in, in_pitch, out, out_pitch, w, h);
  CHECK(cudaMemcpy2D(back.data(), h * 4, out, out_pitch, h * 4, w, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) EXPECT(back[x * h + y] == host[y * w + x]);
  return pass();
}
