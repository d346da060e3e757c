// CUDA graphs (Driver API §6.24) and stream capture (§6.16). A stream that captures records the
// kernels, copies, memsets and host functions issued to it as nodes instead of running them; a
// graph, built so or node by node, is instantiated as a copy of its nodes and launched by running
// them in the order they were added, which respects every dependency (a node depends only on
// nodes added before it). ptxvm runs work when it is issued, so a graph launch runs at once.
#include <algorithm>

#include "driver.h"

namespace ptxvm::cuda {

// The NULL, legacy and per-thread default streams are handles 0, 1 and 2, never objects.
CUgraph_st* capturing(CUstream stream) {
  return reinterpret_cast<uintptr_t>(stream) > 2 ? stream->capture : nullptr;
}

void record(CUgraph_st* graph, CUgraphNode_st node) {
  if (graph->last) node.dependencies = {graph->last};
  graph->nodes.push_back(std::make_unique<CUgraphNode_st>(std::move(node)));
  graph->last = graph->nodes.back().get();
}

namespace {

CUresult run_node(const CUgraphNode_st& n) {
  switch (n.type) {
  case CU_GRAPH_NODE_TYPE_KERNEL: return run(n.function, n.config, n.args);
  case CU_GRAPH_NODE_TYPE_MEMCPY: return cuMemcpy3D_v2(&n.copy);
  case CU_GRAPH_NODE_TYPE_MEMSET:
    for (size_t row = 0; row < std::max<size_t>(n.set.height, 1); ++row) {
      const CUdeviceptr at = n.set.dst + row * n.set.pitch;
      const CUresult r = n.set.elementSize == 1   ? cuMemsetD8_v2(at, static_cast<unsigned char>(n.set.value), n.set.width)
                         : n.set.elementSize == 2 ? cuMemsetD16_v2(at, static_cast<unsigned short>(n.set.value), n.set.width)
                                                  : cuMemsetD32_v2(at, n.set.value, n.set.width);
      if (r != CUDA_SUCCESS) return r;
    }
    return CUDA_SUCCESS;
  case CU_GRAPH_NODE_TYPE_HOST: n.host.fn(n.host.userData); return CUDA_SUCCESS;
  case CU_GRAPH_NODE_TYPE_GRAPH:
    for (const CUgraphNode_st& c : n.child)
      if (CUresult r = run_node(c)) return r;
    return CUDA_SUCCESS;
  default: return CUDA_SUCCESS;
  }
}

// The executable graph's nodes become copies of the graph's.
void copy_nodes(const CUgraph_st& graph, CUgraphExec_st& exec) {
  exec.nodes.clear(), exec.from.clear();
  for (const auto& n : graph.nodes) exec.nodes.push_back(*n), exec.from.push_back(n.get());
}

// A kernel node's launch and arguments from the driver's description.
CUresult kernel_node(const CUDA_KERNEL_NODE_PARAMS* p, CUgraphNode_st& node) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  node.type = CU_GRAPH_NODE_TYPE_KERNEL;
  node.function = p->func ? p->func : reinterpret_cast<CUfunction>(p->kern);  // a CUkernel is its CUfunction
  if (!node.function) return CUDA_ERROR_INVALID_VALUE;
  node.config = config_of(node.function, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
                          p->blockDimZ, p->sharedMemBytes);
  return arguments(node.function, p->kernelParams, p->extra, node.args);
}

// Adds `node` to `graph` after `count` nodes of it.
CUresult add(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count, CUgraphNode_st node) {
  if (!out || !graph || (count && !dependencies)) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) {
    bool known = false;
    for (const auto& n : graph->nodes) known |= n.get() == dependencies[i];
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    node.dependencies.push_back(dependencies[i]);
  }
  graph->nodes.push_back(std::make_unique<CUgraphNode_st>(std::move(node)));
  *out = graph->last = graph->nodes.back().get();
  return CUDA_SUCCESS;
}

}  // namespace
}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;

