// A graph's shape and event nodes through the Driver API (src/cuda/graph_topology.cpp,
// src/cuda/graph.cpp): edges, dependencies and dependent nodes (with edge data), root nodes,
// edges added and removed (the launch follows them, a cycle is refused at instantiation), nodes
// destroyed, a child graph node's own graph, and event record and wait nodes.
#include <cuda.h>
#include <gtest/gtest.h>

#include <vector>

#include "primary_context.h"

namespace {

const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
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

// Host nodes that write their number into `ran` when they run.
struct Step {
  std::vector<int>* ran;
  int id;
};
void CUDA_CB note(void* data) {
  auto* s = static_cast<Step*>(data);
  s->ran->push_back(s->id);
}

class GraphTopology : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ptxvm::test::use_primary_context(&ctx));
    ASSERT_EQ(cuModuleLoadData(&mod, kPtx), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&bump, mod, "bump"), CUDA_SUCCESS);
    ASSERT_EQ(cuMemAlloc(&counter, 4), CUDA_SUCCESS);
    ASSERT_EQ(cuMemsetD32(counter, 0, 1), CUDA_SUCCESS);
    ASSERT_EQ(cuGraphCreate(&graph, 0), CUDA_SUCCESS);
  }
  void TearDown() override {
    cuGraphDestroy(graph);
    cuMemFree(counter);
    cuModuleUnload(mod);
  }
  CUgraphNode host(int id, const CUgraphNode* deps = nullptr, size_t count = 0, CUgraph into = nullptr) {
    steps.push_back(new Step{&ran, id});
    CUDA_HOST_NODE_PARAMS p{note, steps.back()};
    CUgraphNode node = nullptr;
    EXPECT_EQ(cuGraphAddHostNode(&node, into ? into : graph, deps, count, &p), CUDA_SUCCESS);
    return node;
  }
  CUgraphNode kernel(const CUgraphNode* deps = nullptr, size_t count = 0) {
    void* args[] = {&counter};
    CUDA_KERNEL_NODE_PARAMS p{};
    p.func = bump, p.gridDimX = p.gridDimY = p.gridDimZ = 1, p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    p.kernelParams = args;
    CUgraphNode node = nullptr;
    EXPECT_EQ(cuGraphAddKernelNode(&node, graph, deps, count, &p), CUDA_SUCCESS);
    return node;
  }
  std::vector<int> launch(CUgraph g) {
    ran.clear();
    CUgraphExec exec;
    EXPECT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
    EXPECT_EQ(cuGraphLaunch(exec, nullptr), CUDA_SUCCESS);
    EXPECT_EQ(cuStreamSynchronize(nullptr), CUDA_SUCCESS);
    EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
    return ran;
  }
  CUcontext ctx = nullptr;
  CUmodule mod = nullptr;
  CUfunction bump = nullptr;
  CUdeviceptr counter = 0;
  CUgraph graph = nullptr;
  std::vector<int> ran;
  std::vector<Step*> steps;
};

