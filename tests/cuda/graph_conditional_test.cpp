// Conditional graph nodes through the Driver API (src/cuda/conditional.cpp): cuGraphAddNode's
// checks of CUDA_CONDITIONAL_NODE_PARAMS, a WHILE loop that a PTX kernel ends by calling
// cudaGraphSetConditional (the extern function nvcc emits), capture into a body graph, and the
// restrictions cuda.h lists for graphs with conditional nodes.
#include <cuda.h>
#include <gtest/gtest.h>

#include "primary_context.h"

namespace {

// countdown: --*counter; the handle becomes 0 when the counter reaches 0. bump: ++*counter.
const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func cudaGraphSetConditional(.param .b64 handle, .param .b32 value);
.visible .entry countdown(.param .u64 counter, .param .u64 handle)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [counter];
  ld.param.u64 %rd2, [handle];
  ld.global.u32 %r1, [%rd1];
  sub.s32 %r1, %r1, 1;
  st.global.u32 [%rd1], %r1;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b32 param1;
  st.param.b32 [param1], 0;
  call.uni cudaGraphSetConditional, (param0, param1);
  }
DONE:
  ret;
}
.visible .entry bump(.param .u64 counter)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [counter];
  ld.global.u32 %r1, [%rd1];
  add.s32 %r1, %r1, 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

class Conditional : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ptxvm::test::use_primary_context(&ctx));
    ASSERT_EQ(cuModuleLoadData(&mod, kPtx), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&countdown, mod, "countdown"), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&bump, mod, "bump"), CUDA_SUCCESS);
    ASSERT_EQ(cuMemAlloc(&counter, 16), CUDA_SUCCESS);
  }
  void TearDown() override {
    cuMemFree(counter);
    cuModuleUnload(mod);
  }
  CUresult add_conditional(CUgraphNode* node, CUgraph g, CUgraphConditionalHandle h, CUgraphConditionalNodeType type,
                           unsigned size, CUgraph* bodies = nullptr) {
    CUgraphNodeParams p{};
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional = {h, type, size, nullptr, ctx};
    const CUresult r = cuGraphAddNode(node, g, nullptr, nullptr, 0, &p);
    if (r == CUDA_SUCCESS && bodies)
      for (unsigned i = 0; i < size; ++i) bodies[i] = p.conditional.phGraph_out[i];
    return r;
  }
  CUresult add_kernel(CUgraphNode* node, CUgraph g, CUfunction f, void** args) {
    CUgraphNodeParams p{};
    p.type = CU_GRAPH_NODE_TYPE_KERNEL;
    p.kernel.func = f;
    p.kernel.gridDimX = p.kernel.gridDimY = p.kernel.gridDimZ = 1;
    p.kernel.blockDimX = p.kernel.blockDimY = p.kernel.blockDimZ = 1;
    p.kernel.kernelParams = args;
    return cuGraphAddNode(node, g, nullptr, nullptr, 0, &p);
  }
  unsigned read() {
    unsigned v = 0;
    EXPECT_EQ(cuMemcpyDtoH(&v, counter, 4), CUDA_SUCCESS);
    return v;
  }
  CUcontext ctx = nullptr;
  CUmodule mod = nullptr;
  CUfunction countdown = nullptr, bump = nullptr;
  CUdeviceptr counter = 0;
};

