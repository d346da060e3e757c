// What the recorders of tests/hw share: the CUDA driver API's error check and context.
#pragma once

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    CUresult r_ = (x);                                                                             \
    if (r_ != CUDA_SUCCESS) {                                                                      \
      const char* s_;                                                                              \
      cuGetErrorString(r_, &s_);                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_);                         \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// Device 0's primary context, made current.
inline void use_first_device() {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
}

// Loads the PTX file at `path` with the driver JIT into a module of device 0's primary context
// (made current); exits with the JIT's log when it does not load.
inline CUmodule load_ptx(const char* path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  use_first_device();
  CUmodule mod;
  char log[16384] = {0};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, reinterpret_cast<void*>(sizeof log)};
  if (const CUresult r = cuModuleLoadDataEx(&mod, ss.str().c_str(), 2, opts, vals); r != CUDA_SUCCESS) {
    const char* name = "?";
    cuGetErrorName(r, &name);
    std::fprintf(stderr, "PTX load failed (%s):\n%s\n", name, log);
    std::exit(1);
  }
  return mod;
}
