// A graph's shape (CUDA Driver API, Graph Management): its edges, a node's dependencies and
// dependent nodes, its root nodes, edges added and removed, nodes destroyed, and the graph of a
// child graph node. An edge lives on the node that depends (CUgraphNode_st::dependencies, its
// CUgraphEdgeData beside it), and since cuGraphAddDependencies may make a node depend on one added
// after it, an executable graph runs its nodes in the order run_order gives.
#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

#include "driver.h"

namespace ptxvm::cuda {

// Kahn's algorithm, taking the earliest-added of the nodes whose dependencies have run.
bool run_order(const CUgraph_st& graph, std::vector<size_t>& order) {
  const size_t n = graph.nodes.size();
  std::unordered_map<const CUgraphNode_st*, size_t> index;
  for (size_t i = 0; i < n; ++i) index[graph.nodes[i].get()] = i;
  std::vector<size_t> waiting(n, 0);
  std::vector<std::vector<size_t>> dependents(n);
  for (size_t i = 0; i < n; ++i)
    for (const CUgraphNode_st* d : graph.nodes[i]->dependencies)
      if (auto it = index.find(d); it != index.end()) dependents[it->second].push_back(i), ++waiting[i];
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i)
    if (!waiting[i]) ready.push(i);
  order.clear();
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t j : dependents[i])
      if (--waiting[j] == 0) ready.push(j);
  }
  return order.size() == n;
}

namespace {

struct Edge {
  CUgraphNode from, to;
  CUgraphEdgeData data;
};

CUgraphEdgeData edge_of(const CUgraphNode_st& n, size_t i) {
  return i < n.edge_data.size() ? n.edge_data[i] : CUgraphEdgeData{};
}

bool same(const CUgraphEdgeData& a, const CUgraphEdgeData& b) {
  return a.from_port == b.from_port && a.to_port == b.to_port && a.type == b.type;
}

// "Default (zeroed) edge data": full completion of the upstream node (CUgraphEdgeData).
bool full(const CUgraphEdgeData& e) { return same(e, CUgraphEdgeData{}); }

// Edge data as CUgraphEdgeData allows: output ports only on kernel nodes (default, programmatic,
// launch order), no input ports, reserved bytes zero; a programmatic dependency only "between
// kernel nodes" from the programmatic or launch-order port, which "must be used with" it
// (CUgraphDependencyType, CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC).
bool valid(const CUgraphEdgeData& e, const CUgraphNode_st& from, const CUgraphNode_st& to) {
  for (unsigned char r : e.reserved)
    if (r) return false;
  if (e.to_port || e.from_port > CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER) return false;
  if (e.from_port && from.type != CU_GRAPH_NODE_TYPE_KERNEL) return false;
  if (e.type == CU_GRAPH_DEPENDENCY_TYPE_DEFAULT) return e.from_port != CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC;
  return e.type == CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC && e.from_port && to.type == CU_GRAPH_NODE_TYPE_KERNEL;
}

bool has_memory_nodes(const CUgraph_st& g) {
  return std::any_of(g.nodes.begin(), g.nodes.end(), [](const auto& n) {
    return n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->type == CU_GRAPH_NODE_TYPE_MEM_FREE;
  });
}

// The answer of a list query: with neither list, the number of edges; else up to *count of them
// into the lists given (`from`, `to`, `data`), the entries past the last null, and in *count the
// number given. "If edgeData is non-NULL then from and to must be as well", and without it an
// edge that is not a full dependency would go unseen: CUDA_ERROR_LOSSY_QUERY (cuGraphGetEdges).
CUresult answer(const std::vector<Edge>& edges, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* data,
                size_t* count) {
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  if (!from && !to) {
    if (data) return CUDA_ERROR_INVALID_VALUE;
    *count = edges.size();
    return CUDA_SUCCESS;
  }
  const size_t given = std::min(*count, edges.size());
  for (size_t i = 0; !data && i < given; ++i)
    if (!full(edges[i].data)) return CUDA_ERROR_LOSSY_QUERY;
  for (size_t i = 0; i < *count; ++i) {
    const bool has = i < given;
    if (from) from[i] = has ? edges[i].from : nullptr;
    if (to) to[i] = has ? edges[i].to : nullptr;
    if (data) data[i] = has ? edges[i].data : CUgraphEdgeData{};
  }
  *count = given;
  return CUDA_SUCCESS;
}

// The edges into `node` (its dependencies) and out of it (its dependent nodes).
std::vector<Edge> edges_into(const CUgraphNode_st& node) {
  std::vector<Edge> edges;
  for (size_t i = 0; i < node.dependencies.size(); ++i)
    edges.push_back({node.dependencies[i], const_cast<CUgraphNode>(&node), edge_of(node, i)});
  return edges;
}

std::vector<Edge> edges_out_of(const CUgraphNode_st& node) {
  std::vector<Edge> edges;
  for (const auto& n : node.graph->nodes)
    for (size_t i = 0; i < n->dependencies.size(); ++i)
      if (n->dependencies[i] == &node) edges.push_back({const_cast<CUgraphNode>(&node), n.get(), edge_of(*n, i)});
  return edges;
}

void remove_dependency(CUgraphNode_st& n, size_t i) {
  n.dependencies.erase(n.dependencies.begin() + static_cast<long>(i));
  if (i < n.edge_data.size()) n.edge_data.erase(n.edge_data.begin() + static_cast<long>(i));
}

// The index of `from` among `to`'s dependencies, or its number of dependencies.
size_t find_dependency(const CUgraphNode_st& to, const CUgraphNode_st* from) {
  return static_cast<size_t>(std::find(to.dependencies.begin(), to.dependencies.end(), from) - to.dependencies.begin());
}

}  // namespace
}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;