// A WHILE node (default 1, assigned at each launch) around the countdown kernel runs it until the
// kernel sets the handle to 0.
TEST_F(Conditional, WhileLoopEndsFromTheDevice) {
  CUgraph g;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUgraphConditionalHandle h;
  ASSERT_EQ(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT), CUDA_SUCCESS);
  CUgraphNode loop, body_node;
  CUgraph body;
  ASSERT_EQ(add_conditional(&loop, g, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body), CUDA_SUCCESS);
  void* args[] = {&counter, &h};
  ASSERT_EQ(add_kernel(&body_node, body, countdown, args), CUDA_SUCCESS);
  CUgraphNodeType type;
  ASSERT_EQ(cuGraphNodeGetType(loop, &type), CUDA_SUCCESS);
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_CONDITIONAL);
  CUgraphNode listed[2] = {};
  size_t n = 2;
  ASSERT_EQ(cuGraphGetNodes(body, listed, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(listed[0], body_node);
  EXPECT_EQ(cuGraphDestroy(body), CUDA_ERROR_INVALID_VALUE);  // the node owns its bodies
  CUgraphExec exec;
  CUDA_GRAPH_INSTANTIATE_PARAMS ip{};
  ASSERT_EQ(cuGraphInstantiateWithParams(&exec, g, &ip), CUDA_SUCCESS);
  EXPECT_EQ(ip.result_out, CUDA_GRAPH_INSTANTIATE_SUCCESS);
  for (unsigned start : {6u, 2u}) {
    ASSERT_EQ(cuMemsetD32(counter, start, 1), CUDA_SUCCESS);
    ASSERT_EQ(cuGraphLaunch(exec, nullptr), CUDA_SUCCESS);
    EXPECT_EQ(read(), 0u);
  }
  // a body's nodes take new parameters through cuGraphExecUpdate; the conditional node's may not
  // change
  ASSERT_EQ(cuGraphExecUpdate(exec, g, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32(counter, 3, 1), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(exec, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(read(), 0u);
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
}

// CUDA_CONDITIONAL_NODE_PARAMS: sizes 1 (WHILE), 1 or 2 (IF), any above 0 (SWITCH); a handle of
// this graph or one enclosing it, serving a single conditional node; cuGraphConditionalHandleCreate's
// flags 0 or ASSIGN_DEFAULT.
TEST_F(Conditional, ParametersAreChecked) {
  CUgraph g, other;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphCreate(&other, 0), CUDA_SUCCESS);
  CUgraphConditionalHandle h, nested;
  EXPECT_EQ(cuGraphConditionalHandleCreate(&h, g, ctx, 0, 2), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphConditionalHandleCreate(nullptr, g, ctx, 0, 0), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0), CUDA_SUCCESS);
  CUgraphNode node;
  EXPECT_EQ(add_conditional(&node, g, h, CU_GRAPH_COND_TYPE_WHILE, 2), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(add_conditional(&node, g, h, CU_GRAPH_COND_TYPE_IF, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(add_conditional(&node, g, h, CU_GRAPH_COND_TYPE_IF, 3), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(add_conditional(&node, g, h, CU_GRAPH_COND_TYPE_SWITCH, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(add_conditional(&node, g, h, CUgraphConditionalNodeType(3), 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(add_conditional(&node, g, h + 4, CU_GRAPH_COND_TYPE_IF, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(add_conditional(&node, other, h, CU_GRAPH_COND_TYPE_IF, 1), CUDA_ERROR_INVALID_VALUE);
  CUgraph bodies[5];
  ASSERT_EQ(add_conditional(&node, g, h, CU_GRAPH_COND_TYPE_SWITCH, 5, bodies), CUDA_SUCCESS);
  // a body's own handle serves nodes inside it, not the graph around it
  ASSERT_EQ(cuGraphConditionalHandleCreate(&nested, bodies[4], ctx, 0, 0), CUDA_SUCCESS);
  EXPECT_EQ(add_conditional(&node, g, nested, CU_GRAPH_COND_TYPE_IF, 1), CUDA_ERROR_INVALID_VALUE);
  // a handle serves a single conditional node, here or in a body; the graph's second one serves
  // a node in the body
  EXPECT_EQ(add_conditional(&node, g, h, CU_GRAPH_COND_TYPE_IF, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(add_conditional(&node, bodies[4], h, CU_GRAPH_COND_TYPE_IF, 1), CUDA_ERROR_INVALID_VALUE);
  CUgraphConditionalHandle outer;
  ASSERT_EQ(cuGraphConditionalHandleCreate(&outer, g, ctx, 0, 0), CUDA_SUCCESS);
  CUgraphNode inner;
  EXPECT_EQ(add_conditional(&inner, bodies[4], outer, CU_GRAPH_COND_TYPE_IF, 1), CUDA_SUCCESS);
  EXPECT_EQ(add_conditional(&node, g, outer, CU_GRAPH_COND_TYPE_IF, 1), CUDA_ERROR_INVALID_VALUE);
  // once its node is destroyed, another may take it (as on an H200)
  ASSERT_EQ(cuGraphDestroyNode(inner), CUDA_SUCCESS);
  EXPECT_EQ(add_conditional(&inner, bodies[4], outer, CU_GRAPH_COND_TYPE_IF, 1), CUDA_SUCCESS);
  // a handle no conditional node uses fails the instantiation
  CUgraphExec exec;
  CUDA_GRAPH_INSTANTIATE_PARAMS ip{};
  EXPECT_EQ(cuGraphInstantiateWithParams(&exec, g, &ip), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(ip.result_out, CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED);
  EXPECT_EQ(add_conditional(&inner, bodies[4], nested, CU_GRAPH_COND_TYPE_WHILE, 1), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphInstantiateWithParams(&exec, g, &ip), CUDA_SUCCESS);
  // one executable graph at a time (a second is NOT_SUPPORTED on an H200); no clone; no child
  // graph node of it
  CUgraphExec second;
  EXPECT_EQ(cuGraphInstantiate(&second, g, 0), CUDA_ERROR_NOT_SUPPORTED);
  CUgraph clone;
  EXPECT_EQ(cuGraphClone(&clone, g), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(cuGraphAddChildGraphNode(&node, other, nullptr, 0, g), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphInstantiate(&second, g, 0), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);  // before its executable graph, which still runs
  EXPECT_EQ(cuGraphLaunch(second, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphExecDestroy(second), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(other), CUDA_SUCCESS);
}

static void host_fn(void*) {}

// A body takes kernel, empty, child graph, memset, memcpy and conditional nodes only, added or
// captured (cuStreamBeginCaptureToGraph, which may follow given nodes of the body). Other kinds go
// in, added or captured, and fail the instantiation, as on an H200.
TEST_F(Conditional, BodiesHoldDeviceWorkOnly) {
  CUgraph g, body;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUgraphConditionalHandle h;
  ASSERT_EQ(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT), CUDA_SUCCESS);
  CUgraphNode node, first, other_kind;
  ASSERT_EQ(add_conditional(&node, g, h, CU_GRAPH_COND_TYPE_IF, 1, &body), CUDA_SUCCESS);
  const CUDA_HOST_NODE_PARAMS host{host_fn, nullptr};
  CUDA_MEM_ALLOC_NODE_PARAMS alloc{};
  alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  alloc.poolProps.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  alloc.bytesize = 256;
  CUgraphExec exec;
  CUDA_GRAPH_INSTANTIATE_PARAMS ip{};
  for (int kind = 0; kind < 2; ++kind) {
    CUgraph g2, body2;
    ASSERT_EQ(cuGraphCreate(&g2, 0), CUDA_SUCCESS);
    CUgraphConditionalHandle h2;
    ASSERT_EQ(cuGraphConditionalHandleCreate(&h2, g2, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT), CUDA_SUCCESS);
    CUgraphNode if2;
    ASSERT_EQ(add_conditional(&if2, g2, h2, CU_GRAPH_COND_TYPE_IF, 1, &body2), CUDA_SUCCESS);
    ASSERT_EQ(kind ? cuGraphAddMemAllocNode(&other_kind, body2, nullptr, 0, &alloc)
                   : cuGraphAddHostNode(&other_kind, body2, nullptr, 0, &host),
              CUDA_SUCCESS);
    EXPECT_EQ(cuGraphInstantiateWithParams(&exec, g2, &ip), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(ip.result_out, CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED);
    EXPECT_EQ(cuGraphDestroy(g2), CUDA_SUCCESS);
  }
  // in a child graph within a body too
  CUgraph child;
  ASSERT_EQ(cuGraphCreate(&child, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddHostNode(&other_kind, child, nullptr, 0, &host), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddChildGraphNode(&other_kind, body, nullptr, 0, child), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuGraphDestroyNode(other_kind), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(child), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddEmptyNode(&first, body, nullptr, 0), CUDA_SUCCESS);

  CUstream s;
  ASSERT_EQ(cuStreamCreate(&s, 0), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamEndCapture(s, nullptr), CUDA_ERROR_INVALID_VALUE);
  // a host function is captured into a body, and fails the instantiation
  ASSERT_EQ(cuStreamBeginCaptureToGraph(s, body, &first, nullptr, 1, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
  ASSERT_EQ(cuLaunchHostFunc(s, host_fn, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamEndCapture(s, nullptr), CUDA_SUCCESS);
  size_t n = 0;
  ASSERT_EQ(cuGraphGetNodes(body, nullptr, &n), CUDA_SUCCESS);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_ERROR_INVALID_VALUE);
  CUgraphNode listed[2];
  ASSERT_EQ(cuGraphGetNodes(body, listed, &n), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphDestroyNode(listed[0] == first ? listed[1] : listed[0]), CUDA_SUCCESS);
  // an invalidated capture into a body (a capturing stream synchronised) drops what it added
  ASSERT_EQ(cuStreamBeginCaptureToGraph(s, body, &first, nullptr, 1, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
  void* args[] = {&counter};
  ASSERT_EQ(cuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, s, args, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(s), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  EXPECT_EQ(cuStreamEndCapture(s, nullptr), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
  ASSERT_EQ(cuGraphGetNodes(body, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 1u);
  // two kernels after the empty node, the second also after the first (ADD)
  ASSERT_EQ(cuStreamBeginCaptureToGraph(s, body, &first, nullptr, 1, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
  ASSERT_EQ(cuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, s, args, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamUpdateCaptureDependencies(s, &first, nullptr, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamUpdateCaptureDependencies(s, &first, nullptr, 1, 7), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamUpdateCaptureDependencies(s, &node, nullptr, 1, 0), CUDA_ERROR_INVALID_VALUE);  // not the body's
  CUstreamCaptureStatus status;
  CUgraph capturing = nullptr;
  const CUgraphNode* tail = nullptr;
  size_t deps = 0;
  ASSERT_EQ(cuStreamGetCaptureInfo(s, &status, nullptr, &capturing, &tail, nullptr, &deps), CUDA_SUCCESS);
  EXPECT_EQ(capturing, body);
  EXPECT_EQ(deps, 2u);
  ASSERT_EQ(cuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, s, args, nullptr), CUDA_SUCCESS);
  CUgraph out = nullptr;
  ASSERT_EQ(cuStreamEndCapture(s, &out), CUDA_SUCCESS);
  EXPECT_EQ(out, body);
  CUgraphNode nodes[3];
  n = 3;
  ASSERT_EQ(cuGraphGetNodes(body, nodes, &n), CUDA_SUCCESS);
  ASSERT_EQ(n, 3u);

  ASSERT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32(counter, 0, 1), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(exec, s), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(s), CUDA_SUCCESS);
  EXPECT_EQ(read(), 2u);
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(s), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
}

}  // namespace
