// libcudart.so.13, the CUDA runtime over ptxvm's drop-in driver (docs/Driver.md): the state the
// runtime API keeps beside the driver's. A program built with `nvcc -cudart shared` finds this
// library before NVIDIA's through LD_LIBRARY_PATH; every call goes to libcuda.so.1's Driver API
// in the primary context of the current device, as NVIDIA's runtime does.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ptxvm::cudart {

// A fat binary the program registered (__cudaRegisterFatBinary): its kernels and variables by
// their host addresses, loaded as a module when first used.
struct FatBinary {
  const void* image;  // the __fatBinC_Wrapper_t nvcc emitted
  CUmodule module = nullptr;
  CUresult loaded = CUDA_ERROR_NOT_INITIALIZED;  // the load's result, once tried
  struct Managed {
    void** host_pointer;  // where the program reads the variable's address
    std::string name;
  };
  std::vector<Managed> managed;
};

// A kernel (__cudaRegisterFunction): the handle __cudaGetKernel gives out (cudaKernel_t).
struct Kernel {
  FatBinary* binary;
  std::string name;
  CUfunction function = nullptr;
};

// A __device__, __constant__ or __managed__ variable (__cudaRegisterVar).
struct Variable {
  FatBinary* binary;
  std::string name;
};

struct Runtime {
  std::recursive_mutex mutex;
  std::vector<std::unique_ptr<FatBinary>> binaries;
  std::map<const void*, std::unique_ptr<Kernel>> kernels;  // by host stub address
  std::map<const void*, Variable> variables;              // by host shadow address
  std::vector<CUcontext> primary;                          // per device, once retained
};
Runtime& runtime();

// The calling thread's current device, with its primary context made current (cudaSetDevice).
// An error when the driver has none.
cudaError_t ready();
int current_device();
void set_current_device(int device);

// The runtime's error for a driver result (the codes CUDA shares), kept as the thread's last
// error when it is one.
cudaError_t result(CUresult r);
cudaError_t fail(cudaError_t e);  // keeps `e` as the last error and returns it

// The kernel of a host stub or cudaKernel_t, loaded; null with *error set when there is none.
Kernel* kernel_of(const void* stub, cudaError_t* error);
// The device address and size of a registered variable.
cudaError_t variable_of(const void* symbol, CUdeviceptr* address, size_t* bytes);
// The driver's description of a cudaMemcpy3D copy (texture.cpp).
cudaError_t copy_of(const cudaMemcpy3DParms* p, CUDA_MEMCPY3D& c);
// The reverse: the cudaMemcpy3D copy the driver's describes (cudaMemcpyDefault).
void params_of(const CUDA_MEMCPY3D& c, cudaMemcpy3DParms& p);

}  // namespace ptxvm::cudart
