// CUDA graphs and stream capture: the driver's (cuStreamBeginCapture, cuGraph*), with a kernel
// node's host stub turned into its function.
#include <cstring>
#include <utility>

#include "runtime.h"

using namespace ptxvm::cudart;

namespace {

// The runtime's kernel node description as the driver's: the host stub's function.
cudaError_t driver_params(const cudaKernelNodeParams* p, CUDA_KERNEL_NODE_PARAMS& d) {
  if (!p) return fail(cudaErrorInvalidValue);
  cudaError_t error = cudaSuccess;
  Kernel* k = kernel_of(p->func, &error);
  if (!k) return fail(error);
  d = {};
  d.func = k->function;
  d.gridDimX = p->gridDim.x, d.gridDimY = p->gridDim.y, d.gridDimZ = p->gridDim.z;
  d.blockDimX = p->blockDim.x, d.blockDimY = p->blockDim.y, d.blockDimZ = p->blockDim.z;
  d.sharedMemBytes = p->sharedMemBytes;
  d.kernelParams = p->kernelParams;
  d.extra = p->extra;
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamBeginCapture_v2(reinterpret_cast<CUstream>(s), static_cast<CUstreamCaptureMode>(mode)));
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* graph) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamEndCapture(reinterpret_cast<CUstream>(s), reinterpret_cast<CUgraph*>(graph)));
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus* status) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamIsCapturing(reinterpret_cast<CUstream>(s), reinterpret_cast<CUstreamCaptureStatus*>(status)));
}

cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t* graph, unsigned flags) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphCreate(reinterpret_cast<CUgraph*>(graph), flags));
}

cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphDestroy(reinterpret_cast<CUgraph>(graph)));
}

cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                             size_t count, const cudaKernelNodeParams* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_KERNEL_NODE_PARAMS d;
  if (cudaError_t e = driver_params(p, d); e != cudaSuccess) return e;
  return result(cuGraphAddKernelNode_v2(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                        reinterpret_cast<const CUgraphNode*>(deps), count, &d));
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_KERNEL_NODE_PARAMS d;
  if (cudaError_t e = driver_params(p, d); e != cudaSuccess) return e;
  return result(cuGraphKernelNodeSetParams_v2(reinterpret_cast<CUgraphNode>(node), &d));
}

cudaError_t CUDARTAPI cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const cudaKernelNodeParams* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_KERNEL_NODE_PARAMS d;
  if (cudaError_t e = driver_params(p, d); e != cudaSuccess) return e;
  return result(cuGraphExecKernelNodeSetParams_v2(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUgraphNode>(node), &d));
}

// The node's description with its kernel named by its host stub again.
cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* p) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_KERNEL_NODE_PARAMS d;
  if (cudaError_t e = result(cuGraphKernelNodeGetParams_v2(reinterpret_cast<CUgraphNode>(node), &d)); e != cudaSuccess)
    return e;
  *p = {};
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  for (const auto& [stub, k] : rt.kernels)
    if (k->function == d.func) p->func = const_cast<void*>(stub);
  p->gridDim = dim3(d.gridDimX, d.gridDimY, d.gridDimZ);
  p->blockDim = dim3(d.blockDimX, d.blockDimY, d.blockDimZ);
  p->sharedMemBytes = d.sharedMemBytes;
  p->kernelParams = d.kernelParams;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                                 size_t count, cudaGraph_t child) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphAddChildGraphNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                         reinterpret_cast<const CUgraphNode*>(deps), count, reinterpret_cast<CUgraph>(child)));
}

// Addresses are unified (docs/Driver.md): every kind is one copy between them.
cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                               size_t count, void* dst, const void* src, size_t bytes,
                                               cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY3D c{};
  c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  c.srcDevice = reinterpret_cast<CUdeviceptr>(src), c.dstDevice = reinterpret_cast<CUdeviceptr>(dst);
  c.WidthInBytes = bytes, c.Height = 1, c.Depth = 1;
  return result(cuGraphAddMemcpyNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                     reinterpret_cast<const CUgraphNode*>(deps), count, &c, nullptr));
}

