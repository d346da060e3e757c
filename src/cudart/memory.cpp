// Memory: allocations, copies and sets, symbols' memory. The driver's addresses are unified with
// the host's (docs/Driver.md), so every copy kind is one cuMemcpy, as cudaMemcpyDefault is.
#include <cstring>

#include "runtime.h"

using namespace ptxvm::cudart;

namespace {

cudaError_t copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  if (!bytes) return cudaSuccess;
  if (!dst || !src) return fail(cudaErrorInvalidValue);
  return result(cuMemcpy(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), bytes));
}

// [offset, offset + bytes) of a registered variable's device memory: its address.
cudaError_t symbol_bytes(const void* symbol, size_t offset, size_t bytes, CUdeviceptr* at) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  size_t size;
  if (cudaError_t e = variable_of(symbol, at, &size); e != cudaSuccess) return fail(e);
  if (offset + bytes > size) return fail(cudaErrorInvalidValue);
  *at += offset;
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMalloc(void** p, size_t bytes) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  if (!bytes) {
    *p = nullptr;
    return cudaSuccess;
  }
  CUdeviceptr d;
  if (CUresult r = cuMemAlloc_v2(&d, bytes); r != CUDA_SUCCESS) return fail(cudaErrorMemoryAllocation);
  *p = reinterpret_cast<void*>(d);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocManaged(void** p, size_t bytes, unsigned flags) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdeviceptr d;
  if (CUresult r = cuMemAllocManaged(&d, bytes, flags ? flags : unsigned{CU_MEM_ATTACH_GLOBAL}); r != CUDA_SUCCESS)
    return fail(cudaErrorMemoryAllocation);
  *p = reinterpret_cast<void*>(d);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  if (!p || !pitch) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdeviceptr d;
  if (CUresult r = cuMemAllocPitch_v2(&d, pitch, width, height, 4); r != CUDA_SUCCESS)
    return fail(cudaErrorMemoryAllocation);
  *p = reinterpret_cast<void*>(d);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFree(void* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  if (!p) return cudaSuccess;
  return result(cuMemFree_v2(reinterpret_cast<CUdeviceptr>(p)));
}

cudaError_t CUDARTAPI cudaHostAlloc(void** p, size_t bytes, unsigned flags) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  if (CUresult r = cuMemHostAlloc(p, bytes, flags); r != CUDA_SUCCESS) return fail(cudaErrorMemoryAllocation);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocHost(void** p, size_t bytes) { return cudaHostAlloc(p, bytes, 0); }

cudaError_t CUDARTAPI cudaFreeHost(void* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemFreeHost(p));
}

cudaError_t CUDARTAPI cudaHostRegister(void* p, size_t bytes, unsigned flags) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemHostRegister_v2(p, bytes, flags));
}

cudaError_t CUDARTAPI cudaHostUnregister(void* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemHostUnregister(p));
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void** device, void* host, unsigned flags) {
  if (!device) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdeviceptr d;
  if (cudaError_t e = result(cuMemHostGetDevicePointer_v2(&d, host, flags)); e != cudaSuccess) return e;
  *device = reinterpret_cast<void*>(d);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t* free, size_t* total) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemGetInfo_v2(free, total));
}

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return copy(dst, src, bytes, kind);
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  if (!bytes) return cudaSuccess;
  return result(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), bytes,
                              reinterpret_cast<CUstream>(s)));
}

cudaError_t CUDARTAPI cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                   size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return fail(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e = copy(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch,
                             width, kind);
        e != cudaSuccess)
      return e;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                        size_t height, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t CUDARTAPI cudaMemset(void* p, int value, size_t bytes) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemsetD8_v2(reinterpret_cast<CUdeviceptr>(p), static_cast<unsigned char>(value), bytes));
}

cudaError_t CUDARTAPI cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(p), static_cast<unsigned char>(value), bytes,
                                reinterpret_cast<CUstream>(s)));
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void* symbol, const void* src, size_t bytes, size_t offset,
                                         cudaMemcpyKind kind) {
  CUdeviceptr at;
  if (cudaError_t e = symbol_bytes(symbol, offset, bytes, &at); e != cudaSuccess) return e;
  return copy(reinterpret_cast<void*>(at), src, bytes, kind);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t bytes, size_t offset,
                                              cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset,
                                           cudaMemcpyKind kind) {
  CUdeviceptr at;
  if (cudaError_t e = symbol_bytes(symbol, offset, bytes, &at); e != cudaSuccess) return e;
  return copy(dst, reinterpret_cast<const void*>(at), bytes, kind);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t bytes, size_t offset,
                                                cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}

// Managed memory is host memory the device shares: prefetching and advice change nothing.
cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void*, size_t, cudaMemLocation, unsigned, cudaStream_t) {
  return ready();
}

cudaError_t CUDARTAPI cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, cudaMemLocation) { return ready(); }

cudaError_t CUDARTAPI cudaPointerGetAttributes(cudaPointerAttributes* a, const void* p) {
  if (!a) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  *a = {};
  a->device = current_device();
  unsigned type = 0;
  if (cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS) {
    a->type = cudaMemoryTypeUnregistered;  // plain host memory
    return cudaSuccess;
  }
  int managed = 0;
  cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, reinterpret_cast<CUdeviceptr>(p));
  a->type = managed ? cudaMemoryTypeManaged : type == CU_MEMORYTYPE_HOST ? cudaMemoryTypeHost : cudaMemoryTypeDevice;
  a->devicePointer = const_cast<void*>(p);
  a->hostPointer = a->type == cudaMemoryTypeDevice ? nullptr : const_cast<void*>(p);
  return cudaSuccess;
}


cudaError_t CUDARTAPI cudaMemset2D(void* p, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch && height > 1) return fail(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e = cudaMemset(static_cast<char*>(p) + row * pitch, value, width); e != cudaSuccess) return e;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset2DAsync(void* p, size_t pitch, int value, size_t width, size_t height, cudaStream_t) {
  return cudaMemset2D(p, pitch, value, width, height);
}

// One device: a peer copy is a copy, between memory the device knows (device, managed, page-locked
// or registered; an H100 refuses pageable host memory, tests/hw/driver/capture).
cudaError_t CUDARTAPI cudaMemcpyPeer(void* dst, int, const void* src, int, size_t bytes) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdeviceptr device;
  for (const void* p : {static_cast<const void*>(dst), src})
    if (cuPointerGetAttribute(&device, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS)
      return fail(cudaErrorInvalidValue);
  return copy(dst, src, bytes, cudaMemcpyDefault);
}

cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                                          cudaStream_t) {
  return cudaMemcpyPeer(dst, dst_device, src, src_device, bytes);
}

}  // extern "C"
