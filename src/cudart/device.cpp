// Devices, their properties, versions and errors: the runtime's view of the driver's devices, each
// used through its primary context.
#include <cstdio>
#include <cstring>
#include <utility>

#include "runtime.h"

namespace ptxvm::cudart {
namespace {

thread_local int device = 0;
thread_local cudaError_t last_error = cudaSuccess;

// The number of devices, asked once (a sticky fault makes the driver refuse later questions).
int device_count() {
  static const int count = [] {
    int n = 0;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS) n = 0;
    return n;
  }();
  return count;
}

// The thread's current device's primary context, retained once per device and made current.
cudaError_t use(int d) {
  const int count = device_count();
  if (!count) return cudaErrorNoDevice;
  if (d < 0 || d >= count) return cudaErrorInvalidDevice;
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (rt.primary.size() < size_t(count)) rt.primary.resize(size_t(count), nullptr);
  if (!rt.primary[size_t(d)] && cuDevicePrimaryCtxRetain(&rt.primary[size_t(d)], d) != CUDA_SUCCESS)
    return cudaErrorInitializationError;
  CUcontext current = nullptr;
  cuCtxGetCurrent(&current);
  if (current != rt.primary[size_t(d)]) cuCtxSetCurrent(rt.primary[size_t(d)]);
  return cudaSuccess;
}

}  // namespace

Runtime& runtime() {
  static Runtime* r = new Runtime;  // never destroyed: programs call in from their atexit handlers
  return *r;
}

cudaError_t ready() {
  if (cudaError_t e = use(device); e != cudaSuccess) return fail(e);
  return cudaSuccess;
}

int current_device() { return device; }
void set_current_device(int d) { device = d; }

cudaError_t fail(cudaError_t e) {
  if (e != cudaSuccess) last_error = e;
  return e;
}

cudaError_t result(CUresult r) { return fail(static_cast<cudaError_t>(r)); }

}  // namespace ptxvm::cudart

using namespace ptxvm::cudart;

extern "C" {

cudaError_t CUDARTAPI cudaGetLastError() {
  const cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}

cudaError_t CUDARTAPI cudaPeekAtLastError() { return last_error; }

// NVIDIA's names and texts (errors.inc); an unknown code is "unrecognized error code" to both.
const char* CUDARTAPI cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define PTXVM_ERROR(e, text) \
  case e: return #e;
#include "errors.inc"
#undef PTXVM_ERROR
  default: return "unrecognized error code";
  }
}

const char* CUDARTAPI cudaGetErrorString(cudaError_t error) {
  switch (error) {
#define PTXVM_ERROR(e, text) \
  case e: return text;
#include "errors.inc"
#undef PTXVM_ERROR
  default: return "unrecognized error code";
  }
}

cudaError_t CUDARTAPI cudaDriverGetVersion(int* version) {
  if (!version) return fail(cudaErrorInvalidValue);
  return result(cuDriverGetVersion(version));
}

cudaError_t CUDARTAPI cudaRuntimeGetVersion(int* version) {
  if (!version) return fail(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  if (!count) return fail(cudaErrorInvalidValue);
  *count = device_count();
  return *count ? cudaSuccess : fail(cudaErrorNoDevice);
}

cudaError_t CUDARTAPI cudaSetDevice(int d) {
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) return e;
  if (d < 0 || d >= count) return fail(cudaErrorInvalidDevice);
  set_current_device(d);
  return ready();
}

cudaError_t CUDARTAPI cudaInitDevice(int d, unsigned, unsigned) {
  const int keep = current_device();
  set_current_device(d);
  const cudaError_t e = ready();
  set_current_device(keep);
  return e;
}

cudaError_t CUDARTAPI cudaGetDevice(int* d) {
  if (!d) return fail(cudaErrorInvalidValue);
  *d = current_device();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned) { return ready(); }

cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned* flags) {
  if (!flags) return fail(cudaErrorInvalidValue);
  *flags = 0;
  return ready();
}

// cudaDeviceAttr's values are CUdevice_attribute's.
cudaError_t CUDARTAPI cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int d) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuDeviceGetAttribute(value, static_cast<CUdevice_attribute>(attr), d));
}