// cuGraphAddDependencies may make a node depend on one added after it: the launch runs nodes
// after their dependencies, and a cycle is "invalid structure" at instantiation.
TEST_F(GraphTopology, EdgesAddedAndRemovedOrderTheLaunch) {
  CUgraphNode a = host(1), b = host(2, &a, 1), c = host(3);
  EXPECT_EQ(launch(graph), (std::vector<int>{1, 2, 3}));  // in the order added
  ASSERT_EQ(cuGraphAddDependencies(graph, &c, &a, nullptr, 1), CUDA_SUCCESS);  // a after c
  EXPECT_EQ(launch(graph), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(cuGraphAddDependencies(graph, &c, &a, nullptr, 1), CUDA_ERROR_INVALID_VALUE);  // exists
  EXPECT_EQ(cuGraphAddDependencies(graph, &a, &a, nullptr, 1), CUDA_ERROR_INVALID_VALUE);

  size_t count = 0;
  ASSERT_EQ(cuGraphGetEdges(graph, nullptr, nullptr, nullptr, &count), CUDA_SUCCESS);
  EXPECT_EQ(count, 2u);
  CUgraphNode from[3], to[3];
  count = 3;
  ASSERT_EQ(cuGraphGetEdges(graph, from, to, nullptr, &count), CUDA_SUCCESS);
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(from[0], c);  // a's dependency, a being added first
  EXPECT_EQ(to[0], a);
  EXPECT_EQ(from[1], a);
  EXPECT_EQ(to[1], b);
  EXPECT_EQ(from[2], nullptr);  // "the remaining entries ... will be set to NULL"
  EXPECT_EQ(to[2], nullptr);

  CUgraphNode roots[2] = {};
  count = 2;
  ASSERT_EQ(cuGraphGetRootNodes(graph, roots, &count), CUDA_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(roots[0], c);
  EXPECT_EQ(roots[1], nullptr);
  CUgraphNode deps[2];
  count = 2;
  ASSERT_EQ(cuGraphNodeGetDependencies(a, deps, nullptr, &count), CUDA_SUCCESS);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(deps[0], c);
  count = 2;
  ASSERT_EQ(cuGraphNodeGetDependentNodes(a, deps, nullptr, &count), CUDA_SUCCESS);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(deps[0], b);

  // b -> c closes a cycle c -> a -> b -> c.
  ASSERT_EQ(cuGraphAddDependencies(graph, &b, &c, nullptr, 1), CUDA_SUCCESS);
  CUgraphExec exec = nullptr;
  CUDA_GRAPH_INSTANTIATE_PARAMS ip{};
  EXPECT_EQ(cuGraphInstantiateWithParams(&exec, graph, &ip), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(ip.result_out, CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE);
  const CUgraphEdgeData programmatic{CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC, 0, CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC, {}};
  EXPECT_EQ(cuGraphRemoveDependencies(graph, &b, &c, &programmatic, 1), CUDA_ERROR_INVALID_VALUE);  // data differs
  ASSERT_EQ(cuGraphRemoveDependencies(graph, &b, &c, nullptr, 1), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphRemoveDependencies(graph, &b, &c, nullptr, 1), CUDA_ERROR_INVALID_VALUE);  // gone
  EXPECT_EQ(launch(graph), (std::vector<int>{3, 1, 2}));

  // Destroying a severs its edges both ways.
  ASSERT_EQ(cuGraphDestroyNode(a), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphGetEdges(graph, nullptr, nullptr, nullptr, &count), CUDA_SUCCESS);
  EXPECT_EQ(count, 0u);
  ASSERT_EQ(cuGraphGetRootNodes(graph, nullptr, &count), CUDA_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(launch(graph), (std::vector<int>{2, 3}));
  for (Step* s : steps) delete s;
}

// Edge data is kept and read back; a query without it that would lose it is
// CUDA_ERROR_LOSSY_QUERY. A programmatic edge joins two kernel nodes from a programmatic or
// launch-order port (CUgraphDependencyType).
TEST_F(GraphTopology, EdgeDataIsKeptAndQueriesSayWhenTheyWouldLoseIt) {
  CUgraphNode first = kernel(), h = host(1);
  const CUgraphEdgeData programmatic{CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC, 0, CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC, {}};
  CUgraphNodeParams p{};
  p.type = CU_GRAPH_NODE_TYPE_KERNEL;
  void* args[] = {&counter};
  p.kernel.func = bump, p.kernel.gridDimX = p.kernel.gridDimY = p.kernel.gridDimZ = 1;
  p.kernel.blockDimX = p.kernel.blockDimY = p.kernel.blockDimZ = 1, p.kernel.kernelParams = args;
  CUgraphNode second;
  ASSERT_EQ(cuGraphAddNode(&second, graph, &first, &programmatic, 1, &p), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphAddDependencies(graph, &first, &h, &programmatic, 1), CUDA_ERROR_INVALID_VALUE);  // not a kernel
  const CUgraphEdgeData wrong_port{CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC, 0, CU_GRAPH_DEPENDENCY_TYPE_DEFAULT, {}};
  EXPECT_EQ(cuGraphAddDependencies(graph, &first, &h, &wrong_port, 1), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuGraphAddDependencies(graph, &second, &h, nullptr, 1), CUDA_SUCCESS);

  CUgraphNode from[2], to[2];
  CUgraphEdgeData data[2];
  size_t count = 2;
  EXPECT_EQ(cuGraphGetEdges(graph, from, to, nullptr, &count), CUDA_ERROR_LOSSY_QUERY);
  EXPECT_EQ(cuGraphGetEdges(graph, nullptr, nullptr, data, &count), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuGraphGetEdges(graph, from, to, data, &count), CUDA_SUCCESS);
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(from[0], second);  // h's dependency, h being added before second
  EXPECT_EQ(to[0], h);
  EXPECT_EQ(data[0].type, CU_GRAPH_DEPENDENCY_TYPE_DEFAULT);
  EXPECT_EQ(from[1], first);
  EXPECT_EQ(to[1], second);
  EXPECT_EQ(data[1].type, CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC);
  EXPECT_EQ(data[1].from_port, CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC);
  CUgraphNode deps[1];
  count = 1;
  EXPECT_EQ(cuGraphNodeGetDependentNodes(first, deps, nullptr, &count), CUDA_ERROR_LOSSY_QUERY);
  ASSERT_EQ(cuGraphNodeGetDependentNodes(first, deps, data, &count), CUDA_SUCCESS);
  EXPECT_EQ(deps[0], second);
  EXPECT_EQ(data[0].type, CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC);
  EXPECT_EQ(cuGraphRemoveDependencies(graph, &first, &second, nullptr, 1), CUDA_ERROR_INVALID_VALUE);  // not default
  ASSERT_EQ(cuGraphRemoveDependencies(graph, &first, &second, &programmatic, 1), CUDA_SUCCESS);
  EXPECT_EQ(launch(graph), (std::vector<int>{1}));
  unsigned value = 0;
  ASSERT_EQ(cuMemcpyDtoH(&value, counter, 4), CUDA_SUCCESS);
  EXPECT_EQ(value, 2u);
  for (Step* s : steps) delete s;
}

// "This call does not clone the graph. Changes to the graph will be reflected in the node, and
// the node retains ownership of the graph. Allocation and free nodes cannot be added to the
// returned graph" (cuGraphChildGraphNodeGetGraph); the child graph itself was cloned.
TEST_F(GraphTopology, ChildGraphNodesOwnTheirGraph) {
  CUgraph child;
  ASSERT_EQ(cuGraphCreate(&child, 0), CUDA_SUCCESS);
  CUgraphNode c1 = host(10, nullptr, 0, child);
  CUgraphNode before = host(1), node;
  ASSERT_EQ(cuGraphAddChildGraphNode(&node, graph, &before, 1, child), CUDA_SUCCESS);
  host(2, &node, 1);
  CUgraph embedded = nullptr;
  ASSERT_EQ(cuGraphChildGraphNodeGetGraph(node, &embedded), CUDA_SUCCESS);
  ASSERT_NE(embedded, nullptr);
  EXPECT_NE(embedded, child);  // "The child graph is cloned in this call."
  EXPECT_EQ(cuGraphChildGraphNodeGetGraph(before, &embedded), CUDA_ERROR_INVALID_VALUE);  // not a child graph node
  ASSERT_EQ(cuGraphChildGraphNodeGetGraph(node, &embedded), CUDA_SUCCESS);
  host(11, &c1, 1, child);  // the node keeps its clone: not in it
  size_t count = 0;
  ASSERT_EQ(cuGraphGetNodes(embedded, nullptr, &count), CUDA_SUCCESS);
  EXPECT_EQ(count, 1u);
  CUgraphNode inner;
  ASSERT_EQ(cuGraphGetRootNodes(embedded, &inner, &(count = 1)), CUDA_SUCCESS);
  host(12, &inner, 1, embedded);  // through the node's graph: in it
  EXPECT_EQ(launch(graph), (std::vector<int>{1, 10, 12, 2}));

  CUDA_MEM_ALLOC_NODE_PARAMS ap{};
  ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  ap.poolProps.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  ap.bytesize = 64;
  CUgraphNode alloc;
  EXPECT_NE(cuGraphAddMemAllocNode(&alloc, embedded, nullptr, 0, &ap), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(embedded), CUDA_ERROR_INVALID_VALUE);  // the node's

  // A clone of the graph has a child graph of its own.
  CUgraph copy;
  ASSERT_EQ(cuGraphClone(&copy, graph), CUDA_SUCCESS);
  CUgraphNode copied;
  ASSERT_EQ(cuGraphNodeFindInClone(&copied, node, copy), CUDA_SUCCESS);
  CUgraph copied_embedded;
  ASSERT_EQ(cuGraphChildGraphNodeGetGraph(copied, &copied_embedded), CUDA_SUCCESS);
  EXPECT_NE(copied_embedded, embedded);
  EXPECT_EQ(launch(copy), (std::vector<int>{1, 10, 12, 2}));
  ASSERT_EQ(cuGraphDestroy(copy), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphDestroy(child), CUDA_SUCCESS);
  for (Step* s : steps) delete s;
}

// A child graph node in a conditional node's body runs its graph too.
TEST_F(GraphTopology, ChildGraphInAConditionalBody) {
  CUgraph child;
  ASSERT_EQ(cuGraphCreate(&child, 0), CUDA_SUCCESS);
  void* args[] = {&counter};
  CUDA_KERNEL_NODE_PARAMS kp{};
  kp.func = bump, kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1, kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = args;
  CUgraphNode k, node, inner;
  ASSERT_EQ(cuGraphAddKernelNode(&k, child, nullptr, 0, &kp), CUDA_SUCCESS);
  CUgraphConditionalHandle handle;
  ASSERT_EQ(cuGraphConditionalHandleCreate(&handle, graph, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT), CUDA_SUCCESS);
  CUgraphNodeParams p{};
  p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  p.conditional = {handle, CU_GRAPH_COND_TYPE_IF, 1, nullptr, ctx};
  ASSERT_EQ(cuGraphAddNode(&node, graph, nullptr, nullptr, 0, &p), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddChildGraphNode(&inner, p.conditional.phGraph_out[0], nullptr, 0, child), CUDA_SUCCESS);
  launch(graph);
  unsigned value = 0;
  ASSERT_EQ(cuMemcpyDtoH(&value, counter, 4), CUDA_SUCCESS);
  EXPECT_EQ(value, 1u);
  ASSERT_EQ(cuGraphDestroy(child), CUDA_SUCCESS);
}

// Event record nodes record their event at each launch; wait nodes keep theirs (work runs in
// order, so nothing waits). Both through their own entry points and cuGraphAddNode.
TEST_F(GraphTopology, EventRecordAndWaitNodes) {
  CUevent start, end, other;
  ASSERT_EQ(cuEventCreate(&start, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuEventCreate(&end, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuEventCreate(&other, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuEventRecord(other, nullptr), CUDA_SUCCESS);
  CUgraphNode record_start, wait, work, record_end;
  EXPECT_EQ(cuGraphAddEventRecordNode(&record_start, graph, nullptr, 0, nullptr), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuGraphAddEventRecordNode(&record_start, graph, nullptr, 0, start), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddEventWaitNode(&wait, graph, &record_start, 1, other), CUDA_SUCCESS);
  work = kernel(&wait, 1);
  CUgraphNodeParams p{};
  p.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
  p.eventRecord.event = other;
  ASSERT_EQ(cuGraphAddNode(&record_end, graph, &work, nullptr, 1, &p), CUDA_SUCCESS);
  CUgraphNodeType type;
  ASSERT_EQ(cuGraphNodeGetType(wait, &type), CUDA_SUCCESS);
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
  ASSERT_EQ(cuGraphNodeGetType(record_end, &type), CUDA_SUCCESS);
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
  CUevent got = nullptr;
  ASSERT_EQ(cuGraphEventRecordNodeGetEvent(record_end, &got), CUDA_SUCCESS);
  EXPECT_EQ(got, other);
  EXPECT_EQ(cuGraphEventWaitNodeGetEvent(record_end, &got), CUDA_ERROR_INVALID_VALUE);  // a record node
  ASSERT_EQ(cuGraphEventRecordNodeSetEvent(record_end, end), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphEventRecordNodeGetEvent(record_end, &got), CUDA_SUCCESS);
  EXPECT_EQ(got, end);
  ASSERT_EQ(cuGraphEventWaitNodeGetEvent(wait, &got), CUDA_SUCCESS);
  EXPECT_EQ(got, other);
  ASSERT_EQ(cuGraphEventWaitNodeSetEvent(wait, start), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphEventWaitNodeGetEvent(wait, &got), CUDA_SUCCESS);
  EXPECT_EQ(got, start);

  CUgraphExec exec;
  ASSERT_EQ(cuGraphInstantiate(&exec, graph, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphLaunch(exec, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuEventSynchronize(end), CUDA_SUCCESS);
  float ms = -1;
  ASSERT_EQ(cuEventElapsedTime(&ms, start, end), CUDA_SUCCESS);  // both recorded by the launch
  EXPECT_GE(ms, 0.0f);
  // The executable graph's record node takes another event; the graph's keeps its own.
  CUevent later;
  ASSERT_EQ(cuEventCreate(&later, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphExecEventRecordNodeSetEvent(exec, record_end, later), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphExecEventWaitNodeSetEvent(exec, record_end, later), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuGraphExecEventWaitNodeSetEvent(exec, wait, other), CUDA_SUCCESS);
  EXPECT_EQ(cuEventElapsedTime(&ms, start, later), CUDA_ERROR_INVALID_HANDLE);  // not recorded yet
  ASSERT_EQ(cuGraphLaunch(exec, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuEventElapsedTime(&ms, start, later), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphEventRecordNodeGetEvent(record_end, &got), CUDA_SUCCESS);
  EXPECT_EQ(got, end);
  unsigned value = 0;
  ASSERT_EQ(cuMemcpyDtoH(&value, counter, 4), CUDA_SUCCESS);
  EXPECT_EQ(value, 2u);
  ASSERT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  for (CUevent e : {start, end, other, later}) EXPECT_EQ(cuEventDestroy(e), CUDA_SUCCESS);
}

}  // namespace