extern "C" {

// "the node in to[i] has a dependency on the node in from[i] with data edgeData[i]"
CUresult CUDAAPI cuGraphGetEdges_v2(CUgraph graph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* data,
                                    size_t* count) {
  if (!graph || (!from != !to)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<Edge> edges;
  for (const auto& n : graph->nodes) {
    std::vector<Edge> into = edges_into(*n);
    edges.insert(edges.end(), into.begin(), into.end());
  }
  return answer(edges, from, to, data, count);
}

CUresult CUDAAPI cuGraphNodeGetDependencies_v2(CUgraphNode node, CUgraphNode* dependencies, CUgraphEdgeData* data,
                                               size_t* count) {
  if (!node) return CUDA_ERROR_INVALID_VALUE;
  return answer(edges_into(*node), dependencies, nullptr, data, count);
}

CUresult CUDAAPI cuGraphNodeGetDependentNodes_v2(CUgraphNode node, CUgraphNode* dependents, CUgraphEdgeData* data,
                                                 size_t* count) {
  if (!node || !node->graph) return CUDA_ERROR_INVALID_VALUE;
  return answer(edges_out_of(*node), nullptr, dependents, data, count);
}

// The nodes with no dependencies, as cuGraphGetNodes answers its list.
CUresult CUDAAPI cuGraphGetRootNodes(CUgraph graph, CUgraphNode* roots, size_t* count) {
  if (!graph || !count) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> found;
  for (const auto& n : graph->nodes)
    if (n->dependencies.empty()) found.push_back(n.get());
  if (!roots) {
    *count = found.size();
    return CUDA_SUCCESS;
  }
  for (size_t i = 0; i < *count; ++i) roots[i] = i < found.size() ? found[i] : nullptr;
  *count = std::min(*count, found.size());
  return CUDA_SUCCESS;
}

// "Each node in from and to must belong to hGraph ... Specifying an existing dependency will
// return an error" (cuGraphAddDependencies); a node depending on itself is refused too, and a
// cycle of several nodes when the graph is instantiated (CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE).
CUresult CUDAAPI cuGraphAddDependencies_v2(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to,
                                           const CUgraphEdgeData* data, size_t count) {
  if (CUresult r = ready()) return r;
  if (!graph || (count && (!from || !to))) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) {
    if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph || from[i] == to[i])
      return CUDA_ERROR_INVALID_VALUE;
    if (data && !valid(data[i], *from[i], *to[i])) return CUDA_ERROR_INVALID_VALUE;
    if (find_dependency(*to[i], from[i]) < to[i]->dependencies.size()) return CUDA_ERROR_INVALID_VALUE;
    for (size_t j = 0; j < i; ++j)
      if (from[j] == from[i] && to[j] == to[i]) return CUDA_ERROR_INVALID_VALUE;
  }
  for (size_t i = 0; i < count; ++i) {
    CUgraphNode_st& n = *to[i];
    const CUgraphEdgeData e = data ? data[i] : CUgraphEdgeData{};
    if (!full(e)) n.edge_data.resize(n.dependencies.size());
    n.dependencies.push_back(from[i]);
    if (!full(e)) n.edge_data.push_back(e);
  }
  return CUDA_SUCCESS;
}

