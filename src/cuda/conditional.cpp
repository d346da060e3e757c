// Conditional graph nodes (conditional.h) and cuGraphConditionalHandleCreate.
#include "conditional.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>

namespace ptxvm::cuda {

// The value lives in host memory the device adopts, at its own address where it can; it is no
// allocation of the program's (cuMemFree refuses it, the leak check does not list it).
ConditionalHandle::ConditionalHandle(unsigned d, unsigned f) : default_value(d), flags(f) {
  value = static_cast<uint32_t*>(std::aligned_alloc(16, 16));
  *value = d;  // without CU_GRAPH_COND_ASSIGN_DEFAULT a launch starts from what is there
  Driver& dr = driver();
  std::lock_guard lock(dr.mutex);
  address = dr.device.adopt(value, sizeof(uint32_t));
}

ConditionalHandle::~ConditionalHandle() {
  {
    Driver& d = driver();
    std::lock_guard lock(d.mutex);
    d.device.free(address);
  }
  std::free(value);
}

namespace {

// The graph, `graph` or one enclosing it, that made the handle `id` ("associated with a
// conditional node in this graph or one of its children", cuGraphConditionalHandleCreate), or null.
const CUgraph_st* handle_maker(const CUgraph_st* graph, CUgraphConditionalHandle id) {
  for (; graph; graph = graph->parent)
    for (const auto& h : graph->handles)
      if (h->address == id) return graph;
  return nullptr;
}

// Whether a conditional node of `graph` or of its bodies, at any depth, uses the handle `id`.
bool serves(const CUgraph_st& graph, CUgraphConditionalHandle id) {
  for (const auto& n : graph.nodes)
    if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
      if (n->conditional.handle == id) return true;
      for (const auto& body : n->bodies)
        if (serves(*body, id)) return true;
    }
  return false;
}

// The node kinds a body takes, "recursively to child graphs and conditional bodies"
// (CUDA_CONDITIONAL_NODE_PARAMS::phGraph_out).
bool body_kinds(const CUgraph_st& graph) {
  for (const auto& n : graph.nodes) switch (n->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_MEMSET:
    case CU_GRAPH_NODE_TYPE_MEMCPY: break;
    case CU_GRAPH_NODE_TYPE_GRAPH:
      if (n->embedded && !body_kinds(*n->embedded)) return false;
      break;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
      for (const auto& body : n->bodies)
        if (!body_kinds(*body)) return false;
      break;
    default: return false;
    }
  return true;
}

// The handles of `graph` and of its conditional nodes' bodies, and those its nodes use.
void collect(const CUgraph_st& graph, std::vector<std::shared_ptr<ConditionalHandle>>& made,
             std::set<uint64_t>& used) {
  made.insert(made.end(), graph.handles.begin(), graph.handles.end());
  for (const auto& n : graph.nodes)
    if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
      used.insert(n->conditional.handle);
      for (const auto& body : n->bodies) collect(*body, made, used);
    }
}

// The node's bodies as copies of their nodes, with their own conditional nodes' bodies likewise.
void copy_bodies(CUgraphNode_st& node) {
  node.branches.clear();
  for (const auto& body : node.bodies) {
    std::vector<CUgraphNode_st> copies;
    for (const auto& n : body->nodes) copies.push_back(*n);
    for (CUgraphNode_st& c : copies)
      if (c.type == CU_GRAPH_NODE_TYPE_CONDITIONAL) copy_bodies(c);
    node.branches.push_back(std::move(copies));
  }
  node.bodies.clear(), node.body_graphs.clear();  // the graph's, which may go before the copy
}

bool same_nodes(const CUgraph_st& a, const std::vector<CUgraphNode_st>& b) {
  if (a.nodes.size() != b.size()) return false;
  for (size_t i = 0; i < b.size(); ++i)
    if (a.nodes[i]->type != b[i].type ||
        (b[i].type == CU_GRAPH_NODE_TYPE_CONDITIONAL && !same_conditional(*a.nodes[i], b[i])))
      return false;
  return true;
}

}  // namespace

