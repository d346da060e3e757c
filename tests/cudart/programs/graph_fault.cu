// A graph launch is asynchronous, as a kernel launch is: a kernel node that faults does not fail
// cudaGraphLaunch; the fault (an illegal address, sticky) is what the calls after it return.
#include "check.h"

__global__ void wild(int* x) { x[1 << 28] = 1; }

int main() {
  int* x;
  CHECK(cudaMalloc(&x, 1024 * 4));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  void* args[] = {&x};
  cudaKernelNodeParams p{};
  p.func = reinterpret_cast<void*>(wild);
  p.gridDim = dim3(1), p.blockDim = dim3(1);
  p.kernelParams = args;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, g, nullptr, 0, &p));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphLaunch(exec, s));
  EXPECT(cudaStreamSynchronize(s) == cudaErrorIllegalAddress);
  EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  return pass();
}
