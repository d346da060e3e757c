// Conditional graph nodes (CUDA C++ Programming Guide, "Conditional Graph Nodes"; cuda.h's
// CUDA_CONDITIONAL_NODE_PARAMS, cuGraphConditionalHandleCreate): IF (with an ELSE body when its
// size is 2), WHILE and SWITCH nodes whose body graphs run by the value of a conditional handle.
// A handle is the device address of its 32-bit value: kernels set it with cudaGraphSetConditional
// (a store there, src/sem/graph_conditional.h), and the graph reads it when it evaluates the node.
#pragma once

#include "driver.h"

namespace ptxvm::cuda {

// A conditional handle: its value, held in host memory the device adopted, its default and
// flags (CU_GRAPH_COND_ASSIGN_DEFAULT: the default is assigned at the start of each launch).
struct ConditionalHandle {
  uint32_t* value = nullptr;
  uint64_t address = 0;  // the handle (CUgraphConditionalHandle)
  unsigned default_value = 0, flags = 0;
  ConditionalHandle(unsigned default_value, unsigned flags);
  ~ConditionalHandle();
  ConditionalHandle(const ConditionalHandle&) = delete;
  ConditionalHandle& operator=(const ConditionalHandle&) = delete;
};

// A conditional node for `graph` from `p` (checked as cuGraphAddNode documents them), with
// p.size empty body graphs; then, once the node has its place in the graph, `own_bodies` ties the
// bodies to it and returns them in p.phGraph_out.
CUresult conditional_node(CUgraph graph, const CUDA_CONDITIONAL_NODE_PARAMS& p, CUgraphNode_st& node);
void own_bodies(CUgraphNode node, CUgraph graph, CUDA_CONDITIONAL_NODE_PARAMS& p);
// Whether the bodies of `graph`'s conditional nodes hold only kernel, empty, child graph, memset,
// memcpy and conditional nodes, recursively (CUDA_CONDITIONAL_NODE_PARAMS::phGraph_out). Other
// kinds may be added to a body, or captured into one; the instantiation fails (as on an H200).
bool bodies_allowed(const CUgraph_st& graph);
// Whether `graph` holds conditional nodes (it cannot be cloned or be a child graph then).
bool has_conditionals(const CUgraph_st& graph);
// Instantiation: every conditional node of the executable graph gets copies of its bodies' nodes
// (recursively) and `exec` the handles to reset at each launch. CUDA_ERROR_INVALID_VALUE when a
// handle is used by no conditional node (CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED).
CUresult instantiate_conditionals(const CUgraph_st& graph, CUgraphExec_st& exec);
// A launch's start: handles with CU_GRAPH_COND_ASSIGN_DEFAULT take their default value.
void assign_defaults(const CUgraphExec_st& exec);
// The body a conditional node of an executable graph runs now, by its handle's value, or -1.
// A WHILE node asks again after each run of its body.
int conditional_branch(const CUgraphNode_st& node);
// cuGraphExecUpdate: whether conditional node `now` matches the executable graph's `was` (same
// handle, kind and bodies, whose nodes match in number and kind, recursively).
bool same_conditional(const CUgraphNode_st& now, const CUgraphNode_st& was);

}  // namespace ptxvm::cuda
