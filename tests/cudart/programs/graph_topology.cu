// A graph's shape and event nodes through the runtime: edges added with cudaGraphAddDependencies
// (the launch follows them), the edges, root nodes, dependencies and dependent nodes read back
// (edge data too), edges removed and nodes destroyed, a child graph node's own graph, and event
// record and wait nodes. Only what the CUDA Runtime API documents is checked (edge lists are
// compared as sets: their order is not documented).
#include <algorithm>
#include <utility>
#include <vector>
#include "check.h"

__global__ void append(int* x, int digit) { *x = *x * 10 + digit; }  // the order nodes ran in

cudaGraphNode_t kernel(cudaGraph_t g, int* x, int digit, const cudaGraphNode_t* deps = nullptr, size_t count = 0) {
  void* args[] = {&x, &digit};
  cudaKernelNodeParams p{};
  p.func = reinterpret_cast<void*>(append);
  p.gridDim = dim3(1), p.blockDim = dim3(1);
  p.kernelParams = args;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, g, deps, count, &p));
  return node;
}

int run(cudaGraph_t g, int* x, cudaStream_t s) {
  CHECK(cudaMemsetAsync(x, 0, sizeof(int), s));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphLaunch(exec, s));
  int v = -1;
  CHECK(cudaMemcpyAsync(&v, x, sizeof v, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaGraphExecDestroy(exec));
  return v;
}