// The copy cudaMemcpy3D would make, as a node.
cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                             size_t count, const cudaMemcpy3DParms* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_of(p, c); e != cudaSuccess) return e;
  return result(cuGraphAddMemcpyNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                     reinterpret_cast<const CUgraphNode*>(deps), count, &c, nullptr));
}

// cudaMemsetParams and cudaHostNodeParams are laid out as the driver's node parameters.
cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                             size_t count, const cudaMemsetParams* p) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  const CUDA_MEMSET_NODE_PARAMS d{reinterpret_cast<CUdeviceptr>(p->dst), p->pitch, p->value, p->elementSize, p->width,
                                  p->height};
  return result(cuGraphAddMemsetNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                     reinterpret_cast<const CUgraphNode*>(deps), count, &d, nullptr));
}

cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                           size_t count, const cudaHostNodeParams* p) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  const CUDA_HOST_NODE_PARAMS d{p->fn, p->userData};
  return result(cuGraphAddHostNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                   reinterpret_cast<const CUgraphNode*>(deps), count, &d));
}

cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                            size_t count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphAddEmptyNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                    reinterpret_cast<const CUgraphNode*>(deps), count));
}

// Event record and wait nodes: the driver's (cuGraphAddEventRecordNode, cuGraphAddEventWaitNode).
cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                                  size_t count, cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphAddEventRecordNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                          reinterpret_cast<const CUgraphNode*>(deps), count, reinterpret_cast<CUevent>(event)));
}

cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                                size_t count, cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphAddEventWaitNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                        reinterpret_cast<const CUgraphNode*>(deps), count, reinterpret_cast<CUevent>(event)));
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphEventRecordNodeGetEvent(reinterpret_cast<CUgraphNode>(node), reinterpret_cast<CUevent*>(event)));
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphEventWaitNodeGetEvent(reinterpret_cast<CUgraphNode>(node), reinterpret_cast<CUevent*>(event)));
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphEventRecordNodeSetEvent(reinterpret_cast<CUgraphNode>(node), reinterpret_cast<CUevent>(event)));
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphEventWaitNodeSetEvent(reinterpret_cast<CUgraphNode>(node), reinterpret_cast<CUevent>(event)));
}

cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node, cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphExecEventRecordNodeSetEvent(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUgraphNode>(node),
                                                   reinterpret_cast<CUevent>(event)));
}

cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node, cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphExecEventWaitNodeSetEvent(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUgraphNode>(node),
                                                 reinterpret_cast<CUevent>(event)));
}

cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphGetNodes(reinterpret_cast<CUgraph>(graph), reinterpret_cast<CUgraphNode*>(nodes), count));
}

// cudaGraphNodeType has the driver's values.
static_assert(int(cudaGraphNodeTypeMemcpy) == CU_GRAPH_NODE_TYPE_MEMCPY &&
              int(cudaGraphNodeTypeMemAlloc) == CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
              int(cudaGraphNodeTypeMemFree) == CU_GRAPH_NODE_TYPE_MEM_FREE);
cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphNodeGetType(reinterpret_cast<CUgraphNode>(node), reinterpret_cast<CUgraphNodeType*>(type)));
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphInstantiateWithFlags(reinterpret_cast<CUgraphExec*>(exec), reinterpret_cast<CUgraph>(graph), flags));
}

cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiateWithFlags(exec, graph, flags);
}

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphLaunch(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUstream>(s)));
}

cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphUpload(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUstream>(s)));
}

static_assert(sizeof(cudaGraphExecUpdateResultInfo) == sizeof(CUgraphExecUpdateResultInfo));

cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphExecUpdate_v2(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUgraph>(graph),
                                     reinterpret_cast<CUgraphExecUpdateResultInfo*>(info)));
}

cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t exec) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphExecDestroy(reinterpret_cast<CUgraphExec>(exec)));
}


