// CUDA graphs (Driver API §6.24) and stream capture (§6.16). A stream that captures records the
// kernels, copies, memsets and host functions issued to it as nodes instead of running them; a
// graph, built so or node by node, is instantiated as a copy of its nodes and launched by running
// them in the order they were added, which respects every dependency (a node depends only on
// nodes added before it). ptxvm runs work when it is issued, so a graph launch runs at once.
// Conditional nodes' handles and bodies are conditional.cpp's.
#include <algorithm>
#include <cstdlib>

#include "conditional.h"
#include "driver.h"

namespace ptxvm::cuda {

// The NULL, legacy and per-thread default streams are handles 0, 1 and 2, never objects.
CUgraph_st* capturing(CUstream stream) {
  return reinterpret_cast<uintptr_t>(stream) > 2 ? stream->capture : nullptr;
}

CUgraphNode record(CUstream stream, CUgraphNode_st node) {
  CUgraph_st* graph = stream->capture;
  node.dependencies = stream->tail;
  node.graph = graph;
  graph->nodes.push_back(std::make_unique<CUgraphNode_st>(std::move(node)));
  stream->tail = {graph->nodes.back().get()};
  return graph->nodes.back().get();
}

void join_capture(CUstream stream, CUevent event) {
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  CUgraph_st* g = event->graph;
  if (reinterpret_cast<uintptr_t>(stream) <= 2 || std::find(d.captures.begin(), d.captures.end(), g) == d.captures.end())
    return;  // the capture has ended
  if (stream->capture && stream->capture != g) return;
  if (!stream->capture) stream->capture = g, stream->tail.clear(), g->streams.push_back(stream);
  for (CUgraphNode n : event->nodes)
    if (std::find(stream->tail.begin(), stream->tail.end(), n) == stream->tail.end()) stream->tail.push_back(n);
}

void leave_capture(CUstream stream) {
  CUgraph_st* g = stream->capture;
  g->streams.erase(std::remove(g->streams.begin(), g->streams.end(), stream), g->streams.end());
  stream->capture = nullptr, stream->tail.clear();
}

CUgraphNode_st alloc_node(size_t bytes, const CUmemPoolProps& props) {
  CUgraphNode_st node;
  node.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
  node.memory = std::make_shared<GraphMemory>(bytes);
  node.alloc.poolProps = props;
  node.alloc.bytesize = bytes;
  node.alloc.dptr = node.memory->address();
  return node;
}

// cuGraphAddMemFreeNode: "CUDA_ERROR_INVALID_VALUE if the user attempts to free an allocation
// twice in the same graph, an address that was not returned by an allocation node, an invalid
// address".
CUresult free_node(CUgraph_st* graph, CUdeviceptr address, CUgraphNode_st& node) {
  {
    Driver& d = driver();
    std::lock_guard lock(d.mutex);
    if (!d.graph_memory.count(address)) return CUDA_ERROR_INVALID_VALUE;
  }
  for (const auto& n : graph->nodes)
    if (n->type == CU_GRAPH_NODE_TYPE_MEM_FREE && n->freed == address) return CUDA_ERROR_INVALID_VALUE;
  node.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
  node.freed = address;
  return CUDA_SUCCESS;
}

namespace {

// An allocation node's run: its memory becomes device memory, at its reserved address. It is
// live until a free node, cuMemFree or cuMemFreeAsync releases it (release(), memory.cpp).
CUresult make_live(const std::shared_ptr<GraphMemory>& m) {
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  if (m->live) return CUDA_ERROR_INVALID_VALUE;
  const uint64_t at = d.device.adopt(m->host, m->bytes);
  if (at != m->address()) {
    d.device.free(at);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  m->live = true;
  d.allocations[at] = {m->host, m->bytes, CU_MEMORYTYPE_DEVICE, false, nullptr, m};
  d.graph_used += m->bytes;
  d.graph_used_high = std::max(d.graph_used_high, d.graph_used);
  return CUDA_SUCCESS;
}

// The allocations of `nodes` (and their child graphs') a launch would make, still live from a
// previous launch: freed first with CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH, else the
// launch "will fail with CUDA_ERROR_INVALID_VALUE" (cuGraphLaunch).
CUresult free_unfreed(const std::vector<CUgraphNode_st>& nodes, bool auto_free) {
  for (const CUgraphNode_st& n : nodes) {
    if (n.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && n.memory->live) {
      if (!auto_free) return CUDA_ERROR_INVALID_VALUE;
      release(n.memory->address());
    }
    if (CUresult r = free_unfreed(n.child, auto_free)) return r;
    for (const auto& body : n.branches)
      if (CUresult r = free_unfreed(body, auto_free)) return r;
  }
  return CUDA_SUCCESS;
}

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
  // "Each launch of the graph will record event" (cuGraphAddEventRecordNode); the work it waits
  // for has run by then, so a wait node waits for nothing (cuGraphAddEventWaitNode).
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return cuEventRecord(n.event, nullptr);
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return CUDA_SUCCESS;
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return make_live(n.memory);
  case CU_GRAPH_NODE_TYPE_MEM_FREE: return release(n.freed);
  case CU_GRAPH_NODE_TYPE_GRAPH:
    for (const CUgraphNode_st& c : n.child)
      if (CUresult r = run_node(c)) return r;
    return CUDA_SUCCESS;
  case CU_GRAPH_NODE_TYPE_CONDITIONAL:  // a WHILE node evaluates its handle again after each run
    for (int b; (b = conditional_branch(n)) >= 0;) {
      for (const CUgraphNode_st& c : n.branches[b])
        if (CUresult r = run_node(c)) return r;
      if (n.conditional.type != CU_GRAPH_COND_TYPE_WHILE) break;
    }
    return CUDA_SUCCESS;
  default: return CUDA_SUCCESS;
  }
}

// An executable graph's child graph nodes (in its nodes and, recursively, in child graphs' and
// conditional bodies' copies) take copies of their graphs' nodes, in an order that follows their
// dependencies; CUDA_ERROR_INVALID_VALUE when a child graph's dependencies make a cycle.
CUresult expand_children(std::vector<CUgraphNode_st>& nodes) {
  for (CUgraphNode_st& n : nodes) {
    if (n.type == CU_GRAPH_NODE_TYPE_GRAPH && n.embedded) {
      std::vector<size_t> order;
      if (!run_order(*n.embedded, order)) return CUDA_ERROR_INVALID_VALUE;
      n.child.clear();
      for (size_t i : order) n.child.push_back(*n.embedded->nodes[i]);
      n.embedded.reset();  // the graph's, which may change or go after instantiation
    }
    if (CUresult r = expand_children(n.child)) return r;
    for (auto& body : n.branches)
      if (CUresult r = expand_children(body)) return r;
  }
  return CUDA_SUCCESS;
}

// The executable graph's nodes become copies of the graph's (conditional nodes' bodies and child
// graphs too), with the order they run in.
CUresult copy_nodes(const CUgraph_st& graph, CUgraphExec_st& exec) {
  exec.nodes.clear(), exec.from.clear(), exec.order.clear();
  if (!run_order(graph, exec.order)) return CUDA_ERROR_INVALID_VALUE;
  for (const auto& n : graph.nodes) exec.nodes.push_back(*n), exec.from.push_back(n.get());
  if (CUresult r = instantiate_conditionals(graph, exec)) return r;
  return expand_children(exec.nodes);
}

// A deep copy of `graph`'s nodes and edges into `into` (cuGraphClone; the clone
// cuGraphAddChildGraphNode embeds): child graph nodes get copies of their graphs likewise.
void clone_graph(const CUgraph_st& graph, CUgraph_st& into) {
  for (const auto& n : graph.nodes) {
    into.nodes.push_back(std::make_unique<CUgraphNode_st>(*n));
    into.clones[n.get()] = into.nodes.back().get();
  }
  for (auto& n : into.nodes) {
    n->arg_pointers.clear();
    n->graph = &into;
    for (CUgraphNode& dep : n->dependencies) dep = into.clones[dep];
    if (n->type == CU_GRAPH_NODE_TYPE_GRAPH && n->embedded) {
      auto copy = std::make_shared<CUgraph_st>();
      clone_graph(*n->embedded, *copy);
      copy->embedder = n.get();
      n->embedded = std::move(copy);
    }
  }
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

// Adds `node` to `graph` after `count` nodes of it. A child graph node's graph takes no
// "allocation and free nodes" (cuGraphChildGraphNodeGetGraph) and, as a graph with them cannot
// be a child graph (cuGraphAddChildGraphNode), no conditional nodes.
CUresult add(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count, CUgraphNode_st node) {
  if (!out || !graph || (count && !dependencies)) return CUDA_ERROR_INVALID_VALUE;
  if (graph->embedder && (node.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || node.type == CU_GRAPH_NODE_TYPE_MEM_FREE))
    return CUDA_ERROR_INVALID_VALUE;
  if (graph->embedder && node.type == CU_GRAPH_NODE_TYPE_CONDITIONAL) return CUDA_ERROR_NOT_SUPPORTED;
  node.graph = graph;
  for (size_t i = 0; i < count; ++i) {
    bool known = false;
    for (const auto& n : graph->nodes) known |= n.get() == dependencies[i];
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    node.dependencies.push_back(dependencies[i]);
  }
  graph->nodes.push_back(std::make_unique<CUgraphNode_st>(std::move(node)));
  *out = graph->nodes.back().get();
  return CUDA_SUCCESS;
}

}  // namespace
}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;

