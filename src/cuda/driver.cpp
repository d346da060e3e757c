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

// The attributes of an H100 SXM (sm_90) as its driver reports them; those that depend on the
// compute capability follow PTXVM_CC.
int attribute(CUdevice_attribute a) {
  const Config& c = driver().config;
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return 1024;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return 1024;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return 64;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return 2147483647;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return 65535;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: return 48 * 1024;
  case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return 64 * 1024;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return 32;
  case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return 2147483647;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: return 65536;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return 1980000;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return 2619000;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return 5120;
  case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: return 512;
  case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: return 32;
  case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT: return 512;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return 132;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: return CU_COMPUTEMODE_DEFAULT;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return 50 * 1024 * 1024;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: return 2048;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return 32;
  case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: return 2;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return c.major;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return c.minor;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return 228 * 1024;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return 227 * 1024;
  case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: return 1024;
  case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: return 2;
  case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: return 0;
  case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: return 0;
  case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE: return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE: return 134213632;
  // what a CPU-backed device with unified memory can do
  case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
  case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
  case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
  case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS:
  case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST:
  case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
  case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
  case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
  case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH:
    return 1;
  default: return 0;
  }
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

CUresult CUDAAPI cuDeviceGetAttribute(int* value, CUdevice_attribute attr, CUdevice dev) {
  if (CUresult r = query(value, dev)) return r;
  if (attr <= 0 || attr >= CU_DEVICE_ATTRIBUTE_MAX) return CUDA_ERROR_INVALID_VALUE;
  *value = attribute(attr);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *major = driver().config.major, *minor = driver().config.minor;
  return CUDA_SUCCESS;
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
  case CU_LIMIT_MALLOC_HEAP_SIZE: *value = 8 << 20; break;
  default: *value = 0;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetLimit(CUlimit, size_t) { return CUDA_SUCCESS; }

// ---- errors ----

CUresult CUDAAPI cuGetErrorName(CUresult error, const char** name) {
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
#define PTXVM_ERROR(e) \
  case e: *name = #e; return CUDA_SUCCESS;
#include "errors.inc"
#undef PTXVM_ERROR
  default: *name = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char** text) {
  if (!text) return CUDA_ERROR_INVALID_VALUE;
  const char* name = nullptr;
  if (CUresult r = cuGetErrorName(error, &name)) return r;
  *text = name + 5;  // "CUDA_ERROR_ILLEGAL_ADDRESS" -> "ERROR_ILLEGAL_ADDRESS"
  return CUDA_SUCCESS;
}

}  // extern "C"
