// A graph's shape through the runtime: edges, dependencies, dependent and root nodes, edges added
// and removed, nodes destroyed and a child graph node's graph, as the driver has them
// (src/cuda/graph_topology.cpp); cudaGraphEdgeData is laid out as the driver's CUgraphEdgeData.
#include "runtime.h"

using namespace ptxvm::cudart;

namespace {
CUgraph g(cudaGraph_t graph) { return reinterpret_cast<CUgraph>(graph); }
CUgraphNode n(cudaGraphNode_t node) { return reinterpret_cast<CUgraphNode>(node); }
CUgraphNode* list(cudaGraphNode_t* nodes) { return reinterpret_cast<CUgraphNode*>(nodes); }
const CUgraphNode* list(const cudaGraphNode_t* nodes) { return reinterpret_cast<const CUgraphNode*>(nodes); }
CUgraphEdgeData* edges(cudaGraphEdgeData* e) { return reinterpret_cast<CUgraphEdgeData*>(e); }
const CUgraphEdgeData* edges(const cudaGraphEdgeData* e) { return reinterpret_cast<const CUgraphEdgeData*>(e); }
static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData) && int(cudaErrorLossyQuery) == CUDA_ERROR_LOSSY_QUERY);
}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                                        cudaGraphEdgeData* data, size_t* count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphGetEdges_v2(g(graph), list(from), list(to), edges(data), count));
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* dependencies,
                                                   cudaGraphEdgeData* data, size_t* count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphNodeGetDependencies_v2(n(node), list(dependencies), edges(data), count));
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* dependents,
                                                     cudaGraphEdgeData* data, size_t* count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphNodeGetDependentNodes_v2(n(node), list(dependents), edges(data), count));
}

cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* roots, size_t* count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphGetRootNodes(g(graph), list(roots), count));
}

cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                               const cudaGraphEdgeData* data, size_t count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphAddDependencies_v2(g(graph), list(from), list(to), edges(data), count));
}

cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                  const cudaGraphNode_t* to, const cudaGraphEdgeData* data,
                                                  size_t count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphRemoveDependencies_v2(g(graph), list(from), list(to), edges(data), count));
}

cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t node) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphDestroyNode(n(node)));
}

cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* graph) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphChildGraphNodeGetGraph(n(node), reinterpret_cast<CUgraph*>(graph)));
}

}  // extern "C"