// Graph memory: host memory the device adopts at its own address while the allocation is live.
GraphMemory::GraphMemory(size_t n) : bytes(std::max<size_t>(n, 1)) {
  host = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  d.graph_memory[address()] = this;
  d.graph_reserved += bytes;
  d.graph_reserved_high = std::max(d.graph_reserved_high, d.graph_reserved);
}

GraphMemory::~GraphMemory() {
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  d.graph_memory.erase(address());
  d.graph_reserved -= bytes;
  std::free(host);
}


extern "C" {

CUresult CUDAAPI cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode) {
  if (CUresult r = ready()) return r;
  if (reinterpret_cast<uintptr_t>(s) <= 2) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  if (s->capture) return CUDA_ERROR_ILLEGAL_STATE;
  s->capture = new CUgraph_st;
  s->capture->origin = s;
  s->capture->streams = {s};
  s->tail.clear();
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  d.captures.push_back(s->capture);
  return CUDA_SUCCESS;
}

// The capture ends on the stream that began it, for every stream that joined it. A capture into
// the program's graph (cuStreamBeginCaptureToGraph) may pass no `graph`; when invalidated, the
// nodes it added go.
CUresult CUDAAPI cuStreamEndCapture(CUstream s, CUgraph* graph) {
  CUgraph_st* g = capturing(s);
  if (!graph && !(g && g->borrowed >= 0)) return CUDA_ERROR_INVALID_VALUE;
  if (!g) return CUDA_ERROR_ILLEGAL_STATE;
  if (g->origin != s) return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
  while (!g->streams.empty()) leave_capture(g->streams.back());
  g->origin = nullptr;
  {
    Driver& d = driver();
    std::lock_guard lock(d.mutex);
    d.captures.erase(std::remove(d.captures.begin(), d.captures.end(), g), d.captures.end());
  }
  if (g->borrowed >= 0) {
    const bool invalidated = g->invalidated;
    if (invalidated) g->nodes.resize(static_cast<size_t>(g->borrowed));
    g->borrowed = -1, g->invalidated = false;
    if (graph) *graph = invalidated ? nullptr : g;
    return invalidated ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_SUCCESS;
  }
  *graph = g;
  if (!g->invalidated) return CUDA_SUCCESS;
  delete g;
  *graph = nullptr;
  return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
}