int main() {
  int* x;
  CHECK(cudaMalloc(&x, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  // a <- b, and c added last made a's dependency: c, a, b.
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t a = kernel(g, x, 1);
  cudaGraphNode_t b = kernel(g, x, 2, &a, 1);
  cudaGraphNode_t c = kernel(g, x, 3);
  CHECK(cudaGraphAddDependencies(g, &c, &a, nullptr, 1));
  EXPECT(run(g, x, s) == 312);
  size_t count = 0;
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count));
  EXPECT(count == 2);
  cudaGraphNode_t from[3], to[3];
  count = 3;
  CHECK(cudaGraphGetEdges(g, from, to, nullptr, &count));
  EXPECT(count == 2 && from[2] == nullptr && to[2] == nullptr);
  std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> edges{{from[0], to[0]}, {from[1], to[1]}};
  EXPECT(std::count(edges.begin(), edges.end(), std::make_pair(c, a)) == 1);
  EXPECT(std::count(edges.begin(), edges.end(), std::make_pair(a, b)) == 1);
  cudaGraphNode_t roots[2];
  count = 2;
  CHECK(cudaGraphGetRootNodes(g, roots, &count));
  EXPECT(count == 1 && roots[0] == c && roots[1] == nullptr);
  cudaGraphNode_t one;
  count = 1;
  CHECK(cudaGraphNodeGetDependencies(a, &one, nullptr, &count));
  EXPECT(count == 1 && one == c);
  CHECK(cudaGraphNodeGetDependentNodes(a, &one, nullptr, &count));
  EXPECT(count == 1 && one == b);
  CHECK(cudaGraphRemoveDependencies(g, &c, &a, nullptr, 1));
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count));
  EXPECT(count == 1);
  CHECK(cudaGraphDestroyNode(c));
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  EXPECT(count == 2);
  EXPECT(run(g, x, s) == 12);

  // Edge data: a programmatic edge between kernel nodes is read back; without edge data the
  // query would lose it (cudaErrorLossyQuery).
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeKernel;
  int digit = 4;
  void* args[] = {&x, &digit};
  p.kernel.func = reinterpret_cast<void*>(append);
  p.kernel.gridDim = dim3(1), p.kernel.blockDim = dim3(1);
  p.kernel.kernelParams = args;
  cudaGraphEdgeData programmatic{};
  programmatic.from_port = cudaGraphKernelNodePortProgrammatic;
  programmatic.type = cudaGraphDependencyTypeProgrammatic;
  cudaGraphNode_t d;
  CHECK(cudaGraphAddNode(&d, g, &b, &programmatic, 1, &p));
  count = 1;
  EXPECT(cudaGraphNodeGetDependencies(d, &one, nullptr, &count) == cudaErrorLossyQuery);
  EXPECT(cudaGetLastError() == cudaErrorLossyQuery);
  cudaGraphEdgeData data{};
  count = 1;
  CHECK(cudaGraphNodeGetDependencies(d, &one, &data, &count));
  EXPECT(count == 1 && one == b && data.type == cudaGraphDependencyTypeProgrammatic &&
         data.from_port == cudaGraphKernelNodePortProgrammatic);
  EXPECT(run(g, x, s) == 124);
  CHECK(cudaGraphDestroy(g));

  // A child graph node's graph is the node's own: changes to it are the node's.
  cudaGraph_t child, parent, inner;
  CHECK(cudaGraphCreate(&child, 0));
  kernel(child, x, 5);
  CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t first = kernel(parent, x, 1), node;
  CHECK(cudaGraphAddChildGraphNode(&node, parent, &first, 1, child));
  CHECK(cudaGraphChildGraphNodeGetGraph(node, &inner));
  cudaGraphNode_t five;
  count = 1;
  CHECK(cudaGraphGetRootNodes(inner, &five, &count));
  EXPECT(count == 1);
  kernel(inner, x, 6, &five, 1);
  kernel(parent, x, 2, &node, 1);
  EXPECT(run(parent, x, s) == 1562);
  CHECK(cudaGraphDestroy(parent));
  CHECK(cudaGraphDestroy(child));

  // Event nodes: each launch records `start` and `end` around the kernel, after waiting on
  // `earlier`, recorded on the stream before.
  cudaEvent_t start, end, earlier, other;
  for (cudaEvent_t* e : {&start, &end, &earlier, &other}) CHECK(cudaEventCreate(e));
  CHECK(cudaEventRecord(earlier, s));
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t wait, record_start, record_end;
  CHECK(cudaGraphAddEventWaitNode(&wait, g, nullptr, 0, earlier));
  CHECK(cudaGraphAddEventRecordNode(&record_start, g, &wait, 1, start));
  cudaGraphNode_t work = kernel(g, x, 7, &record_start, 1);
  cudaGraphNodeParams rp{};
  rp.type = cudaGraphNodeTypeEventRecord;
  rp.eventRecord.event = other;
  CHECK(cudaGraphAddNode(&record_end, g, &work, nullptr, 1, &rp));
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(record_end, &type));
  EXPECT(type == cudaGraphNodeTypeEventRecord);
  CHECK(cudaGraphNodeGetType(wait, &type));
  EXPECT(type == cudaGraphNodeTypeWaitEvent);
  cudaEvent_t got;
  CHECK(cudaGraphEventRecordNodeGetEvent(record_end, &got));
  EXPECT(got == other);
  CHECK(cudaGraphEventRecordNodeSetEvent(record_end, end));
  CHECK(cudaGraphEventRecordNodeGetEvent(record_end, &got));
  EXPECT(got == end);
  CHECK(cudaGraphEventWaitNodeGetEvent(wait, &got));
  EXPECT(got == earlier);
  CHECK(cudaGraphEventWaitNodeSetEvent(wait, earlier));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaMemsetAsync(x, 0, sizeof(int), s));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaEventSynchronize(end));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, end));
  EXPECT(ms >= 0);
  CHECK(cudaGraphExecEventRecordNodeSetEvent(exec, record_end, other));  // the graph keeps `end`
  CHECK(cudaGraphExecEventWaitNodeSetEvent(exec, wait, earlier));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaEventSynchronize(other));
  CHECK(cudaEventElapsedTime(&ms, start, other));
  EXPECT(ms >= 0);
  CHECK(cudaGraphEventRecordNodeGetEvent(record_end, &got));
  EXPECT(got == end);
  int v = 0;
  CHECK(cudaMemcpy(&v, x, sizeof v, cudaMemcpyDeviceToHost));
  EXPECT(v == 77);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  for (cudaEvent_t e : {start, end, earlier, other}) CHECK(cudaEventDestroy(e));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  return pass();
}
