// Memory (CUDA Driver API §6.13): device, host and managed allocations are all host memory
// adopted by the device at its own address, so a pointer means the same on both sides; copies
// are memcpy between the bytes each side resolves to.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "driver.h"

namespace ptxvm::cuda {

void* device_bytes(uint64_t address, size_t bytes) { return driver().device.host_pointer(address, bytes); }

constexpr size_t kAlign = 256;  // cudaMalloc's alignment

CUresult allocate(CUdeviceptr* out, size_t bytes, CUmemorytype type, bool managed, CUmemoryPool pool) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  const size_t rounded = (std::max<size_t>(bytes, 1) + kAlign - 1) / kAlign * kAlign;
  void* host = std::aligned_alloc(kAlign, rounded);
  if (!host) return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(host, 0, rounded);
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  *out = d.device.adopt(host, bytes ? bytes : 1);
  d.allocations[*out] = {host, bytes, type, managed, pool, nullptr};
  if (pool) {
    pool->used += bytes;
    pool->used_high = std::max(pool->used_high, pool->used);
    pool->reserved_high = std::max(pool->reserved_high, pool->used);
  }
  return CUDA_SUCCESS;
}

CUresult release(uint64_t address) {
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  auto it = d.allocations.find(address);
  if (it == d.allocations.end()) return CUDA_ERROR_INVALID_VALUE;
  d.device.free(address);
  if (GraphMemory* g = it->second.graph.get()) {  // invalid again; its reservation keeps the bytes
    g->live = false;
    d.graph_used -= g->bytes;
  } else {
    std::free(it->second.host);
  }
  if (CUmemoryPool pool = it->second.pool) pool->used -= it->second.bytes;
  d.allocations.erase(it);
  return CUDA_SUCCESS;
}

void report_leaks() {
  const char* env = std::getenv("PTXVM_CHECK");
  const std::optional<ptxvm::Checks> checks = env ? ptxvm::Checks::parse(env, nullptr) : std::nullopt;
  if (!checks || !checks->memcheck) return;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  std::string text;
  uint64_t bytes = 0, count = 0;
  for (const auto& [address, a] : d.allocations) {
    if (std::find(d.leaks_reported.begin(), d.leaks_reported.end(), address) != d.leaks_reported.end()) continue;
    d.leaks_reported.push_back(address);
    char line[160];
    std::snprintf(line, sizeof line, "========= memcheck: leaked %zu bytes at 0x%llx (allocated, never freed)\n",
                  a.bytes, static_cast<unsigned long long>(address));
    text += line;
    bytes += a.bytes;
    ++count;
  }
  if (!count) return;
  text += "========= LEAK SUMMARY: " + std::to_string(bytes) + " bytes leaked in " + std::to_string(count) +
          (count == 1 ? " allocation\n" : " allocations\n");
  std::fputs(text.c_str(), stderr);
}

namespace {

// The bytes at `address` for a copy: device memory's, or (unified addressing) host memory.
void* bytes_at(uint64_t address, size_t n) {
  if (void* p = device_bytes(address, n)) return p;
  return reinterpret_cast<void*>(address);
}

CUresult copy(uint64_t dst, uint64_t src, size_t n, bool dst_device, bool src_device) {
  if (CUresult r = ready()) return r;
  if (n == 0) return CUDA_SUCCESS;
  void* to = dst_device ? device_bytes(dst, n) : reinterpret_cast<void*>(dst);
  const void* from = src_device ? device_bytes(src, n) : reinterpret_cast<const void*>(src);
  if (!to || !from) return CUDA_ERROR_INVALID_VALUE;
  std::memmove(to, from, n);
  return CUDA_SUCCESS;
}

// On a capturing stream (graph.cpp): the copy or memset recorded as a node, CUDA_SUCCESS; else
// nothing, and false.
bool captured_copy(CUstream s, CUdeviceptr dst, CUdeviceptr src, size_t n) {
  if (!capturing(s)) return false;
  CUgraphNode_st node;
  node.type = CU_GRAPH_NODE_TYPE_MEMCPY;
  node.copy.srcMemoryType = node.copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  node.copy.srcDevice = src, node.copy.dstDevice = dst;
  node.copy.WidthInBytes = n, node.copy.Height = 1, node.copy.Depth = 1;
  record(s, std::move(node));
  return true;
}

// A memset node is 2D (CUDA_MEMSET_NODE_PARAMS): `h` rows of `w` elements, `pitch` bytes apart.
bool captured_set_2d(CUstream s, CUdeviceptr dst, size_t pitch, unsigned value, unsigned element, size_t w, size_t h) {
  if (!capturing(s)) return false;
  CUgraphNode_st node;
  node.type = CU_GRAPH_NODE_TYPE_MEMSET;
  node.set = {dst, pitch, value, element, w, h};
  record(s, std::move(node));
  return true;
}

bool captured_set(CUstream s, CUdeviceptr dst, unsigned value, unsigned element, size_t count) {
  return captured_set_2d(s, dst, 0, value, element, count, 1);
}

template <typename T>
CUresult fill(CUdeviceptr dst, T value, size_t count) {
  if (CUresult r = ready()) return r;
  T* p = static_cast<T*>(device_bytes(dst, count * sizeof(T)));
  if (!p && count) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) p[i] = value;
  return CUDA_SUCCESS;
}