// "Allowed values are 1 for CU_GRAPH_COND_TYPE_WHILE, 1 or 2 for CU_GRAPH_COND_TYPE_IF, or any
// value greater than zero for CU_GRAPH_COND_TYPE_SWITCH" (CUDA_CONDITIONAL_NODE_PARAMS::size). A
// handle serves a single conditional node (Programming Guide, "Conditional Handles"): another node
// may take it only once the node that had it is destroyed, as on an H200.
CUresult conditional_node(CUgraph graph, const CUDA_CONDITIONAL_NODE_PARAMS& p, CUgraphNode_st& node) {
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  switch (p.type) {
  case CU_GRAPH_COND_TYPE_IF:
    if (p.size != 1 && p.size != 2) return CUDA_ERROR_INVALID_VALUE;
    break;
  case CU_GRAPH_COND_TYPE_WHILE:
    if (p.size != 1) return CUDA_ERROR_INVALID_VALUE;
    break;
  case CU_GRAPH_COND_TYPE_SWITCH:
    if (p.size == 0) return CUDA_ERROR_INVALID_VALUE;
    break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  const CUgraph_st* maker = handle_maker(graph, p.handle);
  if (!maker || serves(*maker, p.handle)) return CUDA_ERROR_INVALID_VALUE;
  node.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  node.conditional = p;
  node.conditional.phGraph_out = nullptr;
  for (unsigned i = 0; i < p.size; ++i) {
    node.bodies.push_back(std::make_shared<CUgraph_st>());
    node.bodies.back()->parent = graph;
    node.body_graphs.push_back(node.bodies.back().get());
  }
  return CUDA_SUCCESS;
}

void own_bodies(CUgraphNode node, CUgraph graph, CUDA_CONDITIONAL_NODE_PARAMS& p) {
  for (const auto& body : node->bodies) body->owner = node, body->parent = graph;
  node->conditional.phGraph_out = node->body_graphs.data();
  p.phGraph_out = node->body_graphs.data();
}

bool bodies_allowed(const CUgraph_st& graph) {
  for (const auto& n : graph.nodes)
    if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
      for (const auto& body : n->bodies)
        if (!body_kinds(*body)) return false;
  return true;
}

bool has_conditionals(const CUgraph_st& graph) {
  return std::any_of(graph.nodes.begin(), graph.nodes.end(),
                     [](const auto& n) { return n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL; });
}

CUresult instantiate_conditionals(const CUgraph_st& graph, CUgraphExec_st& exec) {
  std::vector<std::shared_ptr<ConditionalHandle>> made;
  std::set<uint64_t> used;
  collect(graph, made, used);
  for (const auto& h : made)
    if (!used.count(h->address)) return CUDA_ERROR_INVALID_VALUE;
  exec.handles = std::move(made);
  for (CUgraphNode_st& n : exec.nodes)
    if (n.type == CU_GRAPH_NODE_TYPE_CONDITIONAL) copy_bodies(n);
  return CUDA_SUCCESS;
}

void assign_defaults(const CUgraphExec_st& exec) {
  for (const auto& h : exec.handles)
    if (h->flags & CU_GRAPH_COND_ASSIGN_DEFAULT) *h->value = h->default_value;
}

// IF: body 0 when the value is non-zero, else body 1 when there is one; WHILE: body 0 while it is
// non-zero; SWITCH: body n for the value n, none past the last (CUDA_CONDITIONAL_NODE_PARAMS).
int conditional_branch(const CUgraphNode_st& node) {
  uint32_t value = 0;
  std::memcpy(&value, device_bytes(node.conditional.handle, sizeof value), sizeof value);
  const auto bodies = static_cast<uint32_t>(node.branches.size());
  switch (node.conditional.type) {
  case CU_GRAPH_COND_TYPE_IF: return value ? 0 : bodies == 2 ? 1 : -1;
  case CU_GRAPH_COND_TYPE_WHILE: return value ? 0 : -1;
  case CU_GRAPH_COND_TYPE_SWITCH: return value < bodies ? static_cast<int>(value) : -1;
  default: return -1;
  }
}

// "Changing node parameters is not supported" for conditional nodes; their bodies' nodes update
// under the rules of their kinds (cuGraphExecUpdate).
bool same_conditional(const CUgraphNode_st& now, const CUgraphNode_st& was) {
  if (now.conditional.handle != was.conditional.handle || now.conditional.type != was.conditional.type ||
      now.bodies.size() != was.branches.size())
    return false;
  for (size_t i = 0; i < now.bodies.size(); ++i)
    if (!same_nodes(*now.bodies[i], was.branches[i])) return false;
  return true;
}

}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;

extern "C" {

// "flags - Currently must be CU_GRAPH_COND_ASSIGN_DEFAULT or 0" (cuGraphConditionalHandleCreate).
CUresult CUDAAPI cuGraphConditionalHandleCreate(CUgraphConditionalHandle* out, CUgraph graph, CUcontext,
                                                unsigned default_value, unsigned flags) {
  if (CUresult r = ready()) return r;
  if (!out || !graph || (flags & ~unsigned(CU_GRAPH_COND_ASSIGN_DEFAULT))) return CUDA_ERROR_INVALID_VALUE;
  graph->handles.push_back(std::make_shared<ConditionalHandle>(default_value, flags));
  *out = graph->handles.back()->address;
  return CUDA_SUCCESS;
}

}  // extern "C"