extern "C" {

CUresult CUDAAPI cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode) {
  if (CUresult r = ready()) return r;
  if (reinterpret_cast<uintptr_t>(s) <= 2) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  if (s->capture) return CUDA_ERROR_ILLEGAL_STATE;
  s->capture = new CUgraph_st;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamEndCapture(CUstream s, CUgraph* graph) {
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  if (!capturing(s)) return CUDA_ERROR_ILLEGAL_STATE;
  *graph = s->capture;
  s->capture = nullptr;
  if (!(*graph)->invalidated) return CUDA_SUCCESS;
  delete *graph;
  *graph = nullptr;
  return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
}

CUresult CUDAAPI cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus* status) {
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  *status = capturing(s) ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
  return ready();
}

CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                                           const CUgraphNode** dependencies, size_t* count) {
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  CUgraph_st* g = capturing(s);
  *status = g ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
  if (id) *id = reinterpret_cast<uintptr_t>(g);
  if (graph) *graph = g;
  const bool last = g && g->last;
  if (dependencies) *dependencies = last ? &g->last : nullptr;
  if (count) *count = last ? 1 : 0;
  return ready();
}

CUresult CUDAAPI cuStreamGetCaptureInfo_v3(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                                           const CUgraphNode** dependencies, const CUgraphEdgeData** edges,
                                           size_t* count) {
  if (edges) *edges = nullptr;
  return cuStreamGetCaptureInfo_v2(s, status, id, graph, dependencies, count);
}

