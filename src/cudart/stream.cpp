// Streams and events. The driver runs work when it is issued (docs/Driver.md), so a stream is
// always idle and an event records the moment of its record.
#include "runtime.h"

using namespace ptxvm::cudart;

extern "C" {

cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t* s, unsigned flags, int priority) {
  if (!s) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamCreateWithPriority(reinterpret_cast<CUstream*>(s), flags, priority));
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  return cudaStreamCreateWithPriority(s, flags, 0);
}

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithPriority(s, 0, 0); }

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamDestroy_v2(reinterpret_cast<CUstream>(s)));
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamSynchronize(reinterpret_cast<CUstream>(s)));
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamQuery(reinterpret_cast<CUstream>(s)));
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t event, unsigned flags) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamWaitEvent(reinterpret_cast<CUstream>(s), reinterpret_cast<CUevent>(event), flags));
}

cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t s, unsigned* flags) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamGetFlags(reinterpret_cast<CUstream>(s), flags));
}

cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t s, int* priority) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamGetPriority(reinterpret_cast<CUstream>(s), priority));
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t callback, void* data, unsigned) {
  if (!callback) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  callback(s, cudaSuccess, data);  // the work before it has run
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* data) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuLaunchHostFunc(reinterpret_cast<CUstream>(s), fn, data));
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
  if (!event) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuEventCreate(reinterpret_cast<CUevent*>(event), flags));
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuEventRecord(reinterpret_cast<CUevent>(event), reinterpret_cast<CUstream>(s)));
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t s, unsigned) {
  return cudaEventRecord(event, s);
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuEventSynchronize(reinterpret_cast<CUevent>(event)));
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuEventQuery(reinterpret_cast<CUevent>(event)));
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuEventElapsedTime_v2(ms, reinterpret_cast<CUevent>(start), reinterpret_cast<CUevent>(end)));
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuEventDestroy_v2(reinterpret_cast<CUevent>(event)));
}


cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t, int* device) {
  if (!device) return fail(cudaErrorInvalidValue);
  *device = current_device();
  return ready();
}

// Stream attributes: the driver's (cudaLaunchAttributeValue and its ids are laid out as the
// driver's CUlaunchAttributeValue).
static_assert(sizeof(cudaStreamAttrValue) == sizeof(CUstreamAttrValue) &&
              int(cudaLaunchAttributeAccessPolicyWindow) == CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW &&
              int(cudaLaunchAttributePriority) == CU_LAUNCH_ATTRIBUTE_PRIORITY);

cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t s, cudaStreamAttrID id, const cudaStreamAttrValue* value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamSetAttribute(reinterpret_cast<CUstream>(s), static_cast<CUstreamAttrID>(id),
                                     reinterpret_cast<const CUstreamAttrValue*>(value)));
}

cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t s, cudaStreamAttrID id, cudaStreamAttrValue* value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamGetAttribute(reinterpret_cast<CUstream>(s), static_cast<CUstreamAttrID>(id),
                                     reinterpret_cast<CUstreamAttrValue*>(value)));
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuStreamCopyAttributes(reinterpret_cast<CUstream>(dst), reinterpret_cast<CUstream>(src)));
}

// No L2 cache to reset (the driver's cuCtxResetPersistingL2Cache).
cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache() {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuCtxResetPersistingL2Cache());
}

}  // extern "C"
