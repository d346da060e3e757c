// Initialisation, versions, devices, contexts and error names (CUDA Driver API §6.3-6.8).
#include "driver.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ptxvm::cuda {

Driver& driver() {
  static Driver* d = new Driver;  // never destroyed: the runtime calls in from exit handlers
  return *d;
}

CUcontext& current() {
  thread_local CUcontext c = nullptr;
  return c;
}

CUresult ready() {
  Driver& d = driver();
  if (!d.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  return d.sticky;
}

namespace {

Config read_config() {
  Config c;
  if (const char* cc = std::getenv("PTXVM_CC")) std::sscanf(cc, "%d.%d", &c.major, &c.minor);
  if (const char* n = std::getenv("PTXVM_DEVICE_COUNT")) c.devices = std::max(1, std::atoi(n));
  return c;
}

bool valid(CUdevice dev) { return dev >= 0 && dev < driver().config.devices; }

// The prologue of a device query: somewhere to answer, the driver ready, the device there.
CUresult query(const void* out, CUdevice dev) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  return valid(dev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

}  // namespace
}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;

extern "C" {

CUresult CUDAAPI cuInit(unsigned flags) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  if (!d.initialized) {
    d.config = read_config();
    d.device.place_at_host_addresses();  // a module's variables too: __managed__ ones are read on the host
    for (int i = 0; i < d.config.devices; ++i) {
      d.primary.push_back(std::make_unique<CUctx_st>());
      d.primary.back()->device = i;
      d.primary_refs.push_back(0);
      d.default_pools.push_back(std::make_unique<CUmemPoolHandle_st>());
      d.default_pools.back()->props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
      d.default_pools.back()->props.location = {CU_MEM_LOCATION_TYPE_DEVICE, i};
      d.pools.push_back(d.default_pools.back().get());
    }
    d.initialized = true;
    std::atexit(report_leaks);
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDriverGetVersion(int* version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = 13000;  // the driver whose entry points tests/hw/driver recorded
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int* count) {
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *count = driver().config.devices;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice* dev, int ordinal) {
  if (!dev) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (!valid(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *dev = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char* name, int len, CUdevice dev) {
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  const Config& c = driver().config;
  std::snprintf(name, static_cast<size_t>(len), "ptxvm sm_%d%d", c.major, c.minor);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  if (CUresult r = query(uuid, dev)) return r;
  std::memset(uuid->bytes, 0, sizeof uuid->bytes);
  std::memcpy(uuid->bytes, "ptxvm", 5);
  uuid->bytes[15] = static_cast<char>(dev);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  if (CUresult r = query(bytes, dev)) return r;
  *bytes = size_t{80} << 30;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *major = driver().config.major, *minor = driver().config.minor;
  return CUDA_SUCCESS;
}

// The PCI location "domain:bus:device.function" in hex (13 characters with the terminator, as
// cuDeviceGetPCIBusId documents): device n is on bus n (CU_DEVICE_ATTRIBUTE_PCI_BUS_ID).
CUresult CUDAAPI cuDeviceGetPCIBusId(char* id, int len, CUdevice dev) {
  if (!id || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = query(id, dev)) return r;
  std::snprintf(id, size_t(len), "%04x:%02x:%02x.0", 0, unsigned(dev), 0);
  return CUDA_SUCCESS;
}

// The device at a PCI location in any of the forms cuDeviceGetByPCIBusId takes:
// domain:bus:device.function, domain:bus:device or bus:device.function.
CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice* dev, const char* id) {
  if (!dev || !id) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  char end = 0;
  const bool parsed = std::sscanf(id, "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &end) == 4 ||
                      std::sscanf(id, "%x:%x:%x%c", &domain, &bus, &device, &end) == 3 ||
                      (domain = 0, std::sscanf(id, "%x:%x.%x%c", &bus, &device, &function, &end) == 3);
  if (!parsed) return CUDA_ERROR_INVALID_VALUE;
  if (domain != 0 || device != 0 || function != 0 || !valid(int(bus))) return CUDA_ERROR_INVALID_DEVICE;
  *dev = int(bus);
  return CUDA_SUCCESS;
}

// The deprecated CUdevprop summary, from the attributes.
CUresult CUDAAPI cuDeviceGetProperties(CUdevprop* p, CUdevice dev) {
  if (CUresult r = query(p, dev)) return r;
  auto get = [dev](CUdevice_attribute a) {
    int v = 0;
    cuDeviceGetAttribute(&v, a, dev);
    return v;
  };
  p->maxThreadsPerBlock = get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  for (int i = 0; i < 3; ++i) {
    p->maxThreadsDim[i] = get(CUdevice_attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i));
    p->maxGridSize[i] = get(CUdevice_attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i));
  }
  p->sharedMemPerBlock = get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  p->totalConstantMemory = get(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
  p->SIMDWidth = get(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  p->memPitch = get(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
  p->regsPerBlock = get(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  p->clockRate = get(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  p->textureAlign = get(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
  return CUDA_SUCCESS;
}

// ---- peers: every device's memory is the host's, so any two devices reach each other ----

CUresult CUDAAPI cuDeviceCanAccessPeer(int* can, CUdevice dev, CUdevice peer) {
  if (CUresult r = query(can, dev)) return r;
  if (!valid(peer)) return CUDA_ERROR_INVALID_DEVICE;
  *can = dev != peer;  // a device is not its own peer
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attr, CUdevice src, CUdevice dst) {
  if (CUresult r = query(value, src)) return r;
  if (!valid(dst) || src == dst) return CUDA_ERROR_INVALID_DEVICE;
  switch (attr) {
  case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK: *value = 0; break;
  case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
  case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
  case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED: *value = 1; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

// cuCtxEnablePeerAccess: flags must be 0; a context's own device is no peer; enabling twice is
// CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, disabling what is not enabled PEER_ACCESS_NOT_ENABLED.
CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peer, unsigned flags) {
  if (CUresult r = ready()) return r;
  CUcontext self = current();
  if (!self) return CUDA_ERROR_INVALID_CONTEXT;
  if (!peer) return CUDA_ERROR_INVALID_HANDLE;
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  if (peer->device == self->device) return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard lock(driver().mutex);
  for (CUcontext p : self->peers)
    if (p == peer) return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  self->peers.push_back(peer);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peer) {
  if (CUresult r = ready()) return r;
  CUcontext self = current();
  if (!self) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard lock(driver().mutex);
  for (auto it = self->peers.begin(); it != self->peers.end(); ++it)
    if (*it == peer) {
      self->peers.erase(it);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

// ---- contexts: one primary context per device; explicit contexts are the same object ----

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* ctx, CUdevice dev) {
  if (CUresult r = query(ctx, dev)) return r;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  ++d.primary_refs[static_cast<size_t>(dev)];
  *ctx = d.primary[static_cast<size_t>(dev)].get();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  int& refs = d.primary_refs[static_cast<size_t>(dev)];
  if (refs > 0) --refs;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned* flags, int* active) {
  if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  Driver& d = driver();
  *flags = d.primary[static_cast<size_t>(dev)]->flags;
  *active = d.primary_refs[static_cast<size_t>(dev)] > 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned flags) {
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  driver().primary[static_cast<size_t>(dev)]->flags = flags;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  report_leaks();
  CUctx_st& c = *driver().primary[static_cast<size_t>(dev)];
  auto stored = std::move(c.stored);
  for (auto& [key, s] : stored)
    if (s.destroy) s.destroy(&c, key, s.data);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxCreate_v4(CUcontext* ctx, CUctxCreateParams*, unsigned flags, CUdevice dev) {
  if (CUresult r = cuDevicePrimaryCtxRetain(ctx, dev)) return r;
  (*ctx)->flags = flags;
  current() = *ctx;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx) {
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  if (current() == ctx) current() = nullptr;
  return cuDevicePrimaryCtxRelease_v2(ctx->device);
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx) {
  if (CUresult r = ready()) return r;
  current() = ctx;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext* ctx) {
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  *ctx = current();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext ctx) { return cuCtxSetCurrent(ctx); }

CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext* ctx) {
  if (ctx) *ctx = current();
  current() = nullptr;
  return ready();
}

CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice* dev, CUcontext ctx) {
  if (!dev) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (!ctx) ctx = current();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *dev = ctx->device;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice* dev) { return cuCtxGetDevice_v2(dev, nullptr); }

CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext) { return ready(); }  // every launch has finished
CUresult CUDAAPI cuCtxSynchronize() { return ready(); }

CUresult CUDAAPI cuCtxGetFlags(unsigned* flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = current() ? current()->flags : 0;
  return ready();
}

CUresult CUDAAPI cuCtxGetApiVersion(CUcontext, unsigned* version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetLimit(size_t* value, CUlimit limit) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  switch (limit) {
  case CU_LIMIT_STACK_SIZE: *value = 1024; break;
  case CU_LIMIT_PRINTF_FIFO_SIZE: *value = 1 << 20; break;
  case CU_LIMIT_MALLOC_HEAP_SIZE: *value = driver().device.malloc_heap_size(); break;
  default: *value = 0;
  }
  return CUDA_SUCCESS;
}

// The device-side malloc heap's size is ptxvm's to keep (mem/device_heap.h); the other limits have
// nothing to bound here. "Setting CU_LIMIT_MALLOC_HEAP_SIZE must be performed before launching any
// kernel that uses the malloc() or free() device system calls" (here: while no block is live).
CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value) {
  if (limit == CU_LIMIT_MALLOC_HEAP_SIZE) {
    if (driver().device.malloc_heap_used()) return CUDA_ERROR_INVALID_VALUE;
    driver().device.set_malloc_heap_size(value);
  }
  return CUDA_SUCCESS;
}

// Cache and shared memory bank preferences have nothing to configure; the answers are the defaults.
CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache* config) {
  if (!config) return CUDA_ERROR_INVALID_VALUE;
  *config = CU_FUNC_CACHE_PREFER_NONE;
  return ready();
}
CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache) { return ready(); }
CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig* config) {
  if (!config) return CUDA_ERROR_INVALID_VALUE;
  *config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
  return ready();
}
CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig) { return ready(); }
CUresult CUDAAPI cuCtxResetPersistingL2Cache() { return ready(); }  // no cache to reset

CUresult CUDAAPI cuCtxSetFlags(unsigned flags) {
  if (CUresult r = ready()) return r;
  if (!current()) return CUDA_ERROR_INVALID_CONTEXT;
  current()->flags = flags;
  return CUDA_SUCCESS;
}

// A context's unique id: its address, as the tools table's context_id (private.cpp) gives it.
CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long* id) {
  if (!id) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (!ctx) ctx = current();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *id = reinterpret_cast<uintptr_t>(ctx);
  return CUDA_SUCCESS;
}

// The profiler API: no profiler runs, and starting or stopping it succeeds.
CUresult CUDAAPI cuProfilerInitialize(const char*, const char*, int) { return ready(); }  // cudaProfiler.h's
CUresult CUDAAPI cuProfilerStart() { return ready(); }
CUresult CUDAAPI cuProfilerStop() { return ready(); }

// ---- errors: NVIDIA's names and texts (errors.inc); an unknown code is CUDA_ERROR_INVALID_VALUE
// with a null answer, as cuGetErrorName/cuGetErrorString document ----

CUresult CUDAAPI cuGetErrorName(CUresult error, const char** name) {
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
#define PTXVM_ERROR(e, text) \
  case e: *name = #e; return CUDA_SUCCESS;
#include "errors.inc"
#undef PTXVM_ERROR
  default: *name = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char** text) {
  if (!text) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
#define PTXVM_ERROR(e, string) \
  case e: *text = string; return CUDA_SUCCESS;
#include "errors.inc"
#undef PTXVM_ERROR
  default: *text = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
}

}  // extern "C"