// Which calls a capture forbids in other threads: nothing runs asynchronously here, so the mode
// only changes hands.
cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  if (!mode) return fail(cudaErrorInvalidValue);
  thread_local cudaStreamCaptureMode current = cudaStreamCaptureModeGlobal;
  std::swap(*mode, current);
  return cudaSuccess;
}

// Graph memory nodes: cudaMemAllocNodeParams is laid out as the driver's parameters, and
// cudaGraphMemAttributeType has the driver's values.
static_assert(sizeof(cudaMemAllocNodeParams) == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) &&
              int(cudaGraphMemAttrReservedMemHigh) == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH);

cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                               size_t count, cudaMemAllocNodeParams* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphAddMemAllocNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                       reinterpret_cast<const CUgraphNode*>(deps), count,
                                       reinterpret_cast<CUDA_MEM_ALLOC_NODE_PARAMS*>(p)));
}

cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                              size_t count, void* dptr) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphAddMemFreeNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                      reinterpret_cast<const CUgraphNode*>(deps), count, reinterpret_cast<CUdeviceptr>(dptr)));
}

cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphMemAllocNodeGetParams(reinterpret_cast<CUgraphNode>(node), reinterpret_cast<CUDA_MEM_ALLOC_NODE_PARAMS*>(p)));
}

cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphMemFreeNodeGetParams(reinterpret_cast<CUgraphNode>(node), static_cast<CUdeviceptr*>(dptr)));
}

cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int device) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuDeviceGraphMemTrim(device));
}

cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuDeviceGetGraphMemAttribute(device, static_cast<CUgraphMem_attribute>(attr), value));
}

cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuDeviceSetGraphMemAttribute(device, static_cast<CUgraphMem_attribute>(attr), value));
}

cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphClone(reinterpret_cast<CUgraph*>(clone), reinterpret_cast<CUgraph>(original)));
}

cudaError_t CUDARTAPI cudaGraphNodeFindInClone(cudaGraphNode_t* node, cudaGraphNode_t original, cudaGraph_t clone) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphNodeFindInClone(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraphNode>(original),
                                       reinterpret_cast<CUgraph>(clone)));
}

// Kernel node attributes: cudaLaunchAttributeValue is laid out as the driver's, with its ids.
static_assert(sizeof(cudaKernelNodeAttrValue) == sizeof(CUkernelNodeAttrValue));

cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, cudaKernelNodeAttrID id,
                                                      const cudaKernelNodeAttrValue* value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphKernelNodeSetAttribute(reinterpret_cast<CUgraphNode>(node), static_cast<CUkernelNodeAttrID>(id),
                                              reinterpret_cast<const CUkernelNodeAttrValue*>(value)));
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t node, cudaKernelNodeAttrID id,
                                                      cudaKernelNodeAttrValue* value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphKernelNodeGetAttribute(reinterpret_cast<CUgraphNode>(node), static_cast<CUkernelNodeAttrID>(id),
                                              reinterpret_cast<CUkernelNodeAttrValue*>(value)));
}

cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t dst, cudaGraphNode_t src) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuGraphKernelNodeCopyAttributes(reinterpret_cast<CUgraphNode>(dst), reinterpret_cast<CUgraphNode>(src)));
}

// Memcpy nodes' parameters as cudaMemcpy3DParms (kind cudaMemcpyDefault: addresses are unified).
cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* p) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY3D c;
  if (cudaError_t e = result(cuGraphMemcpyNodeGetParams(reinterpret_cast<CUgraphNode>(node), &c)); e != cudaSuccess)
    return e;
  params_of(c, *p);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_of(p, c); e != cudaSuccess) return e;
  return result(cuGraphMemcpyNodeSetParams(reinterpret_cast<CUgraphNode>(node), &c));
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const cudaMemcpy3DParms* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_of(p, c); e != cudaSuccess) return e;
  return result(cuGraphExecMemcpyNodeSetParams(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUgraphNode>(node),
                                               &c, nullptr));
}

