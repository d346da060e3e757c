// Conditional graph nodes (CUDA C++ Programming Guide, "Conditional Graph Nodes"): IF, IF/ELSE,
// WHILE, SWITCH, a WHILE nested in an IF, handles reset to their default at each launch
// (cudaGraphCondAssignDefault), a body filled by stream capture (cudaStreamBeginCaptureToGraph), a
// conditional node added to a capture, and what the API refuses. (Without cudaGraphCondAssignDefault
// a handle's value at a launch's start is undefined, so nothing here relies on it.) A handle serves
// a single conditional node (the Programming Guide's "Conditional Handles"), so two nodes that
// decide on one value have a handle each, both set by the same kernel.
#include <cuda_runtime.h>

#include "check.h"

// Sets the handle to *value (one thread).
__global__ void set_from(const int* value, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, *value); }

// Sets both handles to *value (one thread).
__global__ void set_both(const int* value, cudaGraphConditionalHandle a, cudaGraphConditionalHandle b) {
  cudaGraphSetConditional(a, *value);
  cudaGraphSetConditional(b, *value);
}

// Adds `amount` to log[slot].
__global__ void add_to(int* log, int slot, int amount) { log[slot] += amount; }

// One step of a countdown: --*counter, and the loop ends (the handle 0) when it reaches 0. The
// whole block counts one step.
__global__ void count_down(int* counter, int* steps, cudaGraphConditionalHandle h) {
  __syncthreads();
  if (threadIdx.x == 0) {
    ++*steps;
    if (--*counter == 0) cudaGraphSetConditional(h, 0);
  }
}

namespace {

cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t count, void* func, void** args,
                           unsigned block = 1) {
  cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(block);
  p.kernel.kernelParams = args;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, g, deps, nullptr, count, &p));
  return node;
}

// A conditional node of `type` with `size` bodies, returned in `bodies`.
cudaGraphNode_t add_conditional(cudaGraph_t g, const cudaGraphNode_t* deps, size_t count, cudaGraphConditionalHandle h,
                                cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t* bodies) {
  cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, g, deps, nullptr, count, &p));
  for (unsigned i = 0; i < size; ++i) bodies[i] = p.conditional.phGraph_out[i];
  return node;
}

cudaError_t try_conditional(cudaGraph_t g, cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                            unsigned size) {
  cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphNode_t node;
  const cudaError_t e = cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &p);
  cudaGetLastError();
  return e;
}

void read(int* host, const int* device, int n) {
  CHECK(cudaMemcpy(host, device, n * sizeof(int), cudaMemcpyDeviceToHost));
}