// Capture into an existing graph, after `count` of its nodes (cuStreamBeginCaptureToGraph); the
// edge data is accepted and followed as full dependencies, which every edge kind allows here
// (work runs in order).
CUresult CUDAAPI cuStreamBeginCaptureToGraph(CUstream s, CUgraph graph, const CUgraphNode* dependencies,
                                             const CUgraphEdgeData*, size_t count, CUstreamCaptureMode) {
  if (CUresult r = ready()) return r;
  if (reinterpret_cast<uintptr_t>(s) <= 2) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  if (!graph || (count && !dependencies)) return CUDA_ERROR_INVALID_VALUE;
  if (s->capture) return CUDA_ERROR_ILLEGAL_STATE;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  if (std::find(d.captures.begin(), d.captures.end(), graph) != d.captures.end())
    return CUDA_ERROR_ILLEGAL_STATE;  // another capture records into it
  std::vector<CUgraphNode_st*> tail;
  for (size_t i = 0; i < count; ++i) {
    if (std::none_of(graph->nodes.begin(), graph->nodes.end(), [&](const auto& n) { return n.get() == dependencies[i]; }))
      return CUDA_ERROR_INVALID_VALUE;
    tail.push_back(dependencies[i]);
  }
  s->capture = graph;
  s->tail = std::move(tail);
  graph->origin = s;
  graph->streams = {s};
  graph->borrowed = static_cast<long>(graph->nodes.size());
  graph->invalidated = false;
  d.captures.push_back(graph);
  return CUDA_SUCCESS;
}