namespace {
CUDA_MEMCPY3D copy_1d(void* dst, const void* src, size_t bytes) {
  CUDA_MEMCPY3D c{};
  c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  c.srcDevice = reinterpret_cast<CUdeviceptr>(src), c.dstDevice = reinterpret_cast<CUdeviceptr>(dst);
  c.WidthInBytes = bytes, c.Height = 1, c.Depth = 1;
  return c;
}
}  // namespace

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src, size_t bytes,
                                                     cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  const CUDA_MEMCPY3D c = copy_1d(dst, src, bytes);
  return result(cuGraphMemcpyNodeSetParams(reinterpret_cast<CUgraphNode>(node), &c));
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node, void* dst,
                                                         const void* src, size_t bytes, cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  const CUDA_MEMCPY3D c = copy_1d(dst, src, bytes);
  return result(cuGraphExecMemcpyNodeSetParams(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUgraphNode>(node),
                                               &c, nullptr));
}

// Capture into an existing graph (a conditional node's body, say), and the capture's
// dependencies: cudaGraphEdgeData is laid out as the driver's CUgraphEdgeData.
static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData));

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                                    const cudaGraphEdgeData* edges, size_t count,
                                                    cudaStreamCaptureMode mode) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamBeginCaptureToGraph(reinterpret_cast<CUstream>(s), reinterpret_cast<CUgraph>(graph),
                                            reinterpret_cast<const CUgraphNode*>(deps),
                                            reinterpret_cast<const CUgraphEdgeData*>(edges), count,
                                            static_cast<CUstreamCaptureMode>(mode)));
}

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                                         const cudaGraphEdgeData* edges, size_t count,
                                                         cudaStreamCaptureMode mode) {
  return cudaStreamBeginCaptureToGraph(s, graph, deps, edges, count, mode);
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t s, cudaStreamCaptureStatus* status, unsigned long long* id,
                                               cudaGraph_t* graph, const cudaGraphNode_t** deps,
                                               const cudaGraphEdgeData** edges, size_t* count) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamGetCaptureInfo_v3(reinterpret_cast<CUstream>(s), reinterpret_cast<CUstreamCaptureStatus*>(status),
                                          reinterpret_cast<cuuint64_t*>(id), reinterpret_cast<CUgraph*>(graph), reinterpret_cast<const CUgraphNode**>(deps),
                                          reinterpret_cast<const CUgraphEdgeData**>(edges), count));
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t s, cudaStreamCaptureStatus* status, unsigned long long* id,
                                                    cudaGraph_t* graph, const cudaGraphNode_t** deps,
                                                    const cudaGraphEdgeData** edges, size_t* count) {
  return cudaStreamGetCaptureInfo(s, status, id, graph, deps, edges, count);
}

cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t* deps,
                                                          const cudaGraphEdgeData* edges, size_t count, unsigned flags) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamUpdateCaptureDependencies_v2(reinterpret_cast<CUstream>(s), reinterpret_cast<CUgraphNode*>(deps),
                                                     reinterpret_cast<const CUgraphEdgeData*>(edges), count, flags));
}

cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t s, cudaGraphNode_t* deps,
                                                               const cudaGraphEdgeData* edges, size_t count,
                                                               unsigned flags) {
  return cudaStreamUpdateCaptureDependencies(s, deps, edges, count, flags);
}

// Conditional nodes' handles (cudaGraphConditionalHandleCreate), in the current context.
cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                                       unsigned default_value, unsigned flags) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  static_assert(cudaGraphCondAssignDefault == CU_GRAPH_COND_ASSIGN_DEFAULT);
  CUcontext ctx = nullptr;
  cuCtxGetCurrent(&ctx);
  return result(cuGraphConditionalHandleCreate(reinterpret_cast<CUgraphConditionalHandle*>(handle),
                                               reinterpret_cast<CUgraph>(graph), ctx, default_value, flags));
}