// "Specifying an edge that does not exist in the graph, with data matching edgeData, results in an
// error ... Dependencies cannot be removed from graphs which contain allocation or free nodes"
// (cuGraphRemoveDependencies).
CUresult CUDAAPI cuGraphRemoveDependencies_v2(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to,
                                              const CUgraphEdgeData* data, size_t count) {
  if (CUresult r = ready()) return r;
  if (!graph || (count && (!from || !to))) return CUDA_ERROR_INVALID_VALUE;
  if (count && has_memory_nodes(*graph)) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) {
    if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph) return CUDA_ERROR_INVALID_VALUE;
    const size_t at = find_dependency(*to[i], from[i]);
    if (at == to[i]->dependencies.size() || !same(edge_of(*to[i], at), data ? data[i] : CUgraphEdgeData{}))
      return CUDA_ERROR_INVALID_VALUE;
  }
  for (size_t i = 0; i < count; ++i)
    if (const size_t at = find_dependency(*to[i], from[i]); at < to[i]->dependencies.size())
      remove_dependency(*to[i], at);
  return CUDA_SUCCESS;
}

// "Removes hNode from its graph. This operation also severs any dependencies of other nodes on
// hNode and vice versa. Nodes which belong to a graph which contains allocation or free nodes
// cannot be destroyed" (cuGraphDestroyNode). A capture recording into the graph forgets it too.
CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode node) {
  if (CUresult r = ready()) return r;
  if (!node || !node->graph) return CUDA_ERROR_INVALID_VALUE;
  CUgraph_st& g = *node->graph;
  if (has_memory_nodes(g)) return CUDA_ERROR_INVALID_VALUE;
  for (const auto& n : g.nodes)
    for (size_t at; (at = find_dependency(*n, node)) < n->dependencies.size();) remove_dependency(*n, at);
  for (CUstream s : g.streams) s->tail.erase(std::remove(s->tail.begin(), s->tail.end(), node), s->tail.end());
  for (auto it = g.clones.begin(); it != g.clones.end();) it = it->second == node ? g.clones.erase(it) : std::next(it);
  g.nodes.erase(std::find_if(g.nodes.begin(), g.nodes.end(), [&](const auto& n) { return n.get() == node; }));
  return CUDA_SUCCESS;
}

// "This call does not clone the graph. Changes to the graph will be reflected in the node, and
// the node retains ownership of the graph" (cuGraphChildGraphNodeGetGraph).
CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph* graph) {
  if (!node || !graph || node->type != CU_GRAPH_NODE_TYPE_GRAPH || !node->embedded) return CUDA_ERROR_INVALID_VALUE;
  *graph = node->embedded.get();
  return CUDA_SUCCESS;
}

}  // extern "C"

// The entry points before edge data (CUDA 12.3's), whose names cuda.h now maps to the _v2 ones.
#undef cuGraphGetEdges
#undef cuGraphNodeGetDependencies
#undef cuGraphNodeGetDependentNodes
#undef cuGraphAddDependencies
#undef cuGraphRemoveDependencies
extern "C" {
CUresult CUDAAPI cuGraphGetEdges(CUgraph graph, CUgraphNode* from, CUgraphNode* to, size_t* count);
CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode* dependencies, size_t* count);
CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode* dependents, size_t* count);
CUresult CUDAAPI cuGraphAddDependencies(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to, size_t count);
CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to, size_t count);

CUresult CUDAAPI cuGraphGetEdges(CUgraph graph, CUgraphNode* from, CUgraphNode* to, size_t* count) {
  return cuGraphGetEdges_v2(graph, from, to, nullptr, count);
}
CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode* dependencies, size_t* count) {
  return cuGraphNodeGetDependencies_v2(node, dependencies, nullptr, count);
}
CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode* dependents, size_t* count) {
  return cuGraphNodeGetDependentNodes_v2(node, dependents, nullptr, count);
}
CUresult CUDAAPI cuGraphAddDependencies(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to, size_t count) {
  return cuGraphAddDependencies_v2(graph, from, to, nullptr, count);
}
CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to, size_t count) {
  return cuGraphRemoveDependencies_v2(graph, from, to, nullptr, count);
}
}  // extern "C"