cudaError_t CUDARTAPI cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  if (d < 0 || d >= device_count()) return fail(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  cuDeviceGetName(p->name, sizeof p->name, d);
  cuDeviceGetUuid_v2(reinterpret_cast<CUuuid*>(&p->uuid), d);
  cuDeviceTotalMem_v2(&p->totalGlobalMem, d);
  auto get = [&](CUdevice_attribute a) {
    int v = 0;
    cuDeviceGetAttribute(&v, a, d);
    return v;
  };
  p->sharedMemPerBlock = size_t(get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  p->regsPerBlock = get(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  p->warpSize = get(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  p->memPitch = size_t(get(CU_DEVICE_ATTRIBUTE_MAX_PITCH));
  p->maxThreadsPerBlock = get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  p->maxThreadsDim[0] = get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  p->maxThreadsDim[1] = get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  p->maxThreadsDim[2] = get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  p->maxGridSize[0] = get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  p->maxGridSize[1] = get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  p->maxGridSize[2] = get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  p->totalConstMem = size_t(get(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
  p->major = get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  p->minor = get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  p->textureAlignment = size_t(get(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT));
  p->texturePitchAlignment = size_t(get(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT));
  p->multiProcessorCount = get(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  p->integrated = get(CU_DEVICE_ATTRIBUTE_INTEGRATED);
  p->canMapHostMemory = get(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
  p->maxTexture1D = get(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH);
  p->maxTexture2D[0] = get(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH);
  p->maxTexture2D[1] = get(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT);
  p->maxTexture3D[0] = get(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH);
  p->maxTexture3D[1] = get(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT);
  p->maxTexture3D[2] = get(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH);
  p->surfaceAlignment = size_t(get(CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT));
  p->concurrentKernels = get(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
  p->ECCEnabled = get(CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
  p->pciBusID = get(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  p->pciDeviceID = get(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  p->pciDomainID = get(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  p->asyncEngineCount = get(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
  p->unifiedAddressing = get(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
  p->memoryBusWidth = get(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  p->l2CacheSize = get(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  p->persistingL2CacheMaxSize = get(CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE);
  p->maxThreadsPerMultiProcessor = get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  p->streamPrioritiesSupported = get(CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED);
  p->globalL1CacheSupported = get(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
  p->localL1CacheSupported = get(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
  p->sharedMemPerMultiprocessor = size_t(get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
  p->regsPerMultiprocessor = get(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  p->managedMemory = get(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
  p->isMultiGpuBoard = get(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD);
  p->multiGpuBoardGroupID = get(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID);
  p->hostNativeAtomicSupported = get(CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
  p->pageableMemoryAccess = get(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
  p->concurrentManagedAccess = get(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
  p->computePreemptionSupported = get(CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED);
  p->canUseHostPointerForRegisteredMem = get(CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
  p->cooperativeLaunch = get(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
  p->sharedMemPerBlockOptin = size_t(get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  p->pageableMemoryAccessUsesHostPageTables = get(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
  p->directManagedMemAccessFromHost = get(CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
  p->maxBlocksPerMultiProcessor = get(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
  p->accessPolicyMaxWindowSize = get(CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
  p->reservedSharedMemPerBlock = size_t(get(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK));
  p->hostRegisterSupported = get(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED);
  p->memoryPoolsSupported = get(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
  p->clusterLaunch = get(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSynchronize() {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuCtxSynchronize());
}

// The device's state starts over: ptxvm keeps its memory until the process ends.
cudaError_t CUDARTAPI cudaDeviceReset() { return ready(); }

cudaError_t CUDARTAPI cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuCtxSetLimit(static_cast<CUlimit>(limit), value));
}

cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuCtxGetLimit(value, static_cast<CUlimit>(limit)));
}

cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuCtxGetStreamPriorityRange(least, greatest));
}

cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(cudaFuncCache) { return ready(); }

cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int* can, int, int) {
  if (!can) return fail(cudaErrorInvalidValue);
  *can = 0;
  return ready();
}


// The driver's entry points by name, as cuGetProcAddress answers (CUTLASS and libcu++ ask for
// cuTensorMapEncodeTiled so); the query results share their values.
cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned version,
                                                       unsigned long long flags,
                                                       cudaDriverEntryPointQueryResult* status) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SUCCESS;
  const cudaError_t e = result(cuGetProcAddress_v2(symbol, fn, int(version), flags, &found));
  if (status) *status = static_cast<cudaDriverEntryPointQueryResult>(found);
  return e;
}

cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char* symbol, void** fn, unsigned long long flags,
                                              cudaDriverEntryPointQueryResult* status) {
  return cudaGetDriverEntryPointByVersion(symbol, fn, CUDART_VERSION, flags, status);
}

cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char* id, int length, int d) {
  if (!id || length <= 0) return fail(cudaErrorInvalidValue);
  int domain = 0, bus = 0, slot = 0;
  for (auto [attr, v] : {std::pair{cudaDevAttrPciDomainId, &domain}, {cudaDevAttrPciBusId, &bus}, {cudaDevAttrPciDeviceId, &slot}})
    if (cudaError_t e = cudaDeviceGetAttribute(v, attr, d); e != cudaSuccess) return e;
  std::snprintf(id, size_t(length), "%04x:%02x:%02x.0", domain, bus, slot);
  return cudaSuccess;
}

// A profiler's range: nothing to start or stop.
cudaError_t CUDARTAPI cudaProfilerStart() { return ready(); }
cudaError_t CUDARTAPI cudaProfilerStop() { return ready(); }

}  // extern "C"
