// Memcpy nodes from cudaMemcpy3DParms (simpleCudaGraphs, jacobiCudaGraphs): host to pitched
// device memory at an offset, pitched memory to a CUDA array, the array back to the host. Each
// node copies at every launch what its source holds then.
#include <vector>

#include "check.h"

__global__ void negate(float* p, size_t pitch, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) reinterpret_cast<float*>(reinterpret_cast<char*>(p) + y * pitch)[x] *= -1.0f;
}

int main() {
  const int w = 40, h = 12;  // floats
  std::vector<float> in(w * h), out(w * h, 0.0f);
  float* d;
  size_t pitch;
  CHECK(cudaMallocPitch(&d, &pitch, (w + 8) * sizeof(float), h + 2));
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &f, w, h));

  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t up, flip, down, back;

  // host -> device, into the pitched buffer from (8 floats, 2 rows): extent and positions in bytes
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(in.data(), w * sizeof(float), w, h);
  p.dstPtr = make_cudaPitchedPtr(d, pitch, w + 8, h + 2);
  p.dstPos = make_cudaPos(8 * sizeof(float), 2, 0);
  p.extent = make_cudaExtent(w * sizeof(float), h, 1);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaGraphAddMemcpyNode(&up, g, nullptr, 0, &p));

  float* region = reinterpret_cast<float*>(reinterpret_cast<char*>(d) + 2 * pitch) + 8;
  void* args[] = {&region, &pitch, const_cast<int*>(&w), const_cast<int*>(&h)};
  cudaKernelNodeParams k = {};
  k.func = reinterpret_cast<void*>(negate);
  k.gridDim = dim3((w + 31) / 32, h);
  k.blockDim = dim3(32);
  k.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&flip, g, &up, 1, &k));

  // device -> array: with an array on either side, the extent and the pointer's x position count
  // the array's elements (floats), as an H200 takes them
  p = {};
  p.srcPtr = make_cudaPitchedPtr(d, pitch, w + 8, h + 2);
  p.srcPos = make_cudaPos(8, 2, 0);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h, 1);
  p.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaGraphAddMemcpyNode(&down, g, &flip, 1, &p));

  // array -> host, rows 1.. of the array to the start of `out`
  p = {};
  p.srcArray = a;
  p.srcPos = make_cudaPos(0, 1, 0);
  p.dstPtr = make_cudaPitchedPtr(out.data(), w * sizeof(float), w, h);
  p.extent = make_cudaExtent(w, h - 1, 1);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphAddMemcpyNode(&back, g, &down, 1, &p));

  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(up, &type));
  EXPECT(type == cudaGraphNodeTypeMemcpy);
  CHECK(cudaGraphNodeGetType(flip, &type));
  EXPECT(type == cudaGraphNodeTypeKernel);
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  EXPECT(count == 4);

  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int launch = 0; launch < 2; ++launch) {
    for (int i = 0; i < w * h; ++i) in[i] = float(i + 1000 * launch);
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < w * (h - 1); ++i) EXPECT(out[i] == -float(i + w + 1000 * launch));
    for (int i = w * (h - 1); i < w * h; ++i) EXPECT(out[i] == 0.0f);
  }

  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(d));
  return pass();
}