// A -> IF [ log[0] += 1 | log[1] += 1 ] (ELSE when `with_else`) -> SWITCH over 3 bodies, each
// adding to its own slot, on the same value (A sets the IF's handle and the SWITCH's).
void if_else_switch(int* value, int* log, bool with_else) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h, hs;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  CHECK(cudaGraphConditionalHandleCreate(&hs, g));
  void* set_args[] = {&value, &h, &hs};
  cudaGraphNode_t a = add_kernel(g, nullptr, 0, (void*)set_both, set_args);
  cudaGraph_t bodies[3];
  cudaGraphNode_t b = add_conditional(g, &a, 1, h, cudaGraphCondTypeIf, with_else ? 2 : 1, bodies);
  int slot0 = 0, slot1 = 1, one = 1;
  void* args0[] = {&log, &slot0, &one};
  void* args1[] = {&log, &slot1, &one};
  add_kernel(bodies[0], nullptr, 0, (void*)add_to, args0);
  if (with_else) add_kernel(bodies[1], nullptr, 0, (void*)add_to, args1);
  cudaGraph_t cases[3];
  add_conditional(g, &b, 1, hs, cudaGraphCondTypeSwitch, 3, cases);
  int slots[3] = {2, 3, 4};
  int ten = 10;
  void* case_args[3][3] = {{&log, &slots[0], &ten}, {&log, &slots[1], &ten}, {&log, &slots[2], &ten}};
  for (int i = 0; i < 3; ++i) add_kernel(cases[i], nullptr, 0, (void*)add_to, case_args[i]);

  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(b, &type));
  EXPECT(type == cudaGraphNodeTypeConditional);
  size_t count = 0;
  CHECK(cudaGraphGetNodes(bodies[0], nullptr, &count));
  EXPECT(count == 1);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int v : {0, 1, 2, 7}) {
    CHECK(cudaMemset(log, 0, 5 * sizeof(int)));
    CHECK(cudaMemcpy(value, &v, sizeof v, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaStreamSynchronize(0));
    int got[5];
    read(got, log, 5);
    EXPECT(got[0] == (v != 0));
    EXPECT(got[1] == (with_else && v == 0));
    for (int i = 0; i < 3; ++i) EXPECT(got[2 + i] == (v == i ? 10 : 0));
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
}

// IF (default 1, assigned at each launch) [ WHILE (default 1) [ count_down ] ]: the loop counts
// *counter down to 0 on the device, once per launch, because the handles start over each time.
void nested_countdown(int* counter, int* steps) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle outer;
  CHECK(cudaGraphConditionalHandleCreate(&outer, g, 1, cudaGraphCondAssignDefault));
  cudaGraph_t if_body;
  add_conditional(g, nullptr, 0, outer, cudaGraphCondTypeIf, 1, &if_body);
  cudaGraphConditionalHandle loop;
  CHECK(cudaGraphConditionalHandleCreate(&loop, if_body, 1, cudaGraphCondAssignDefault));
  cudaGraph_t while_body;
  add_conditional(if_body, nullptr, 0, loop, cudaGraphCondTypeWhile, 1, &while_body);
  void* args[] = {&counter, &steps, &loop};
  add_kernel(while_body, nullptr, 0, (void*)count_down, args, 64);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int start : {5, 3}) {
    int zero = 0;
    CHECK(cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(steps, &zero, sizeof zero, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaStreamSynchronize(0));
    int got[2];
    read(&got[0], counter, 1);
    read(&got[1], steps, 1);
    EXPECT(got[0] == 0 && got[1] == start);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
}

// A captured graph: A (sets the handle from *counter) -> WHILE [ captured: count_down ] -> D,
// the conditional node added to the capture with cudaStreamGetCaptureInfo and
// cudaStreamUpdateCaptureDependencies, its body filled with cudaStreamBeginCaptureToGraph.
void captured_while(int* counter, int* steps, int* log) {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  cudaGraph_t g;
  const cudaGraphNode_t* deps;
  size_t count;
  CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &g, &deps, nullptr, &count));
  EXPECT(status == cudaStreamCaptureStatusActive && count == 0);
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  set_from<<<1, 1, 0, s>>>(counter, h);
  CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &g, &deps, nullptr, &count));
  EXPECT(count == 1);
  cudaGraph_t body;
  cudaGraphNode_t loop = add_conditional(g, deps, count, h, cudaGraphCondTypeWhile, 1, &body);
  CHECK(cudaStreamUpdateCaptureDependencies(s, &loop, nullptr, 1, cudaStreamSetCaptureDependencies));
  add_to<<<1, 1, 0, s>>>(log, 0, 100);
  cudaGraph_t captured;
  CHECK(cudaStreamEndCapture(s, &captured));
  EXPECT(captured == g);

  CHECK(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  add_to<<<1, 1, 0, s>>>(log, 1, 1);
  count_down<<<1, 32, 0, s>>>(counter, steps, h);
  CHECK(cudaStreamEndCapture(s, nullptr));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(body, nullptr, &nodes));
  EXPECT(nodes == 2);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int start : {0, 4}) {  // a while loop: a counter of 0 runs no body
    int zeros[2] = {0, 0};
    CHECK(cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(steps, zeros, sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(log, zeros, sizeof zeros, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    int got[2], n;
    read(got, log, 2);
    read(&n, steps, 1);
    EXPECT(got[0] == 100 && got[1] == start && n == start);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
}

static void host_fn(void*) {}

// What the API forbids (cuda.h's CUDA_CONDITIONAL_NODE_PARAMS and CU_GRAPH_NODE_TYPE_CONDITIONAL, the
// Programming Guide's one node per handle).
void refusals() {
  cudaGraph_t g, other;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphCreate(&other, 0));
  cudaGraphConditionalHandle h;
  EXPECT(cudaGraphConditionalHandleCreate(&h, g, 0, 2) == cudaErrorInvalidValue);  // flags
  cudaGetLastError();
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  EXPECT(try_conditional(g, h, cudaGraphCondTypeWhile, 2) == cudaErrorInvalidValue);
  EXPECT(try_conditional(g, h, cudaGraphCondTypeIf, 3) == cudaErrorInvalidValue);
  EXPECT(try_conditional(g, h, cudaGraphCondTypeSwitch, 0) == cudaErrorInvalidValue);
  EXPECT(try_conditional(other, h, cudaGraphCondTypeIf, 1) != cudaSuccess);  // another graph's handle
  cudaGraph_t body;
  add_conditional(g, nullptr, 0, h, cudaGraphCondTypeIf, 1, &body);
  EXPECT(try_conditional(g, h, cudaGraphCondTypeSwitch, 2) != cudaSuccess);  // a handle serves one node
  EXPECT(try_conditional(body, h, cudaGraphCondTypeIf, 1) != cudaSuccess);   // in a body too
  cudaGraphNode_t node;
  cudaGraph_t clone;
  EXPECT(cudaGraphClone(&clone, g) != cudaSuccess);  // graphs with conditional nodes
  cudaGetLastError();
  EXPECT(cudaGraphAddChildGraphNode(&node, other, nullptr, 0, g) != cudaSuccess);  // nor be children
  cudaGetLastError();
  cudaGraphExec_t exec, second;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  EXPECT(cudaGraphInstantiate(&second, g, 0) != cudaSuccess);  // one instantiation at a time
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(other));
  CHECK(cudaGraphDestroy(g));

  // a host node may not be in a body: refused when added, or when the graph is instantiated
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  add_conditional(g, nullptr, 0, h, cudaGraphCondTypeIf, 1, &body);
  cudaHostNodeParams host = {host_fn, nullptr};
  const bool added = cudaGraphAddHostNode(&node, body, nullptr, 0, &host) == cudaSuccess;
  cudaGetLastError();
  if (added) {
    EXPECT(cudaGraphInstantiate(&exec, g, 0) != cudaSuccess);
    cudaGetLastError();
  }
  CHECK(cudaGraphDestroy(g));
}

}  // namespace

int main() {
  int* buffer;
  CHECK(cudaMalloc(&buffer, 16 * sizeof(int)));
  int* value = buffer;
  int* counter = buffer + 1;
  int* steps = buffer + 2;
  int* log = buffer + 8;
  if_else_switch(value, log, false);
  if_else_switch(value, log, true);
  nested_countdown(counter, steps);
  captured_while(counter, steps, log);
  refusals();
  CHECK(cudaFree(buffer));
  return pass();
}