// A node of any kind (cudaGraphAddNode): the runtime's tagged union as the driver's, with a
// kernel named by its host stub and a copy by cudaMemcpy3DParms; what the driver returns (an
// allocation's address, a conditional node's body graphs) goes back into `p`.
static_assert(int(cudaGraphNodeTypeConditional) == CU_GRAPH_NODE_TYPE_CONDITIONAL &&
              int(cudaGraphNodeTypeEventRecord) == CU_GRAPH_NODE_TYPE_EVENT_RECORD &&
              int(cudaGraphNodeTypeWaitEvent) == CU_GRAPH_NODE_TYPE_WAIT_EVENT &&
              int(cudaGraphCondTypeSwitch) == CU_GRAPH_COND_TYPE_SWITCH &&
              sizeof(cudaKernelNodeParamsV2) == sizeof(cudaKernelNodeParams) &&
              sizeof(cudaMemAllocNodeParamsV2) == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS_v2));
cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                       const cudaGraphEdgeData* edges, size_t count, cudaGraphNodeParams* p) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  if (p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2) return fail(cudaErrorInvalidValue);
  CUgraphNodeParams d{};
  d.type = static_cast<CUgraphNodeType>(p->type);
  switch (p->type) {
  case cudaGraphNodeTypeKernel: {
    CUDA_KERNEL_NODE_PARAMS k;
    if (cudaError_t e = driver_params(reinterpret_cast<const cudaKernelNodeParams*>(&p->kernel), k); e != cudaSuccess)
      return e;
    std::memcpy(&d.kernel, &k, sizeof k);
    break;
  }
  case cudaGraphNodeTypeMemcpy:
    if (p->memcpy.flags || p->memcpy.reserved[0] || p->memcpy.reserved[1] || p->memcpy.reserved[2])
      return fail(cudaErrorInvalidValue);
    if (cudaError_t e = copy_of(&p->memcpy.copyParams, d.memcpy.copyParams); e != cudaSuccess) return e;
    break;
  case cudaGraphNodeTypeMemset:
    d.memset = {reinterpret_cast<CUdeviceptr>(p->memset.dst), p->memset.pitch, p->memset.value, p->memset.elementSize,
                p->memset.width, p->memset.height, nullptr};
    break;
  case cudaGraphNodeTypeHost: d.host = {p->host.fn, p->host.userData}; break;
  case cudaGraphNodeTypeGraph:
    d.graph = {reinterpret_cast<CUgraph>(p->graph.graph), static_cast<CUgraphChildGraphNodeOwnership>(p->graph.ownership)};
    break;
  case cudaGraphNodeTypeEmpty: break;
  case cudaGraphNodeTypeMemAlloc: std::memcpy(&d.alloc, &p->alloc, sizeof d.alloc); break;
  case cudaGraphNodeTypeMemFree: d.free.dptr = reinterpret_cast<CUdeviceptr>(p->free.dptr); break;
  case cudaGraphNodeTypeConditional:
    d.conditional.handle = p->conditional.handle;
    d.conditional.type = static_cast<CUgraphConditionalNodeType>(p->conditional.type);
    d.conditional.size = p->conditional.size;
    cuCtxGetCurrent(&d.conditional.ctx);
    break;
  case cudaGraphNodeTypeEventRecord: d.eventRecord.event = reinterpret_cast<CUevent>(p->eventRecord.event); break;
  case cudaGraphNodeTypeWaitEvent: d.eventWait.event = reinterpret_cast<CUevent>(p->eventWait.event); break;
  default: return fail(cudaErrorNotSupported);  // external semaphore nodes
  }
  const cudaError_t e = result(cuGraphAddNode_v2(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                                 reinterpret_cast<const CUgraphNode*>(deps),
                                                 reinterpret_cast<const CUgraphEdgeData*>(edges), count, &d));
  if (e != cudaSuccess) return e;
  if (p->type == cudaGraphNodeTypeMemAlloc) p->alloc.dptr = reinterpret_cast<void*>(d.alloc.dptr);
  if (p->type == cudaGraphNodeTypeConditional)
    p->conditional.phGraph_out = reinterpret_cast<cudaGraph_t*>(d.conditional.phGraph_out);
  return cudaSuccess;
}

}  // extern "C"
