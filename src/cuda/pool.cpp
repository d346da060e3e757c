// Stream-ordered allocation and memory pools (Driver API §6.14). Work runs when issued, so an
// allocation is ready at once and freeing returns it at once; a pool accounts for the bytes its
// allocations hold (used and reserved are the same: nothing is kept back) and keeps the
// attributes set on it.
#include <algorithm>

#include "driver.h"

using namespace ptxvm::cuda;

namespace {

CUdevice current_device() {
  const CUcontext c = current();
  return c ? c->device : 0;
}

bool known(CUmemoryPool pool) {
  Driver& d = driver();
  for (const auto& p : d.default_pools)
    if (p.get() == pool) return true;
  return std::find(d.created_pools.begin(), d.created_pools.end(), pool) != d.created_pools.end();
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool* pool, CUdevice dev) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (!pool || dev < 0 || size_t(dev) >= d.default_pools.size()) return CUDA_ERROR_INVALID_VALUE;
  *pool = d.default_pools[size_t(dev)].get();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool* pool, CUdevice dev) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (!pool || dev < 0 || size_t(dev) >= d.pools.size()) return CUDA_ERROR_INVALID_VALUE;
  *pool = d.pools[size_t(dev)];
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  if (dev < 0 || size_t(dev) >= d.pools.size() || !known(pool) || pool->props.location.id != dev)
    return CUDA_ERROR_INVALID_VALUE;
  d.pools[size_t(dev)] = pool;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  if (!pool || !props || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
      props->location.type != CU_MEM_LOCATION_TYPE_DEVICE || props->location.id < 0 ||
      size_t(props->location.id) >= d.default_pools.size())
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(d.mutex);
  auto* p = new CUmemPoolHandle_st;
  p->props = *props;
  d.created_pools.push_back(p);
  *pool = p;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  auto it = std::find(d.created_pools.begin(), d.created_pools.end(), pool);
  if (it == d.created_pools.end()) return CUDA_ERROR_INVALID_VALUE;  // a default pool is not destroyed
  for (CUmemoryPool& p : d.pools)
    if (p == pool) p = d.default_pools[size_t(&p - d.pools.data())].get();
  for (auto& [address, a] : d.allocations)  // what it still holds outlives it, as memory of no pool
    if (a.pool == pool) a.pool = nullptr;
  d.created_pools.erase(it);
  delete pool;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t) {
  if (CUresult r = ready()) return r;
  return known(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  if (!known(pool) || !value) return CUDA_ERROR_INVALID_VALUE;
  switch (attr) {
  case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
  case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
  case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
    pool->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES] = *static_cast<int*>(value) != 0;
    return CUDA_SUCCESS;
  case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: pool->threshold = *static_cast<cuuint64_t*>(value); return CUDA_SUCCESS;
  case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:  // may only be reset, to the current value
  case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
    if (*static_cast<cuuint64_t*>(value) != 0) return CUDA_ERROR_INVALID_VALUE;
    (attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH ? pool->used_high : pool->reserved_high) = pool->used;
    return CUDA_SUCCESS;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  if (!known(pool) || !value) return CUDA_ERROR_INVALID_VALUE;
  auto u64 = [&](cuuint64_t v) {
    *static_cast<cuuint64_t*>(value) = v;
    return CUDA_SUCCESS;
  };
  switch (attr) {
  case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
  case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
  case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
    *static_cast<int*>(value) = pool->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
    return CUDA_SUCCESS;
  case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: return u64(pool->threshold);
  case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
  case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: return u64(pool->used);
  case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: return u64(pool->reserved_high);
  case CU_MEMPOOL_ATTR_USED_MEM_HIGH: return u64(pool->used_high);
  default: return CUDA_ERROR_INVALID_VALUE;
  }
}

// On a capturing stream, an allocation node (graph.cpp) whose address is returned at once, as
// stream capture of cuMemAllocAsync gives it.
CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool, CUstream s) {
  if (CUresult r = ready()) return r;
  CUmemPoolProps props;
  {
    std::lock_guard lock(driver().mutex);
    if (!known(pool)) return CUDA_ERROR_INVALID_VALUE;
    props = pool->props;
  }
  if (!capturing(s)) return allocate(dptr, bytes, CU_MEMORYTYPE_DEVICE, false, pool);
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  *dptr = record(s, alloc_node(bytes, props))->alloc.dptr;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr* dptr, size_t bytes, CUstream s) {
  if (CUresult r = ready()) return r;
  return cuMemAllocFromPoolAsync(dptr, bytes, driver().pools[size_t(current_device())], s);
}

}  // extern "C"