// cuMemsetD2D*: `height` rows of `width` elements, `pitch` bytes apart (cuMemsetD2D8 documents the
// pitch as the row's span in bytes, at least width elements).
template <typename T>
CUresult fill_2d(CUdeviceptr dst, size_t pitch, T value, size_t width, size_t height) {
  if (CUresult r = ready()) return r;
  if (height > 1 && pitch < width * sizeof(T)) return CUDA_ERROR_INVALID_VALUE;
  for (size_t y = 0; y < height; ++y)
    if (CUresult r = fill<T>(dst + y * pitch, value, width)) return r;
  return CUDA_SUCCESS;
}

// The bytes of each pointer attribute's answer (cuPointerGetAttribute's types), for the default
// answers of cuPointerGetAttributes.
size_t attribute_bytes(CUpointer_attribute a) {
  switch (a) {
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
  case CU_POINTER_ATTRIBUTE_IS_MANAGED:
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: return 4;
  case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
  case CU_POINTER_ATTRIBUTE_MAPPED:
  case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
  case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE: return 1;
  default: return 8;
  }
}

}  // namespace
}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;

extern "C" {

CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytes) { return allocate(dptr, bytes); }
CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* dptr, size_t bytes, unsigned) {
  return allocate(dptr, bytes, CU_MEMORYTYPE_DEVICE, true);
}
CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pitch, size_t width, size_t height, unsigned) {
  if (!pitch) return CUDA_ERROR_INVALID_VALUE;
  *pitch = (width + 511) / 512 * 512;
  return allocate(dptr, *pitch * height);
}

CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr) { return dptr ? release(dptr) : CUDA_SUCCESS; }
// On a capturing stream, a free node (graph.cpp).
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream s) {
  CUgraph_st* g = capturing(s);
  if (!g) return cuMemFree_v2(dptr);
  if (CUresult r = ready()) return r;
  CUgraphNode_st node;
  if (CUresult r = free_node(g, dptr, node)) return r;
  record(s, std::move(node));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAllocHost_v2(void** p, size_t bytes) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUdeviceptr a = 0;
  CUresult r = allocate(&a, bytes, CU_MEMORYTYPE_HOST);
  *p = reinterpret_cast<void*>(a);
  return r;
}
CUresult CUDAAPI cuMemHostAlloc(void** p, size_t bytes, unsigned) { return cuMemAllocHost_v2(p, bytes); }
CUresult CUDAAPI cuMemFreeHost(void* p) { return release(reinterpret_cast<uintptr_t>(p)); }
CUresult CUDAAPI cuMemHostGetDevicePointer_v2(CUdeviceptr* dptr, void* p, unsigned) {
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  *dptr = reinterpret_cast<uintptr_t>(p);
  return ready();
}
CUresult CUDAAPI cuMemHostGetFlags(unsigned* flags, void*) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = 0;
  return ready();
}

