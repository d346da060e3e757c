// Records tests/hw/shared_window (README.md): runs shared_window.ptx's kernels and prints one JSON
// object per launch. nvcc -o record record.cu -lcuda && ./record shared_window.ptx > records.json
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../driver.h"

static CUmodule module;

static void launch_window(const char* name, unsigned grid, unsigned cluster, unsigned dyn) {
  CUfunction f;
  cuModuleGetFunction(&f, module, "window");
  cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536);
  CUdeviceptr out;
  cuMemAlloc(&out, grid * 12 * 4);
  cuMemsetD32(out, 0xdeadbeef, grid * 12);
  CUlaunchConfig c = {};
  c.gridDimX = grid, c.gridDimY = 1, c.gridDimZ = 1, c.blockDimX = 32, c.blockDimY = 1, c.blockDimZ = 1;
  c.sharedMemBytes = dyn;
  CUlaunchAttribute a;
  a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  a.value.clusterDim.x = cluster, a.value.clusterDim.y = 1, a.value.clusterDim.z = 1;
  c.attrs = &a;
  c.numAttrs = cluster ? 1 : 0;
  void* args[] = {&out};
  CUresult r = cuLaunchKernelEx(&c, f, args, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  std::vector<unsigned> words(grid * 12);
  cuMemcpyDtoH(words.data(), out, words.size() * 4);
  std::printf("{\"launch\": \"%s\", \"grid\": %u, \"cluster\": %u, \"dynamic\": %u, \"result\": %d, \"words\": [", name, grid,
              cluster, dyn, int(r));
  for (size_t i = 0; i < words.size(); ++i) std::printf("%s%u", i ? ", " : "", words[i]);
  std::printf("]}\n");
  cuMemFree(out);
}

int main(int argc, char** argv) {
  module = load_ptx(argc > 1 ? argv[1] : "shared_window.ptx");
  if (argc > 2) {  // one reserved load, in a process of its own (a fault spoils the context)
    CUfunction f;
    cuModuleGetFunction(&f, module, "reserved_load");
    CUdeviceptr out;
    cuMemAlloc(&out, 128);
    cuMemsetD32(out, 0xdeadbeef, 32);
    unsigned address = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 0));
    void* args[] = {&out, &address};
    CUresult r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    unsigned v = 0;
    if (r == CUDA_SUCCESS) cuMemcpyDtoH(&v, out, 4);
    std::printf("{\"launch\": \"reserved_load\", \"address\": %u, \"result\": %d, \"word\": %u}\n", address, int(r), v);
    return 0;
  }
  launch_window("nocluster", 2, 0, 0);
  launch_window("nocluster_dyn1024", 2, 0, 1024);
  launch_window("c2", 4, 2, 0);
  launch_window("c4_dyn256", 4, 4, 256);
  return 0;
}
