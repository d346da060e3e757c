// Graph memory nodes (cudaMallocAsync/cudaFreeAsync captured as allocation and free nodes,
// cudaGraphAddMemAllocNode/MemFreeNode), cudaGraphClone, memcpy node parameters, kernel node and
// stream attributes.
#include <vector>
#include "check.h"

__global__ void square_plus(const int* in, int* out, int add, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i] + add;
}

__global__ void fill(int* x, int value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = value + i;
}

static cudaGraphNodeType type_of(cudaGraphNode_t node) {
  cudaGraphNodeType t;
  CHECK(cudaGraphNodeGetType(node, &t));
  return t;
}

int main() {
  const int n = 1000;
  const size_t bytes = n * sizeof(int);
  int *host, *out;  // page-locked, as graph copies want
  CHECK(cudaMallocHost(&host, bytes));
  CHECK(cudaMallocHost(&out, bytes));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // Captured: two allocations, copy in, kernel, copy out, two frees -> 7 nodes (an allocation
  // node for each cudaMallocAsync, a free node for each cudaFreeAsync), run at every launch.
  int *in = nullptr, *tmp = nullptr;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&in, bytes, s));
  CHECK(cudaMallocAsync(&tmp, bytes, s));
  EXPECT(in && tmp && in != tmp);
  CHECK(cudaMemcpyAsync(in, host, bytes, cudaMemcpyHostToDevice, s));
  square_plus<<<(n + 255) / 256, 256, 0, s>>>(in, tmp, 7, n);
  CHECK(cudaMemcpyAsync(out, tmp, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(in, s));
  CHECK(cudaFreeAsync(tmp, s));
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s, &g));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  EXPECT(count == 7);
  std::vector<cudaGraphNode_t> nodes(count);
  CHECK(cudaGraphGetNodes(g, nodes.data(), &count));
  int allocs = 0, frees = 0, kernels = 0, copies = 0;
  for (cudaGraphNode_t node : nodes) {
    const cudaGraphNodeType t = type_of(node);
    allocs += t == cudaGraphNodeTypeMemAlloc, frees += t == cudaGraphNodeTypeMemFree;
    kernels += t == cudaGraphNodeTypeKernel, copies += t == cudaGraphNodeTypeMemcpy;
    if (t == cudaGraphNodeTypeMemAlloc) {
      cudaMemAllocNodeParams p;
      CHECK(cudaGraphMemAllocNodeGetParams(node, &p));
      EXPECT(p.bytesize == bytes && (p.dptr == in || p.dptr == tmp));
    }
    if (t == cudaGraphNodeTypeMemFree) {
      void* freed = nullptr;
      CHECK(cudaGraphMemFreeNodeGetParams(node, &freed));
      EXPECT(freed == in || freed == tmp);
    }
  }
  EXPECT(allocs == 2 && frees == 2 && kernels == 1 && copies == 2);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < n; ++i) host[i] = (i + round) % 50;
    for (int i = 0; i < n; ++i) out[i] = -1;
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; ++i) EXPECT(out[i] == host[i] * host[i] + 7);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));

  // Built node by node: an allocation the graph frees, and one it does not, which stays valid
  // after the launch until cudaFree.
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = bytes;
  cudaGraphNode_t alloc_a, alloc_b, fill_a, square, free_a;
  CHECK(cudaGraphAddMemAllocNode(&alloc_a, g, nullptr, 0, &ap));
  int* a = static_cast<int*>(ap.dptr);
  CHECK(cudaGraphAddMemAllocNode(&alloc_b, g, nullptr, 0, &ap));
  int* b = static_cast<int*>(ap.dptr);
  EXPECT(a && b && a != b);
  int value = 3, size = n, add = 1;
  void* fill_args[] = {&a, &value, &size};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(fill);
  kp.gridDim = dim3((n + 127) / 128), kp.blockDim = dim3(128);
  kp.kernelParams = fill_args;
  CHECK(cudaGraphAddKernelNode(&fill_a, g, &alloc_a, 1, &kp));
  void* square_args[] = {&a, &b, &add, &size};
  kp.func = reinterpret_cast<void*>(square_plus);
  kp.kernelParams = square_args;
  cudaGraphNode_t deps[] = {fill_a, alloc_b};
  CHECK(cudaGraphAddKernelNode(&square, g, deps, 2, &kp));
  CHECK(cudaGraphAddMemFreeNode(&free_a, g, &square, 1, a));
  cudaGraphNode_t again;
  EXPECT(cudaGraphAddMemFreeNode(&again, g, &free_a, 1, a) == cudaErrorInvalidValue);  // freed twice
  cudaGetLastError();

  // Kernel node attributes are kept and read back.
  cudaKernelNodeAttrValue attr = {};
  attr.priority = 0;
  CHECK(cudaGraphKernelNodeSetAttribute(square, cudaKernelNodeAttributePriority, &attr));
  cudaKernelNodeAttrValue attr_read = {};
  attr_read.priority = 99;
  CHECK(cudaGraphKernelNodeGetAttribute(square, cudaKernelNodeAttributePriority, &attr_read));
  EXPECT(attr_read.priority == 0);

  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  unsigned long long used = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  EXPECT(used >= bytes);  // b is live
  CHECK(cudaMemcpy(out, b, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(out[i] == (3 + i) * (3 + i) + 1);
  CHECK(cudaFree(b));  // an allocation the graph does not free: cudaFree frees it
  CHECK(cudaGraphLaunch(exec, s));  // allocates b again, at the same address
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(out, b, bytes, cudaMemcpyDeviceToHost));
  EXPECT(out[10] == 13 * 13 + 1);
  CHECK(cudaFreeAsync(b, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaDeviceGraphMemTrim(0));
  unsigned long long zero = 0;
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));

  // A clone runs as the original does; a memcpy node's parameters are read back and changed.
  int* d;
  CHECK(cudaMalloc(&d, bytes));
  int *first, *second;
  CHECK(cudaMallocHost(&first, bytes));
  CHECK(cudaMallocHost(&second, bytes));
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t fill_d, copy_out;
  value = 100;
  kp.func = reinterpret_cast<void*>(fill);
  void* fill_d_args[] = {&d, &value, &size};
  kp.kernelParams = fill_d_args;
  CHECK(cudaGraphAddKernelNode(&fill_d, g, nullptr, 0, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&copy_out, g, &fill_d, 1, first, d, bytes, cudaMemcpyDeviceToHost));
  cudaGraph_t clone;
  CHECK(cudaGraphClone(&clone, g));
  CHECK(cudaGraphGetNodes(clone, nullptr, &count));
  EXPECT(count == 2);
  cudaGraphNode_t cloned_copy;
  CHECK(cudaGraphNodeFindInClone(&cloned_copy, copy_out, clone));
  EXPECT(type_of(cloned_copy) == cudaGraphNodeTypeMemcpy);
  cudaMemcpy3DParms mp = {};
  CHECK(cudaGraphMemcpyNodeGetParams(cloned_copy, &mp));
  EXPECT(mp.dstPtr.ptr == first && mp.srcPtr.ptr == d);
  EXPECT(mp.extent.width == bytes && mp.extent.height == 1 && mp.extent.depth == 1);
  mp.dstPtr.ptr = second;
  CHECK(cudaGraphMemcpyNodeSetParams(cloned_copy, &mp));
  cudaGraphExec_t exec_clone;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphInstantiate(&exec_clone, clone, 0));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaGraphLaunch(exec_clone, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) EXPECT(first[i] == 100 + i && second[i] == 100 + i);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphExecDestroy(exec_clone));
  CHECK(cudaGraphDestroy(clone));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaFree(d));
  for (int* p : {host, out, first, second}) CHECK(cudaFreeHost(p));

  // Stream attributes: set, read back, copied to another stream.
  int max_window = 0;
  CHECK(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, 0));
  int* window;
  CHECK(cudaMalloc(&window, 4096));
  cudaStreamAttrValue sv = {};
  sv.accessPolicyWindow.base_ptr = window;
  sv.accessPolicyWindow.num_bytes = max_window < 4096 ? max_window : 4096;
  sv.accessPolicyWindow.hitRatio = 0.5f;
  sv.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  sv.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &sv));
  cudaStreamAttrValue read = {};
  CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &read));
  EXPECT(read.accessPolicyWindow.base_ptr == window && read.accessPolicyWindow.num_bytes == sv.accessPolicyWindow.num_bytes);
  EXPECT(read.accessPolicyWindow.hitRatio == 0.5f && read.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
  cudaStream_t s2;
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaStreamCopyAttributes(s2, s));
  read = {};
  CHECK(cudaStreamGetAttribute(s2, cudaStreamAttributeAccessPolicyWindow, &read));
  EXPECT(read.accessPolicyWindow.base_ptr == window && read.accessPolicyWindow.missProp == cudaAccessPropertyStreaming);
  CHECK(cudaCtxResetPersistingL2Cache());
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(window));
  CHECK(cudaStreamDestroy(s));
  return pass();
}
