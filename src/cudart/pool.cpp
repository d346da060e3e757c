// Stream-ordered allocation and memory pools: the driver's (src/cuda/pool.cpp), whose pool
// properties and attributes the runtime's mirror value for value.
#include "runtime.h"

using namespace ptxvm::cudart;

static_assert(sizeof(cudaMemPoolProps) == sizeof(CUmemPoolProps));

extern "C" {

cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void** p, size_t bytes, cudaMemPool_t pool, cudaStream_t s) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdeviceptr d;
  if (cudaError_t e = result(cuMemAllocFromPoolAsync(&d, bytes, reinterpret_cast<CUmemoryPool>(pool),
                                                      reinterpret_cast<CUstream>(s)));
      e != cudaSuccess)
    return e;
  *p = reinterpret_cast<void*>(d);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocAsync(void** p, size_t bytes, cudaStream_t s) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdeviceptr d;
  if (cudaError_t e = result(cuMemAllocAsync(&d, bytes, reinterpret_cast<CUstream>(s))); e != cudaSuccess) return e;
  *p = reinterpret_cast<void*>(d);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFreeAsync(void* p, cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(p), reinterpret_cast<CUstream>(s)));
}

cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuDeviceGetDefaultMemPool(reinterpret_cast<CUmemoryPool*>(pool), device));
}

cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuDeviceGetMemPool(reinterpret_cast<CUmemoryPool*>(pool), device));
}

cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuDeviceSetMemPool(device, reinterpret_cast<CUmemoryPool>(pool)));
}

cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemPoolCreate(reinterpret_cast<CUmemoryPool*>(pool), reinterpret_cast<const CUmemPoolProps*>(props)));
}

cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t pool) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemPoolDestroy(reinterpret_cast<CUmemoryPool>(pool)));
}

cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemPoolTrimTo(reinterpret_cast<CUmemoryPool>(pool), keep));
}

cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemPoolSetAttribute(reinterpret_cast<CUmemoryPool>(pool), static_cast<CUmemPool_attribute>(attr), value));
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuMemPoolGetAttribute(reinterpret_cast<CUmemoryPool>(pool), static_cast<CUmemPool_attribute>(attr), value));
}

}  // extern "C"