// The nodes the stream's next captured node depends on: set to, or joined by, `count` nodes of
// the capture's graph (CU_STREAM_SET_CAPTURE_DEPENDENCIES, CU_STREAM_ADD_CAPTURE_DEPENDENCIES).
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_v2(CUstream s, CUgraphNode* dependencies, const CUgraphEdgeData*,
                                                      size_t count, unsigned flags) {
  if (CUresult r = ready()) return r;
  CUgraph_st* g = capturing(s);
  if (!g) return CUDA_ERROR_ILLEGAL_STATE;
  if ((count && !dependencies) ||
      (flags != CU_STREAM_ADD_CAPTURE_DEPENDENCIES && flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES))
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i)
    if (std::none_of(g->nodes.begin(), g->nodes.end(), [&](const auto& n) { return n.get() == dependencies[i]; }))
      return CUDA_ERROR_INVALID_VALUE;
  if (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES) s->tail.clear();
  for (size_t i = 0; i < count; ++i)
    if (std::find(s->tail.begin(), s->tail.end(), dependencies[i]) == s->tail.end()) s->tail.push_back(dependencies[i]);
  return CUDA_SUCCESS;
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
  const bool any = g && !s->tail.empty();
  if (dependencies) *dependencies = any ? s->tail.data() : nullptr;
  if (count) *count = any ? s->tail.size() : 0;
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