CUresult CUDAAPI cuGraphCreate(CUgraph* graph, unsigned flags) {
  if (!graph || flags) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *graph = new CUgraph_st;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphDestroy(CUgraph graph) {
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  delete graph;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphAddKernelNode_v2(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                         const CUDA_KERNEL_NODE_PARAMS* p) {
  if (CUresult r = ready()) return r;
  CUgraphNode_st node;
  if (CUresult r = kernel_node(p, node)) return r;
  return add(out, graph, dependencies, count, std::move(node));
}

CUresult CUDAAPI cuGraphKernelNodeGetParams_v2(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS* p) {
  if (!node || !p || node->type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
  *p = {};
  p->func = node->function;
  p->gridDimX = node->config.grid.x, p->gridDimY = node->config.grid.y, p->gridDimZ = node->config.grid.z;
  p->blockDimX = node->config.block.x, p->blockDimY = node->config.block.y, p->blockDimZ = node->config.block.z;
  p->sharedMemBytes = static_cast<unsigned>(node->config.shared_bytes);
  node->arg_pointers.clear();
  for (ptxvm::KernelArg& a : node->args) node->arg_pointers.push_back(a.bytes.data());
  p->kernelParams = node->arg_pointers.data();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphKernelNodeSetParams_v2(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* p) {
  if (!node || node->type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
  CUgraphNode_st changed = *node;
  if (CUresult r = kernel_node(p, changed)) return r;
  *node = std::move(changed);
  return CUDA_SUCCESS;
}

// The executable graph's copy of `node` takes new parameters (the same kernel's, or another of
// the same module, as CUDA allows).
CUresult CUDAAPI cuGraphExecKernelNodeSetParams_v2(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* p) {
  if (!exec || !node) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < exec->from.size(); ++i)
    if (exec->from[i] == node) {
      if (exec->nodes[i].type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
      CUgraphNode_st changed = exec->nodes[i];
      if (CUresult r = kernel_node(p, changed)) return r;
      if (changed.function->module != exec->nodes[i].function->module) return CUDA_ERROR_INVALID_VALUE;
      exec->nodes[i] = std::move(changed);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies,
                                          size_t count, CUgraph child) {
  if (!child) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  CUgraphNode_st node;
  node.type = CU_GRAPH_NODE_TYPE_GRAPH;
  for (const auto& n : child->nodes) node.child.push_back(*n);
  return add(out, graph, dependencies, count, std::move(node));
}

CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                      const CUDA_MEMCPY3D* copy, CUcontext) {
  if (!copy) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  CUgraphNode_st node;
  node.type = CU_GRAPH_NODE_TYPE_MEMCPY;
  node.copy = *copy;
  return add(out, graph, dependencies, count, std::move(node));
}

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                      const CUDA_MEMSET_NODE_PARAMS* set, CUcontext) {
  if (!set || (set->elementSize != 1 && set->elementSize != 2 && set->elementSize != 4)) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  CUgraphNode_st node;
  node.type = CU_GRAPH_NODE_TYPE_MEMSET;
  node.set = *set;
  return add(out, graph, dependencies, count, std::move(node));
}

CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                    const CUDA_HOST_NODE_PARAMS* host) {
  if (!host || !host->fn) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  CUgraphNode_st node;
  node.type = CU_GRAPH_NODE_TYPE_HOST;
  node.host = *host;
  return add(out, graph, dependencies, count, std::move(node));
}

CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count) {
  if (CUresult r = ready()) return r;
  return add(out, graph, dependencies, count, CUgraphNode_st{});
}

CUresult CUDAAPI cuGraphGetNodes(CUgraph graph, CUgraphNode* nodes, size_t* count) {
  if (!graph || !count) return CUDA_ERROR_INVALID_VALUE;
  if (nodes)
    for (size_t i = 0; i < *count && i < graph->nodes.size(); ++i) nodes[i] = graph->nodes[i].get();
  *count = nodes ? std::min(*count, graph->nodes.size()) : graph->nodes.size();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType* type) {
  if (!node || !type) return CUDA_ERROR_INVALID_VALUE;
  *type = node->type;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long) {
  if (!exec || !graph) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *exec = new CUgraphExec_st;
  copy_nodes(*graph, **exec);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphInstantiateWithParams(CUgraphExec* exec, CUgraph graph, CUDA_GRAPH_INSTANTIATE_PARAMS* p) {
  const CUresult r = cuGraphInstantiateWithFlags(exec, graph, p ? p->flags : 0);
  if (p) p->result_out = r == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS : CUDA_GRAPH_INSTANTIATE_ERROR;
  return r;
}

CUresult CUDAAPI cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  if (!exec) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (CUgraph_st* g = capturing(stream)) {  // not capturable, as an H100 answers (tests/hw/driver/capture)
    g->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  for (const CUgraphNode_st& n : exec->nodes)
    if (CUresult r = run_node(n)) return r;
  return CUDA_SUCCESS;
}

// The executable graph takes the parameters of `graph`, whose nodes must be the ones it was made
// from in number, kind and dependencies (a kernel node's kernel may change within its module).
CUresult CUDAAPI cuGraphExecUpdate_v2(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* info) {
  if (!exec || !graph) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  auto refuse = [&](CUgraphExecUpdateResult why, CUgraphNode node) {
    if (info) *info = {why, node, nullptr};
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  };
  if (graph->nodes.size() != exec->nodes.size()) return refuse(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, nullptr);
  auto index_of = [](const CUgraph_st& g, const CUgraphNode_st* n) {
    for (size_t i = 0; i < g.nodes.size(); ++i)
      if (g.nodes[i].get() == n) return i;
    return g.nodes.size();
  };
  for (size_t i = 0; i < graph->nodes.size(); ++i) {
    const CUgraphNode_st& now = *graph->nodes[i];
    const CUgraphNode_st& was = exec->nodes[i];
    if (now.type != was.type) return refuse(CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, graph->nodes[i].get());
    if (now.dependencies.size() != was.dependencies.size())
      return refuse(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, graph->nodes[i].get());
    for (size_t d = 0; d < now.dependencies.size(); ++d)  // the same nodes, by position
      if (index_of(*graph, now.dependencies[d]) !=
          size_t(std::find(exec->from.begin(), exec->from.end(), was.dependencies[d]) - exec->from.begin()))
        return refuse(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, graph->nodes[i].get());
    if (now.type == CU_GRAPH_NODE_TYPE_KERNEL && now.function->module != was.function->module)
      return refuse(CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED, graph->nodes[i].get());
  }
  copy_nodes(*graph, *exec);
  if (info) *info = {CU_GRAPH_EXEC_UPDATE_SUCCESS, nullptr, nullptr};
  return CUDA_SUCCESS;
}

// Uploading prepares nothing: the graph's nodes run on the host at each launch (cuGraphUpload).
CUresult CUDAAPI cuGraphUpload(CUgraphExec exec, CUstream) { return exec ? ready() : CUDA_ERROR_INVALID_VALUE; }

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec exec) {
  if (!exec) return CUDA_ERROR_INVALID_VALUE;
  delete exec;
  return CUDA_SUCCESS;
}

}  // extern "C"