CUresult CUDAAPI cuMemHostRegister_v2(void* p, size_t bytes, unsigned) {
  if (!p || !bytes) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  const uint64_t a = d.device.adopt(p, bytes);
  if (a != reinterpret_cast<uintptr_t>(p)) {
    d.device.free(a);
    return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  }
  d.registered[a] = bytes;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemHostUnregister(void* p) {
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  try {
    d.device.free(reinterpret_cast<uintptr_t>(p));
  } catch (const std::exception&) {
    return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  }
  d.registered.erase(reinterpret_cast<uintptr_t>(p));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemGetInfo_v2(size_t* free_bytes, size_t* total) {
  if (!free_bytes || !total) return CUDA_ERROR_INVALID_VALUE;
  *total = size_t{80} << 30;
  *free_bytes = *total;
  return ready();
}

CUresult CUDAAPI cuMemGetAddressRange_v2(CUdeviceptr* base, size_t* size, CUdeviceptr dptr) {
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  auto it = d.allocations.upper_bound(dptr);
  if (it == d.allocations.begin()) return CUDA_ERROR_NOT_FOUND;
  --it;
  if (dptr - it->first >= std::max<size_t>(it->second.bytes, 1)) return CUDA_ERROR_NOT_FOUND;
  if (base) *base = it->first;
  if (size) *size = it->second.bytes;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  if (!data) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  const bool device = device_bytes(ptr, 1) != nullptr;
  // what holds ptr: an allocation (device, page-locked host or managed memory), registered host
  // memory, or a module's variable (device memory)
  CUmemorytype type = device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  bool managed = false;
  {
    Driver& d = driver();
    std::lock_guard lock(d.mutex);
    if (auto it = d.allocations.upper_bound(ptr); it != d.allocations.begin()) {
      --it;
      if (ptr - it->first < std::max<size_t>(it->second.bytes, 1)) type = it->second.type, managed = it->second.managed;
    }
    if (auto it = d.registered.upper_bound(ptr); it != d.registered.begin() && ptr - std::prev(it)->first < std::prev(it)->second)
      type = CU_MEMORYTYPE_HOST;
  }
  switch (attribute) {
  case CU_POINTER_ATTRIBUTE_CONTEXT: *static_cast<CUcontext*>(data) = driver().primary[0].get(); break;
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned*>(data) = type; break;
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
  case CU_POINTER_ATTRIBUTE_HOST_POINTER: *static_cast<void**>(data) = reinterpret_cast<void*>(ptr); break;
  case CU_POINTER_ATTRIBUTE_IS_MANAGED: *static_cast<unsigned*>(data) = managed; break;
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data) = 0; break;
  case CU_POINTER_ATTRIBUTE_MAPPED: *static_cast<bool*>(data) = device; break;
  case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *static_cast<bool*>(data) = true; break;  // every copy is synchronous
  case CU_POINTER_ATTRIBUTE_BUFFER_ID:  // unique while the allocation lives: its address
  case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: {
    CUdeviceptr base = 0;
    if (CUresult r = cuMemGetAddressRange_v2(&base, nullptr, ptr)) return r;
    if (attribute == CU_POINTER_ATTRIBUTE_BUFFER_ID) *static_cast<unsigned long long*>(data) = base;
    else *static_cast<CUmemoryPool*>(data) = driver().allocations[base].pool;
    break;
  }
  case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
  case CU_POINTER_ATTRIBUTE_RANGE_SIZE: {
    CUdeviceptr base = 0;
    size_t size = 0;
    if (CUresult r = cuMemGetAddressRange_v2(&base, &size, ptr)) return r;
    if (attribute == CU_POINTER_ATTRIBUTE_RANGE_SIZE) *static_cast<size_t*>(data) = size;
    else *static_cast<CUdeviceptr*>(data) = base;
    break;
  }
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return device || attribute == CU_POINTER_ATTRIBUTE_MEMORY_TYPE ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t n) {
  return copy(dst, reinterpret_cast<uintptr_t>(src), n, true, false);
}
CUresult CUDAAPI cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t n) {
  return copy(reinterpret_cast<uintptr_t>(dst), src, n, false, true);
}
CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) { return copy(dst, src, n, true, true); }
CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  if (CUresult r = ready()) return r;
  std::memmove(bytes_at(dst, n), bytes_at(src, n), n);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t n, CUstream s) {
  if (captured_copy(s, dst, reinterpret_cast<uintptr_t>(src), n)) return CUDA_SUCCESS;
  return cuMemcpyHtoD_v2(dst, src, n);
}
CUresult CUDAAPI cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, size_t n, CUstream s) {
  if (captured_copy(s, reinterpret_cast<uintptr_t>(dst), src, n)) return CUDA_SUCCESS;
  return cuMemcpyDtoH_v2(dst, src, n);
}
CUresult CUDAAPI cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  if (captured_copy(s, dst, src, n)) return CUDA_SUCCESS;
  return cuMemcpyDtoD_v2(dst, src, n);
}
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  if (captured_copy(s, dst, src, n)) return CUDA_SUCCESS;
  return cuMemcpy(dst, src, n);
}

CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) { return fill<uint8_t>(dst, v, n); }
CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr dst, unsigned short v, size_t n) { return fill<uint16_t>(dst, v, n); }
CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr dst, unsigned v, size_t n) { return fill<uint32_t>(dst, v, n); }
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s) {
  return captured_set(s, dst, v, 1, n) ? CUDA_SUCCESS : fill<uint8_t>(dst, v, n);
}
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n, CUstream s) {
  return captured_set(s, dst, v, 2, n) ? CUDA_SUCCESS : fill<uint16_t>(dst, v, n);
}
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n, CUstream s) {
  return captured_set(s, dst, v, 4, n) ? CUDA_SUCCESS : fill<uint32_t>(dst, v, n);
}