// A conditional node's body belongs to the node ("CUDA-owned", CUDA_CONDITIONAL_NODE_PARAMS).
// So does a child graph node's ("the node retains ownership of the graph",
// cuGraphChildGraphNodeGetGraph).
CUresult CUDAAPI cuGraphDestroy(CUgraph graph) {
  if (!graph || graph->owner || graph->embedder) return CUDA_ERROR_INVALID_VALUE;
  if (graph->instance) graph->instance->graph = nullptr;
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
  if (has_conditionals(*child)) return CUDA_ERROR_NOT_SUPPORTED;  // "cannot be used in a child node"
  CUgraphNode_st node;
  node.type = CU_GRAPH_NODE_TYPE_GRAPH;
  node.embedded = std::make_shared<CUgraph_st>();  // "The child graph is cloned in this call."
  clone_graph(*child, *node.embedded);
  node.embedded->clones.clear();
  if (CUresult r = add(out, graph, dependencies, count, std::move(node))) return r;
  (*out)->embedded->embedder = *out;
  return CUDA_SUCCESS;
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

// Event record and wait nodes (cuGraphAddEventRecordNode, cuGraphAddEventWaitNode): the event
// is kept, recorded at each run of a record node; their events read and changed, in the graph or
// in an executable graph's copy of the node.
namespace {
CUresult add_event_node(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count, CUevent event,
                        CUgraphNodeType type) {
  if (!event) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  CUgraphNode_st node;
  node.type = type;
  node.event = event;
  return add(out, graph, dependencies, count, std::move(node));
}

CUresult get_event(CUgraphNode node, CUevent* event, CUgraphNodeType type) {
  if (!node || !event || node->type != type) return CUDA_ERROR_INVALID_VALUE;
  *event = node->event;
  return CUDA_SUCCESS;
}

CUresult set_event(CUgraphNode node, CUevent event, CUgraphNodeType type) {
  if (!node || node->type != type) return CUDA_ERROR_INVALID_VALUE;
  if (!event) return CUDA_ERROR_INVALID_HANDLE;
  node->event = event;
  return CUDA_SUCCESS;
}

CUresult exec_set_event(CUgraphExec exec, CUgraphNode node, CUevent event, CUgraphNodeType type) {
  if (!exec || !node) return CUDA_ERROR_INVALID_VALUE;
  if (!event) return CUDA_ERROR_INVALID_HANDLE;
  for (size_t i = 0; i < exec->from.size(); ++i)
    if (exec->from[i] == node && exec->nodes[i].type == type) {
      exec->nodes[i].event = event;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}
}  // namespace

CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies,
                                           size_t count, CUevent event) {
  return add_event_node(out, graph, dependencies, count, event, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies,
                                         size_t count, CUevent event) {
  return add_event_node(out, graph, dependencies, count, event, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}

CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode node, CUevent* event) {
  return get_event(node, event, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode node, CUevent* event) {
  return get_event(node, event, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}

CUresult CUDAAPI cuGraphEventRecordNodeSetEvent(CUgraphNode node, CUevent event) {
  return set_event(node, event, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUresult CUDAAPI cuGraphEventWaitNodeSetEvent(CUgraphNode node, CUevent event) {
  return set_event(node, event, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}

CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return exec_set_event(exec, node, event, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return exec_set_event(exec, node, event, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
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

namespace {
// A graph with conditional nodes has "only one instantiation ... at any point in time" (a second is
// NOT_SUPPORTED, as on an H200), its bodies hold only the node kinds CUDA_CONDITIONAL_NODE_PARAMS
// allows, and every handle it made must serve a conditional node (CUgraphNodeType,
// CUgraphInstantiateResult).
CUresult instantiate(CUgraphExec* exec, CUgraph graph, unsigned long long flags, CUgraphInstantiateResult* result) {
  *result = CUDA_GRAPH_INSTANTIATE_ERROR;
  if (!exec || !graph || graph->owner) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  const bool conditional = has_conditionals(*graph) || !graph->handles.empty();
  if (conditional && graph->instance) return CUDA_ERROR_NOT_SUPPORTED;
  if (!bodies_allowed(*graph)) {
    *result = CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED;
    return CUDA_ERROR_INVALID_VALUE;
  }
  auto made = std::make_unique<CUgraphExec_st>();
  std::vector<size_t> order;
  if (!run_order(*graph, order)) {  // "invalid structure, such as cycles" (CUgraphInstantiateResult)
    *result = CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE;
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (CUresult r = copy_nodes(*graph, *made)) {
    *result = CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED;
    return r;
  }
  made->auto_free = flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH;
  if (conditional) made->graph = graph, graph->instance = made.get();
  *exec = made.release();
  *result = CUDA_GRAPH_INSTANTIATE_SUCCESS;
  return CUDA_SUCCESS;
}
}  // namespace

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long flags) {
  CUgraphInstantiateResult result;
  return instantiate(exec, graph, flags, &result);
}

CUresult CUDAAPI cuGraphInstantiateWithParams(CUgraphExec* exec, CUgraph graph, CUDA_GRAPH_INSTANTIATE_PARAMS* p) {
  CUgraphInstantiateResult result;
  const CUresult r = instantiate(exec, graph, p ? p->flags : 0, &result);
  if (p) p->result_out = result, p->hErrNode_out = nullptr;
  return r;
}

CUresult CUDAAPI cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  if (!exec) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (CUgraph_st* g = capturing(stream)) {  // not capturable, as an H100 answers (tests/hw/driver/capture)
    g->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  if (CUresult r = free_unfreed(exec->nodes, exec->auto_free)) return r;
  assign_defaults(*exec);
  // A graph launch is asynchronous, as cuLaunchKernel is: cuGraphLaunch "may also return error
  // codes from previous, asynchronous launches" (cuda.h), not the graph's own. A kernel node's fault
  // (run() made it the context's sticky error) stops the graph, and the calls after the launch
  // (cuStreamSynchronize, cuCtxSynchronize, ...) return it; the launch itself succeeds.
  for (size_t i : exec->order)
    if (CUresult r = run_node(exec->nodes[i])) return r == driver().sticky ? CUDA_SUCCESS : r;
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
    if (now.type == CU_GRAPH_NODE_TYPE_CONDITIONAL && !same_conditional(now, was))
      return refuse(CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, graph->nodes[i].get());
  }
  CUgraphExec_st updated;
  updated.auto_free = exec->auto_free, updated.graph = exec->graph;
  if (copy_nodes(*graph, updated)) return refuse(CU_GRAPH_EXEC_UPDATE_ERROR, nullptr);
  *exec = std::move(updated);
  if (info) *info = {CU_GRAPH_EXEC_UPDATE_SUCCESS, nullptr, nullptr};
  return CUDA_SUCCESS;
}

// Uploading prepares nothing: the graph's nodes run on the host at each launch (cuGraphUpload).
CUresult CUDAAPI cuGraphUpload(CUgraphExec exec, CUstream) { return exec ? ready() : CUDA_ERROR_INVALID_VALUE; }

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec exec) {
  if (!exec) return CUDA_ERROR_INVALID_VALUE;
  if (exec->graph) exec->graph->instance = nullptr;
  delete exec;
  return CUDA_SUCCESS;
}

// Graph memory nodes (cuGraphAddMemAllocNode): the allocation is reserved now and its address
// returned in nodeParams->dptr; it is valid from the node's run in each launch.
CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                        CUDA_MEM_ALLOC_NODE_PARAMS* p) {
  if (CUresult r = ready()) return r;
  if (!p || !p->bytesize || p->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
      p->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE || p->poolProps.location.id < 0 ||
      size_t(p->poolProps.location.id) >= driver().default_pools.size() ||
      p->poolProps.handleTypes != CU_MEM_HANDLE_TYPE_NONE || (p->accessDescCount && !p->accessDescs))
    return CUDA_ERROR_INVALID_VALUE;
  CUgraphNode_st node = alloc_node(p->bytesize, p->poolProps);
  node.access.assign(p->accessDescs, p->accessDescs + p->accessDescCount);
  node.alloc.accessDescCount = p->accessDescCount;
  const CUdeviceptr address = node.alloc.dptr;
  if (CUresult r = add(out, graph, dependencies, count, std::move(node))) return r;
  p->dptr = address;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                       CUdeviceptr address) {
  if (CUresult r = ready()) return r;
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  CUgraphNode_st node;
  if (CUresult r = free_node(graph, address, node)) return r;
  return add(out, graph, dependencies, count, std::move(node));
}

CUresult CUDAAPI cuGraphMemAllocNodeGetParams(CUgraphNode node, CUDA_MEM_ALLOC_NODE_PARAMS* p) {
  if (!node || !p || node->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC) return CUDA_ERROR_INVALID_VALUE;
  *p = node->alloc;
  p->accessDescs = node->access.empty() ? nullptr : node->access.data();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphMemFreeNodeGetParams(CUgraphNode node, CUdeviceptr* address) {
  if (!node || !address || node->type != CU_GRAPH_NODE_TYPE_MEM_FREE) return CUDA_ERROR_INVALID_VALUE;
  *address = node->freed;
  return CUDA_SUCCESS;
}

// Nothing is cached for graphs beyond their reservations, which last as long as their graphs
// (cuDeviceGraphMemTrim frees only memory no graph holds).
CUresult CUDAAPI cuDeviceGraphMemTrim(CUdevice dev) {
  if (CUresult r = ready()) return r;
  return dev >= 0 && size_t(dev) < driver().default_pools.size() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

// Used memory: the bytes of graph allocations now live; reserved: those of every allocation node
// (and live allocation) that exists. The highs may only be reset, with 0 (cuDeviceSetGraphMemAttribute).
CUresult CUDAAPI cuDeviceGetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void* value) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (dev < 0 || size_t(dev) >= d.default_pools.size()) return CUDA_ERROR_INVALID_DEVICE;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(d.mutex);
  cuuint64_t& v = *static_cast<cuuint64_t*>(value);
  switch (attr) {
  case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT: v = d.graph_used; break;
  case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH: v = d.graph_used_high; break;
  case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT: v = d.graph_reserved; break;
  case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH: v = d.graph_reserved_high; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceSetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void* value) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (dev < 0 || size_t(dev) >= d.default_pools.size()) return CUDA_ERROR_INVALID_DEVICE;
  if (!value || *static_cast<cuuint64_t*>(value) != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(d.mutex);
  if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH) d.graph_used_high = d.graph_used;
  else if (attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) d.graph_reserved_high = d.graph_reserved;
  else return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

// A deep copy of the graph's nodes and edges (cuGraphClone); "Cloning is not supported for graphs
// which contain memory allocation nodes, memory free nodes, or conditional nodes".
CUresult CUDAAPI cuGraphClone(CUgraph* out, CUgraph original) {
  if (!out || !original) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (has_conditionals(*original)) return CUDA_ERROR_NOT_SUPPORTED;
  for (const auto& n : original->nodes)
    if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->type == CU_GRAPH_NODE_TYPE_MEM_FREE)
      return CUDA_ERROR_NOT_SUPPORTED;
  auto* g = new CUgraph_st;
  clone_graph(*original, *g);
  *out = g;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode* out, CUgraphNode original, CUgraph clone) {
  if (!out || !original || !clone) return CUDA_ERROR_INVALID_VALUE;
  auto it = clone->clones.find(original);
  if (it == clone->clones.end()) return CUDA_ERROR_INVALID_VALUE;
  *out = it->second;
  return CUDA_SUCCESS;
}

// Memcpy nodes' parameters, in the graph or in an executable graph's copy of the node.
CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode node, CUDA_MEMCPY3D* p) {
  if (!node || !p || node->type != CU_GRAPH_NODE_TYPE_MEMCPY) return CUDA_ERROR_INVALID_VALUE;
  *p = node->copy;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphMemcpyNodeSetParams(CUgraphNode node, const CUDA_MEMCPY3D* p) {
  if (!node || !p || node->type != CU_GRAPH_NODE_TYPE_MEMCPY) return CUDA_ERROR_INVALID_VALUE;
  node->copy = *p;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D* p, CUcontext) {
  if (!exec || !node || !p) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < exec->from.size(); ++i)
    if (exec->from[i] == node && exec->nodes[i].type == CU_GRAPH_NODE_TYPE_MEMCPY) {
      exec->nodes[i].copy = *p;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

// Kernel node attributes (cuGraphKernelNodeSetAttribute): kept and read back, as stream
// attributes are; work runs when issued, so they change nothing. Unset ones read as zero.
CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode node, CUkernelNodeAttrID id, CUkernelNodeAttrValue* value) {
  if (!node || !value || node->type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
  auto it = node->attributes.find(id);
  if (it != node->attributes.end()) *value = it->second;
  else *value = {};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode node, CUkernelNodeAttrID id, const CUkernelNodeAttrValue* value) {
  if (!node || !value || node->type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
  node->attributes[id] = *value;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src) {
  if (!dst || !src || dst->type != CU_GRAPH_NODE_TYPE_KERNEL || src->type != CU_GRAPH_NODE_TYPE_KERNEL)
    return CUDA_ERROR_INVALID_VALUE;
  dst->attributes = src->attributes;
  return CUDA_SUCCESS;
}

// A node of any kind the driver has (cuGraphAddNode): nodeParams is a tagged union, its reserved
// bytes zero; an edge's data may ask for no more than full completion's order, which every edge
// gets here (the data is kept for cuGraphGetEdges). A conditional node's bodies are returned in
// nodeParams->conditional.phGraph_out.
static CUresult add_node(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, const CUgraphEdgeData* edges,
                         size_t count, CUgraphNodeParams* p) {
  if (CUresult r = ready()) return r;
  if (!p || p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; edges && i < count; ++i)
    if (edges[i].to_port || edges[i].type > CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC) return CUDA_ERROR_INVALID_VALUE;
  switch (p->type) {
  case CU_GRAPH_NODE_TYPE_KERNEL:
    static_assert(sizeof(CUDA_KERNEL_NODE_PARAMS_v3) == sizeof(CUDA_KERNEL_NODE_PARAMS));
    return cuGraphAddKernelNode_v2(out, graph, dependencies, count, reinterpret_cast<CUDA_KERNEL_NODE_PARAMS*>(&p->kernel));
  case CU_GRAPH_NODE_TYPE_MEMCPY:
    if (p->memcpy.flags || p->memcpy.reserved) return CUDA_ERROR_INVALID_VALUE;
    return cuGraphAddMemcpyNode(out, graph, dependencies, count, &p->memcpy.copyParams, p->memcpy.copyCtx);
  case CU_GRAPH_NODE_TYPE_MEMSET: {
    const CUDA_MEMSET_NODE_PARAMS set{p->memset.dst,         p->memset.pitch, p->memset.value,
                                      p->memset.elementSize, p->memset.width, p->memset.height};
    return cuGraphAddMemsetNode(out, graph, dependencies, count, &set, p->memset.ctx);
  }
  case CU_GRAPH_NODE_TYPE_HOST: {
    const CUDA_HOST_NODE_PARAMS host{p->host.fn, p->host.userData};
    return cuGraphAddHostNode(out, graph, dependencies, count, &host);
  }
  case CU_GRAPH_NODE_TYPE_GRAPH: return cuGraphAddChildGraphNode(out, graph, dependencies, count, p->graph.graph);
  case CU_GRAPH_NODE_TYPE_EMPTY: return cuGraphAddEmptyNode(out, graph, dependencies, count);
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    static_assert(sizeof(CUDA_MEM_ALLOC_NODE_PARAMS_v2) == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS));
    return cuGraphAddMemAllocNode(out, graph, dependencies, count, reinterpret_cast<CUDA_MEM_ALLOC_NODE_PARAMS*>(&p->alloc));
  case CU_GRAPH_NODE_TYPE_MEM_FREE: return cuGraphAddMemFreeNode(out, graph, dependencies, count, p->free.dptr);
  case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
    CUgraphNode_st node;
    if (CUresult r = conditional_node(graph, p->conditional, node)) return r;
    if (CUresult r = add(out, graph, dependencies, count, std::move(node))) return r;
    own_bodies(*out, graph, p->conditional);
    return CUDA_SUCCESS;
  }
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    return cuGraphAddEventRecordNode(out, graph, dependencies, count, p->eventRecord.event);
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return cuGraphAddEventWaitNode(out, graph, dependencies, count, p->eventWait.event);
  default: return CUDA_ERROR_NOT_SUPPORTED;  // external semaphore and memory-operation nodes
  }
}

CUresult CUDAAPI cuGraphAddNode_v2(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies,
                                   const CUgraphEdgeData* edges, size_t count, CUgraphNodeParams* p) {
  const CUresult r = add_node(out, graph, dependencies, edges, count, p);
  if (r == CUDA_SUCCESS && edges) (*out)->edge_data.assign(edges, edges + count);
  return r;
}

}  // extern "C"

// The entry points before edge data (CUDA 12.3's), whose names cuda.h now maps to the _v2 ones.
#undef cuGraphAddNode
#undef cuStreamUpdateCaptureDependencies
extern "C" {
CUresult CUDAAPI cuGraphAddNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                CUgraphNodeParams* p);
CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode* dependencies, size_t count, unsigned flags);

CUresult CUDAAPI cuGraphAddNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                CUgraphNodeParams* p) {
  return cuGraphAddNode_v2(out, graph, dependencies, nullptr, count, p);
}

CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode* dependencies, size_t count, unsigned flags) {
  return cuStreamUpdateCaptureDependencies_v2(s, dependencies, nullptr, count, flags);
}
}  // extern "C"
