// What nvcc's host code asks of the runtime (crt/host_runtime.h): registering the fat binary,
// its kernels and variables at start-up, and the `<<<...>>>` launch (push the configuration, the
// stub pops it, gets the kernel and launches it).
#include <cstring>

#include "runtime.h"

namespace ptxvm::cudart {
namespace {

// The launch configurations pushed and not yet popped, per thread.
struct Configuration {
  dim3 grid, block;
  size_t shared;
  cudaStream_t stream;
};
thread_local std::vector<Configuration> configurations;

// Loads the binary's module (the driver picks its PTX), and gives __managed__ variables their
// addresses.
CUresult load(FatBinary& b) {
  if (b.loaded != CUDA_ERROR_NOT_INITIALIZED) return b.loaded;
  b.loaded = cuModuleLoadData(&b.module, b.image);
  if (b.loaded != CUDA_SUCCESS) return b.loaded;
  for (const FatBinary::Managed& m : b.managed) {
    CUdeviceptr address;
    size_t bytes;
    if (cuModuleGetGlobal(&address, &bytes, b.module, m.name.c_str()) == CUDA_SUCCESS)
      *m.host_pointer = reinterpret_cast<void*>(address);
  }
  return b.loaded;
}

cudaError_t load_error(CUresult r) {
  // a binary without PTX for the device (machine code only): the driver said how to rebuild
  return r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_INVALID_PTX
             ? cudaErrorNoKernelImageForDevice
             : static_cast<cudaError_t>(r);
}

}  // namespace

Kernel* kernel_of(const void* stub, cudaError_t* error) {
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  Kernel* k = nullptr;
  if (auto it = rt.kernels.find(stub); it != rt.kernels.end()) k = it->second.get();
  for (auto& [_, candidate] : rt.kernels)  // a cudaKernel_t is the Kernel itself
    if (!k && candidate.get() == stub) k = candidate.get();
  if (!k) {
    *error = cudaErrorInvalidDeviceFunction;
    return nullptr;
  }
  if (!k->function) {
    if (CUresult r = load(*k->binary); r != CUDA_SUCCESS) {
      *error = load_error(r);
      return nullptr;
    }
    if (CUresult r = cuModuleGetFunction(&k->function, k->binary->module, k->name.c_str()); r != CUDA_SUCCESS) {
      *error = cudaErrorInvalidDeviceFunction;
      return nullptr;
    }
  }
  return k;
}

cudaError_t variable_of(const void* symbol, CUdeviceptr* address, size_t* bytes) {
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = rt.variables.find(symbol);
  if (it == rt.variables.end()) return cudaErrorInvalidSymbol;
  if (CUresult r = load(*it->second.binary); r != CUDA_SUCCESS) return load_error(r);
  return cuModuleGetGlobal(address, bytes, it->second.binary->module, it->second.name.c_str()) == CUDA_SUCCESS
             ? cudaSuccess
             : cudaErrorInvalidSymbol;
}

}  // namespace ptxvm::cudart

using namespace ptxvm::cudart;

extern "C" {

void** CUDARTAPI __cudaRegisterFatBinary(void* fat_cubin) {
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.binaries.push_back(std::make_unique<FatBinary>());
  rt.binaries.back()->image = fat_cubin;
  return reinterpret_cast<void**>(rt.binaries.back().get());
}

void CUDARTAPI __cudaRegisterFatBinaryEnd(void**) {}

void CUDARTAPI __cudaUnregisterFatBinary(void** handle) {
  // at exit, after the program's last call; the driver may be gone, so nothing is unloaded
  (void)handle;
}

void CUDARTAPI __cudaRegisterFunction(void** handle, const char* stub, char*, const char* name, int, uint3*, uint3*,
                                      dim3*, dim3*, int*) {
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.kernels[stub] = std::make_unique<Kernel>(Kernel{reinterpret_cast<FatBinary*>(handle), name});
}

void CUDARTAPI __cudaRegisterVar(void** handle, char* host, char*, const char* name, int, size_t, int, int) {
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.variables[host] = {reinterpret_cast<FatBinary*>(handle), name};
}

void CUDARTAPI __cudaRegisterManagedVar(void** handle, void** host_pointer, char*, const char* name, int, size_t, int,
                                        int) {
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto* b = reinterpret_cast<FatBinary*>(handle);
  b->managed.push_back({host_pointer, name});
  rt.variables[host_pointer] = {b, name};
}

// The first use of a __managed__ variable: its module loaded, its address in place.
char CUDARTAPI __cudaInitModule(void** handle) {
  if (ready() != cudaSuccess) return 0;
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  return load(*reinterpret_cast<FatBinary*>(handle)) == CUDA_SUCCESS;
}

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st* stream) {
  configurations.push_back({grid, block, shared, stream});
  return 0;
}

cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  if (configurations.empty()) return fail(cudaErrorMissingConfiguration);
  const Configuration c = configurations.back();
  configurations.pop_back();
  *grid = c.grid, *block = c.block, *shared = c.shared;
  *static_cast<cudaStream_t*>(stream) = c.stream;
  return cudaSuccess;
}

cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t* kernel, const void* stub) {
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = rt.kernels.find(stub);
  if (it == rt.kernels.end()) return fail(cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(it->second.get());
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                       cudaStream_t stream) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  cudaError_t error = cudaSuccess;
  Kernel* k = kernel_of(func, &error);
  if (!k) return fail(error);
  return result(cuLaunchKernel(k->function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                               static_cast<unsigned>(shared), reinterpret_cast<CUstream>(stream), args, nullptr));
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                         cudaStream_t stream) {
  return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                              cudaStream_t stream) {
  return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                                  cudaStream_t stream) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  cudaError_t error = cudaSuccess;
  Kernel* k = kernel_of(func, &error);
  if (!k) return fail(error);
  return result(cuLaunchCooperativeKernel(k->function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                          static_cast<unsigned>(shared), reinterpret_cast<CUstream>(stream), args));
}

// The runtime's launch attributes are the driver's (cudaLaunchAttributeID = CUlaunchAttributeID,
// the value unions laid out alike).
cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  if (!config) return fail(cudaErrorInvalidValue);
  cudaError_t error = cudaSuccess;
  Kernel* k = kernel_of(func, &error);
  if (!k) return fail(error);
  static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute));
  std::vector<CUlaunchAttribute> attributes(config->numAttrs);
  if (config->numAttrs) std::memcpy(attributes.data(), config->attrs, sizeof(CUlaunchAttribute) * config->numAttrs);
  CUlaunchConfig c{};
  c.gridDimX = config->gridDim.x, c.gridDimY = config->gridDim.y, c.gridDimZ = config->gridDim.z;
  c.blockDimX = config->blockDim.x, c.blockDimY = config->blockDim.y, c.blockDimZ = config->blockDim.z;
  c.sharedMemBytes = static_cast<unsigned>(config->dynamicSmemBytes);
  c.hStream = reinterpret_cast<CUstream>(config->stream);
  c.attrs = attributes.data();
  c.numAttrs = config->numAttrs;
  return result(cuLaunchKernelEx(&c, k->function, args, nullptr));
}

cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return cudaLaunchKernelExC(config, func, args);
}

cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t* function, const void* symbol) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  cudaError_t error = cudaSuccess;
  Kernel* k = kernel_of(symbol, &error);
  if (!k) return fail(error);
  *function = reinterpret_cast<cudaFunction_t>(k->function);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncGetAttributes(cudaFuncAttributes* a, const void* func) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  cudaError_t error = cudaSuccess;
  Kernel* k = kernel_of(func, &error);
  if (!k) return fail(error);
  *a = {};
  auto get = [&](CUfunction_attribute what) {
    int v = 0;
    cuFuncGetAttribute(&v, what, k->function);
    return v;
  };
  a->sharedSizeBytes = static_cast<size_t>(get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
  a->constSizeBytes = static_cast<size_t>(get(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES));
  a->localSizeBytes = static_cast<size_t>(get(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
  a->maxThreadsPerBlock = get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  a->numRegs = get(CU_FUNC_ATTRIBUTE_NUM_REGS);
  a->ptxVersion = get(CU_FUNC_ATTRIBUTE_PTX_VERSION);
  a->binaryVersion = get(CU_FUNC_ATTRIBUTE_BINARY_VERSION);
  a->maxDynamicSharedSizeBytes = get(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  a->requiredClusterWidth = get(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);
  a->requiredClusterHeight = get(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT);
  a->requiredClusterDepth = get(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH);
  a->nonPortableClusterSizeAllowed = get(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED);
  return cudaSuccess;
}

// cudaFuncAttribute values are CUfunction_attribute's from CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES on.
cudaError_t CUDARTAPI cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  cudaError_t error = cudaSuccess;
  Kernel* k = kernel_of(func, &error);
  if (!k) return fail(error);
  const auto what = static_cast<CUfunction_attribute>(attr - cudaFuncAttributeMaxDynamicSharedMemorySize +
                                                      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  return result(cuFuncSetAttribute(k->function, what, value));
}

cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void* func, cudaFuncCache) {
  cudaError_t error = cudaSuccess;
  return kernel_of(func, &error) ? cudaSuccess : fail(error);
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func, int block,
                                                                             size_t shared, unsigned flags) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  cudaError_t error = cudaSuccess;
  Kernel* k = kernel_of(func, &error);
  if (!k) return fail(error);
  return result(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, k->function, block, shared, flags));
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block,
                                                                    size_t shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, func, block, shared, 0);
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void** address, const void* symbol) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdeviceptr at;
  size_t bytes;
  if (cudaError_t e = variable_of(symbol, &at, &bytes); e != cudaSuccess) return fail(e);
  *address = reinterpret_cast<void*>(at);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t* size, const void* symbol) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUdeviceptr at;
  if (cudaError_t e = variable_of(symbol, &at, size); e != cudaSuccess) return fail(e);
  return cudaSuccess;
}


cudaError_t CUDARTAPI cudaFuncGetName(const char** name, const void* func) {
  if (!name) return fail(cudaErrorInvalidValue);
  Runtime& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = rt.kernels.find(func);
  if (it == rt.kernels.end()) return fail(cudaErrorInvalidDeviceFunction);
  *name = it->second->name.c_str();
  return cudaSuccess;
}

}  // extern "C"