// Several attributes at once; a pointer the driver does not know (ordinary host memory) is no
// error here: every answer is the default null value (cuPointerGetAttributes).
CUresult CUDAAPI cuPointerGetAttributes(unsigned count, CUpointer_attribute* attributes, void** data, CUdeviceptr ptr) {
  if (!attributes || !data) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  const bool known = device_bytes(ptr, 1) != nullptr;
  for (unsigned i = 0; i < count; ++i) {
    if (!data[i]) return CUDA_ERROR_INVALID_VALUE;
    if (!known) {
      std::memset(data[i], 0, attribute_bytes(attributes[i]));
      continue;
    }
    if (CUresult r = cuPointerGetAttribute(data[i], attributes[i], ptr)) return r;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h) {
  return fill_2d<uint8_t>(dst, pitch, v, w, h);
}
CUresult CUDAAPI cuMemsetD2D16_v2(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h) {
  return fill_2d<uint16_t>(dst, pitch, v, w, h);
}
CUresult CUDAAPI cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h) {
  return fill_2d<uint32_t>(dst, pitch, v, w, h);
}
CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s) {
  return captured_set_2d(s, dst, pitch, v, 1, w, h) ? CUDA_SUCCESS : cuMemsetD2D8_v2(dst, pitch, v, w, h);
}
CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s) {
  return captured_set_2d(s, dst, pitch, v, 2, w, h) ? CUDA_SUCCESS : cuMemsetD2D16_v2(dst, pitch, v, w, h);
}
CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h, CUstream s) {
  return captured_set_2d(s, dst, pitch, v, 4, w, h) ? CUDA_SUCCESS : cuMemsetD2D32_v2(dst, pitch, v, w, h);
}

// Copies between contexts: every device's memory is in one address space, so a peer copy is a
// device-to-device copy; the contexts must be given (cuMemcpyPeer).
CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n) {
  if (!dst_ctx || !src_ctx) return CUDA_ERROR_INVALID_CONTEXT;
  return cuMemcpyDtoD_v2(dst, src, n);
}
CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n,
                                   CUstream s) {
  if (!dst_ctx || !src_ctx) return CUDA_ERROR_INVALID_CONTEXT;
  return cuMemcpyDtoDAsync_v2(dst, src, n, s);
}
CUresult CUDAAPI cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  const CUDA_MEMCPY3D c{p->srcXInBytes, p->srcY, p->srcZ, p->srcLOD, p->srcMemoryType, p->srcHost, p->srcDevice,
                        p->srcArray,    nullptr,  p->srcPitch, p->srcHeight, p->dstXInBytes, p->dstY, p->dstZ,
                        p->dstLOD,      p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, nullptr,
                        p->dstPitch,    p->dstHeight, p->WidthInBytes, p->Height, p->Depth};
  return cuMemcpy3D_v2(&c);
}
CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER* p, CUstream) { return cuMemcpy3DPeer(p); }

// Managed memory is host memory the device uses in place: prefetches and advice have nothing to
// move, and attaching memory to a stream changes nothing (cuMemPrefetchAsync, cuMemAdvise,
// cuStreamAttachMemAsync); the range must be memory the driver knows.
#undef cuMemPrefetchAsync
#undef cuMemAdvise
CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, CUmemLocation, unsigned, CUstream) {
  if (CUresult r = ready()) return r;
  return n && device_bytes(p, n) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice, CUstream s) {  // CUDA 8-12's
  return cuMemPrefetchAsync_v2(p, n, {}, 0, s);
}
CUresult CUDAAPI cuMemAdvise_v2(CUdeviceptr p, size_t n, CUmem_advise, CUmemLocation) {
  return cuMemPrefetchAsync_v2(p, n, {}, 0, nullptr);
}
CUresult CUDAAPI cuMemAdvise(CUdeviceptr p, size_t n, CUmem_advise, CUdevice) {  // CUDA 8-12's
  return cuMemPrefetchAsync_v2(p, n, {}, 0, nullptr);
}
CUresult CUDAAPI cuStreamAttachMemAsync(CUstream, CUdeviceptr p, size_t, unsigned) {
  if (CUresult r = ready()) return r;
  return device_bytes(p, 1) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

}  // extern "C"
