// Streams and events (CUDA Driver API §6.15-6.16): work runs when it is issued, so a stream has
// always finished and an event records the host clock.
#include <algorithm>
#include <chrono>

#include "driver.h"

using namespace ptxvm::cuda;

namespace {
// The NULL, legacy and per-thread streams' attributes: one set, as every stream runs at once.
CUstream_st& stream_or_default(CUstream s) {
  static CUstream_st default_stream;
  const uintptr_t handle = reinterpret_cast<uintptr_t>(s);
  return handle <= reinterpret_cast<uintptr_t>(CU_STREAM_PER_THREAD) ? default_stream : *s;
}

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

extern "C" {

CUresult CUDAAPI cuStreamCreate(CUstream* s, unsigned flags) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *s = new CUstream_st;
  (*s)->flags = flags;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* s, unsigned flags, int priority) {
  if (CUresult r = cuStreamCreate(s, flags)) return r;
  (*s)->priority = priority;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamDestroy_v2(CUstream s) {
  if (capturing(s)) leave_capture(s);
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

// Work runs when issued, so a wait orders nothing, except in stream capture: waiting on an event
// recorded in a capture joins the capture after the event's nodes (cross-stream capture).
CUresult CUDAAPI cuStreamWaitEvent(CUstream s, CUevent e, unsigned) {
  if (CUresult r = ready()) return r;
  if (e && e->captured) join_capture(s, e);
  return CUDA_SUCCESS;
}
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
  if (capturing(s)) {
    CUgraphNode_st node;
    node.type = CU_GRAPH_NODE_TYPE_HOST;
    node.host = {fn, data};
    record(s, std::move(node));
    return CUDA_SUCCESS;
  }
  fn(data);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent* e, unsigned flags) {
  if (!e) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *e = new CUevent_st;
  (*e)->flags = flags;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventDestroy_v2(CUevent e) {
  delete e;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventRecord(CUevent e, CUstream s) {
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  e->captured = capturing(s) != nullptr;  // no graph node: the event marks a point of the capture
  if (e->captured) {
    e->graph = s->capture, e->nodes = s->tail;
    return ready();
  }
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

// Stream attributes (cuStreamSetAttribute): those valid for streams are kept and read back; the
// priority is the stream's, clamped to cuCtxGetStreamPriorityRange's [-5, 0]; others are
// CUDA_ERROR_INVALID_VALUE. They change nothing, since work runs when it is issued.
CUresult CUDAAPI cuStreamGetAttribute(CUstream s, CUstreamAttrID id, CUstreamAttrValue* value) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  const CUstream_st& st = stream_or_default(s);
  switch (id) {
  case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: value->accessPolicyWindow = st.window; break;
  case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY: value->syncPolicy = st.sync_policy; break;
  case CU_LAUNCH_ATTRIBUTE_PRIORITY: value->priority = st.priority; break;
  case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: value->memSyncDomainMap = st.domain_map; break;
  case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN: value->memSyncDomain = st.domain; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSetAttribute(CUstream s, CUstreamAttrID id, const CUstreamAttrValue* value) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  CUstream_st& st = stream_or_default(s);
  switch (id) {
  case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
    // a window within CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, a hit ratio in [0, 1]
    const CUaccessPolicyWindow& w = value->accessPolicyWindow;
    int max_window = 0;
    cuDeviceGetAttribute(&max_window, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, 0);
    if (w.num_bytes > size_t(max_window) || !(w.hitRatio >= 0.f && w.hitRatio <= 1.f)) return CUDA_ERROR_INVALID_VALUE;
    st.window = w;
    break;
  }
  case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
    if (value->syncPolicy < CU_SYNC_POLICY_AUTO || value->syncPolicy > CU_SYNC_POLICY_BLOCKING_SYNC)
      return CUDA_ERROR_INVALID_VALUE;
    st.sync_policy = value->syncPolicy;
    break;
  case CU_LAUNCH_ATTRIBUTE_PRIORITY: st.priority = std::clamp(value->priority, -5, 0); break;
  case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: st.domain_map = value->memSyncDomainMap; break;
  case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN: st.domain = value->memSyncDomain; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src) {
  if (CUresult r = ready()) return r;
  CUstream_st& to = stream_or_default(dst);
  const CUstream_st& from = stream_or_default(src);
  to.window = from.window, to.sync_policy = from.sync_policy, to.priority = from.priority;
  to.domain_map = from.domain_map, to.domain = from.domain;
  return CUDA_SUCCESS;
}

// A stream's id, context and device: its address; the current context (streams belong to no
// other here) and that context's device.
CUresult CUDAAPI cuStreamGetId(CUstream s, unsigned long long* id) {
  if (!id) return CUDA_ERROR_INVALID_VALUE;
  *id = reinterpret_cast<uintptr_t>(s);
  return ready();
}
CUresult CUDAAPI cuStreamGetCtx(CUstream, CUcontext* ctx) {
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *ctx = current() ? current() : driver().primary[0].get();
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamGetCtx_v2(CUstream s, CUcontext* ctx, CUgreenCtx* green) {
  if (green) *green = nullptr;  // no green contexts
  return cuStreamGetCtx(s, ctx);
}
CUresult CUDAAPI cuStreamGetDevice(CUstream s, CUdevice* dev) {
  if (!dev) return CUDA_ERROR_INVALID_VALUE;
  CUcontext ctx = nullptr;
  if (CUresult r = cuStreamGetCtx(s, &ctx)) return r;
  *dev = ctx->device;
  return CUDA_SUCCESS;
}

// This thread's stream capture mode (cuThreadExchangeStreamCaptureMode): the new one in, the old out.
CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode) {
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  thread_local CUstreamCaptureMode held = CU_STREAM_CAPTURE_MODE_GLOBAL;
  std::swap(held, *mode);
  return ready();
}

}  // extern "C"
