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
CUresult CUDAAPI cuStreamSynchronize(CUstream) { return ready(); }
CUresult CUDAAPI cuStreamQuery(CUstream) { return ready(); }

// Stream capture (CUDA graphs) is not modelled: no stream is ever capturing, as a program that
// never called cuStreamBeginCapture sees on a GPU (PyTorch and Triton ask before each launch).
CUresult CUDAAPI cuStreamIsCapturing(CUstream, CUstreamCaptureStatus* status) {
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  *status = CU_STREAM_CAPTURE_STATUS_NONE;
  return ready();
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                                           const CUgraphNode** dependencies, size_t* count) {
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  *status = CU_STREAM_CAPTURE_STATUS_NONE;
  if (id) *id = 0;
  if (graph) *graph = nullptr;
  if (dependencies) *dependencies = nullptr;
  if (count) *count = 0;
  return ready();
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v3(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                                           const CUgraphNode** dependencies, const CUgraphEdgeData** edges,
                                           size_t* count) {
  if (edges) *edges = nullptr;
  return cuStreamGetCaptureInfo_v2(s, status, id, graph, dependencies, count);
}
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
CUresult CUDAAPI cuLaunchHostFunc(CUstream, CUhostFn fn, void* data) {
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
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
CUresult CUDAAPI cuEventRecord(CUevent e, CUstream) {
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  e->recorded = true;
  e->milliseconds = now_ms();
  return ready();
}
CUresult CUDAAPI cuEventRecordWithFlags(CUevent e, CUstream s, unsigned) { return cuEventRecord(e, s); }
CUresult CUDAAPI cuEventSynchronize(CUevent e) { return e ? ready() : CUDA_ERROR_INVALID_HANDLE; }
CUresult CUDAAPI cuEventQuery(CUevent e) { return e ? ready() : CUDA_ERROR_INVALID_HANDLE; }
CUresult CUDAAPI cuEventElapsedTime_v2(float* ms, CUevent start, CUevent end) {
  if (!ms || !start || !end) return CUDA_ERROR_INVALID_VALUE;
  if (!start->recorded || !end->recorded) return CUDA_ERROR_INVALID_HANDLE;
  *ms = static_cast<float>(end->milliseconds - start->milliseconds);
  return ready();
}

}  // extern "C"
