// The drop-in driver's cost (docs/Driver.md): the same saxpy kernel (examples/saxpy, 1 M floats)
// launched through ptxvm's C++ API (Module::launch) and through libcuda.so.1's cuLaunchKernel,
// alternately, in one run, each on every host thread (the launch default); prints the best time
// of each and their ratio.
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "ptxvm/ptxvm.h"

namespace {

constexpr unsigned kN = 1 << 20, kBlock = 256, kRounds = 7;

std::string read(const char* path) {
  std::ifstream in(path);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

template <typename F>
double seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool ok(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) std::fprintf(stderr, "driver_bench: %s failed (%d)\n", what, int(r));
  return r == CUDA_SUCCESS;
}

}  // namespace

int main() {
  const std::string ptx = read(PTXVM_SAXPY_PTX);
  std::vector<float> x(kN, 1.5f), y(kN, 0.25f);
  const float a = 2.0f;
  const unsigned n = kN;

  // Through the C++ API.
  ptxvm::Device device;
  std::string diags;
  auto module = device.load_module(ptx, "saxpy.ptx", &diags);
  if (!module) {
    std::fprintf(stderr, "driver_bench: %s\n", diags.c_str());
    return 1;
  }
  const uint64_t dx = device.malloc(kN * 4), dy = device.malloc(kN * 4);
  device.copy_to_device(dx, x.data(), kN * 4);
  device.copy_to_device(dy, y.data(), kN * 4);
  ptxvm::LaunchConfig config;
  config.grid = {kN / kBlock};
  config.block = {kBlock};
  const std::vector<ptxvm::KernelArg> args = {ptxvm::arg(dy), ptxvm::arg(dx), ptxvm::arg(a), ptxvm::arg(n)};

  // Through the driver.
  CUcontext context;
  CUmodule cu_module;
  CUfunction saxpy;
  CUdeviceptr cx, cy;
  if (!ok(cuInit(0), "cuInit") || !ok(cuDevicePrimaryCtxRetain(&context, 0), "cuDevicePrimaryCtxRetain") ||
      !ok(cuCtxSetCurrent(context), "cuCtxSetCurrent") || !ok(cuModuleLoadData(&cu_module, ptx.c_str()), "cuModuleLoadData") ||
      !ok(cuModuleGetFunction(&saxpy, cu_module, "saxpy"), "cuModuleGetFunction") ||
      !ok(cuMemAlloc(&cx, kN * 4), "cuMemAlloc") || !ok(cuMemAlloc(&cy, kN * 4), "cuMemAlloc") ||
      !ok(cuMemcpyHtoD(cx, x.data(), kN * 4), "cuMemcpyHtoD") || !ok(cuMemcpyHtoD(cy, y.data(), kN * 4), "cuMemcpyHtoD"))
    return 1;
  void* params[] = {&cy, &cx, const_cast<float*>(&a), const_cast<unsigned*>(&n)};

  // both launch (a refused or faulting launch would time nothing)
  const ptxvm::LaunchResult first = module->launch("saxpy", config, args);
  if (!first.ok) {
    std::fprintf(stderr, "driver_bench: %s\n", first.error.c_str());
    return 1;
  }
  if (!ok(cuLaunchKernel(saxpy, kN / kBlock, 1, 1, kBlock, 1, 1, 0, nullptr, params, nullptr), "cuLaunchKernel")) return 1;

  double api = 1e9, driver = 1e9;
  for (unsigned round = 0; round < kRounds; ++round) {
    api = std::min(api, seconds([&] { module->launch("saxpy", config, args); }));
    driver = std::min(driver, seconds([&] {
                        cuLaunchKernel(saxpy, kN / kBlock, 1, 1, kBlock, 1, 1, 0, nullptr, params, nullptr);
                        cuCtxSynchronize();
                      }));
  }
  std::printf("saxpy 1M f32, every host thread, best of %u\n", kRounds);
  std::printf("  C++ API (Module::launch)     %8.3f ms\n", api * 1e3);
  std::printf("  libcuda.so.1 (cuLaunchKernel) %7.3f ms\n", driver * 1e3);
  std::printf("  driver / API                 %8.3fx\n", driver / api);
  return 0;
}
