// Streams and events (CUDA Driver API §6.15-6.16): work runs when it is issued, so a stream has
// always finished and an event records the host clock.
#include <chrono>

#include "driver.h"

using namespace ptxvm::cuda;

namespace {
double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

extern "C" {

CUresult CUDAAPI cuStreamCreate(CUstream* s, unsigned flags) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *s = new CUstream_st{flags, 0};
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* s, unsigned flags, int priority) {
  if (CUresult r = cuStreamCreate(s, flags)) return r;
  (*s)->priority = priority;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamDestroy_v2(CUstream s) {
  delete s;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamSynchronize(CUstream s) {
  CUgraph_st* g = capturing(s);
  if (!g) return ready();
  g->invalidated = true;
  return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}
CUresult CUDAAPI cuStreamQuery(CUstream) { return ready(); }

CUresult CUDAAPI cuStreamWaitEvent(CUstream, CUevent, unsigned) { return ready(); }
CUresult CUDAAPI cuStreamGetFlags(CUstream s, unsigned* flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = s ? s->flags : 0;
  return ready();
}
CUresult CUDAAPI cuStreamGetPriority(CUstream s, int* priority) {
  if (!priority) return CUDA_ERROR_INVALID_VALUE;
  *priority = s ? s->priority : 0;
  return ready();
}
CUresult CUDAAPI cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return ready();
}
CUresult CUDAAPI cuStreamAddCallback(CUstream s, CUstreamCallback callback, void* data, unsigned) {
  if (!callback) return CUDA_ERROR_INVALID_VALUE;
  const CUresult r = ready();
  callback(s, r, data);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLaunchHostFunc(CUstream s, CUhostFn fn, void* data) {
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (CUgraph_st* g = capturing(s)) {
    CUgraphNode_st node;
    node.type = CU_GRAPH_NODE_TYPE_HOST;
    node.host = {fn, data};
    record(g, std::move(node));
    return CUDA_SUCCESS;
  }
  fn(data);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent* e, unsigned flags) {
  if (!e) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *e = new CUevent_st{flags, false, 0};
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventDestroy_v2(CUevent e) {
  delete e;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventRecord(CUevent e, CUstream s) {
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  e->captured = capturing(s) != nullptr;  // no graph node: the event marks a point of the capture
  if (e->captured) return ready();
  e->recorded = true;
  e->milliseconds = now_ms();
  return ready();
}
CUresult CUDAAPI cuEventRecordWithFlags(CUevent e, CUstream s, unsigned) { return cuEventRecord(e, s); }
CUresult CUDAAPI cuEventSynchronize(CUevent e) {
  return !e ? CUDA_ERROR_INVALID_HANDLE : e->captured ? CUDA_ERROR_INVALID_VALUE : ready();
}
CUresult CUDAAPI cuEventQuery(CUevent e) {
  return !e ? CUDA_ERROR_INVALID_HANDLE : e->captured ? CUDA_ERROR_INVALID_VALUE : ready();
}
CUresult CUDAAPI cuEventElapsedTime_v2(float* ms, CUevent start, CUevent end) {
  if (!ms || !start || !end || start->captured || end->captured) return CUDA_ERROR_INVALID_VALUE;
  if (!start->recorded || !end->recorded) return CUDA_ERROR_INVALID_HANDLE;
  *ms = static_cast<float>(end->milliseconds - start->milliseconds);
  return ready();
}

}  // extern "C"
