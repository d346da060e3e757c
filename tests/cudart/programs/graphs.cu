// CUDA graphs (the simpleCudaGraphs sample's two ways): work captured from a stream, and a graph
// built node by node with dependencies; each instantiated once and launched several times.
#include <vector>
#include "check.h"

__global__ void add_one(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}

__global__ void twice(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}

int host_calls = 0;
void CUDART_CB count_call(void*) { ++host_calls; }

int main() {
  const int n = 1000;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i;
  int* d;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  // Captured: nothing runs until the graph is launched.
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s, &status));
  EXPECT(status == cudaStreamCaptureStatusActive);
  CHECK(cudaMemcpyAsync(d, in.data(), n * sizeof(int), cudaMemcpyHostToDevice, s));
  add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  CHECK(cudaMemcpyAsync(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaLaunchHostFunc(s, count_call, nullptr));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  CHECK(cudaEventRecord(done, s));  // a point of the capture, no node of the graph
  cudaGraph_t captured;
  CHECK(cudaStreamEndCapture(s, &captured));
  EXPECT(host_calls == 0 && out[5] == 0);
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(captured, nullptr, &nodes));
  EXPECT(nodes == 5);
  EXPECT(cudaEventQuery(done) == cudaErrorInvalidValue);  // as an H100 answers
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, captured, 0));
  CHECK(cudaGraphUpload(exec, s));  // prepares the launch; changes nothing it does
  for (int round = 0; round < 3; ++round) {
    in[0] = round;  // the copy reads the host buffer when the graph runs
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(out[0] == (round + 1) * 2);
    for (int i = 1; i < n; ++i) EXPECT(out[i] == (i + 1) * 2);
  }
  EXPECT(host_calls == 3);
  EXPECT(cudaEventSynchronize(done) == cudaErrorInvalidValue);  // still only a point of the capture
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaEventRecord(done, s));  // recorded outside a capture, it is an event again
  CHECK(cudaEventSynchronize(done));
  CHECK(cudaEventDestroy(done));

  // Built by hand: a memset, then two kernels that both depend on it, then a copy after both.
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemsetParams set = {};
  set.dst = d;
  set.value = 5;
  set.elementSize = 4;
  set.width = n;
  set.height = 1;
  cudaGraphNode_t fill, first, second, back;
  CHECK(cudaGraphAddMemsetNode(&fill, graph, nullptr, 0, &set));
  int half = n / 2;
  int* upper = d + half;
  void* lower_args[] = {&d, &half};
  void* upper_args[] = {&upper, &half};
  cudaKernelNodeParams k = {};
  k.func = (void*)add_one;
  k.gridDim = dim3((half + 127) / 128);
  k.blockDim = dim3(128);
  k.kernelParams = lower_args;
  CHECK(cudaGraphAddKernelNode(&first, graph, &fill, 1, &k));
  k.func = (void*)twice;
  k.kernelParams = upper_args;
  CHECK(cudaGraphAddKernelNode(&second, graph, &fill, 1, &k));
  cudaGraphNode_t both[] = {first, second};
  CHECK(cudaGraphAddMemcpyNode1D(&back, graph, both, 2, out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  cudaGraphExec_t built;
  CHECK(cudaGraphInstantiate(&built, graph, 0));
  CHECK(cudaGraphLaunch(built, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) EXPECT(out[i] == (i < half ? 6 : 10));

  // The built graph as a child of another, after a kernel whose parameters the executable graph
  // then changes (cudaGraphExecKernelNodeSetParams); and a graph launch captured as a child.
  cudaGraph_t parent;
  CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t child, doubling;
  CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, graph));
  int whole = n;
  void* all_args[] = {&d, &whole};
  k.func = (void*)twice;
  k.gridDim = dim3((n + 127) / 128);
  k.kernelParams = all_args;
  CHECK(cudaGraphAddKernelNode(&doubling, parent, &child, 1, &k));
  cudaKernelNodeParams read_back = {};
  CHECK(cudaGraphKernelNodeGetParams(doubling, &read_back));
  EXPECT(read_back.func == (void*)twice && read_back.gridDim.x == k.gridDim.x);
  cudaGraphExec_t nested;
  CHECK(cudaGraphInstantiate(&nested, parent, 0));
  CHECK(cudaGraphLaunch(nested, s));
  int first_word = 0;
  CHECK(cudaMemcpy(&first_word, d, 4, cudaMemcpyDeviceToHost));
  EXPECT(first_word == 12);  // (5 + 1) * 2: the child's copy ran before the doubling
  k.func = (void*)add_one;
  CHECK(cudaGraphExecKernelNodeSetParams(nested, doubling, &k));
  CHECK(cudaGraphLaunch(nested, s));
  CHECK(cudaMemcpy(&first_word, d, 4, cudaMemcpyDeviceToHost));
  EXPECT(first_word == 7);  // 5 + 1 + 1
  // A graph launch cannot be captured (an H100 says so); the capture is then invalidated.
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  EXPECT(cudaGraphLaunch(nested, s) == cudaErrorStreamCaptureUnsupported);
  cudaGraph_t broken = nullptr;
  EXPECT(cudaStreamEndCapture(s, &broken) == cudaErrorStreamCaptureInvalidated && broken == nullptr);
  EXPECT(cudaGetLastError() == cudaErrorStreamCaptureInvalidated);
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  cudaGraph_t outer;
  CHECK(cudaStreamEndCapture(s, &outer));
  cudaGraphExec_t outer_exec;
  CHECK(cudaGraphInstantiate(&outer_exec, outer, 0));
  CHECK(cudaGraphLaunch(outer_exec, s));
  CHECK(cudaMemcpy(&first_word, d, 4, cudaMemcpyDeviceToHost));
  EXPECT(first_word == 8);
  // The same shape captured again with another kernel updates the executable graph in place; a
  // graph of another shape is refused.
  cudaGraph_t again;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  CHECK(cudaStreamEndCapture(s, &again));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(outer_exec, again, &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess);
  CHECK(cudaGraphLaunch(outer_exec, s));
  CHECK(cudaMemcpy(&first_word, d, 4, cudaMemcpyDeviceToHost));
  EXPECT(first_word == 16);  // 8 * 2
  EXPECT(cudaGraphExecUpdate(outer_exec, graph, &info) == cudaErrorGraphExecUpdateFailure);
  EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT(cudaGetLastError() == cudaErrorGraphExecUpdateFailure);
  CHECK(cudaGraphDestroy(again));
  CHECK(cudaGraphExecDestroy(outer_exec));
  CHECK(cudaGraphExecDestroy(nested));
  CHECK(cudaGraphDestroy(outer));
  (void)broken;
  CHECK(cudaGraphDestroy(parent));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphExecDestroy(built));
  CHECK(cudaGraphDestroy(captured));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  return pass();
}
