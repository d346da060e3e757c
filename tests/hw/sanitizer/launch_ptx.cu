// Launches one kernel of a PTX file through the CUDA driver, as the planted-bug suite does on
// ptxvm (tests/sanitize/planted_test.cpp): two 1024-word buffers, in[i] = i, arguments (out, in).
// Run under compute-sanitizer by compare.py.
//   launch_ptx FILE.ptx KERNEL GRID BLOCK SHARED_BYTES
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static int fail(const char* what, CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  std::printf("launch_ptx: %s: %s\n", what, name ? name : "?");
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: launch_ptx FILE.ptx KERNEL GRID BLOCK SHARED_BYTES [uninitialised-out]\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  const std::string ptx = text.str();
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CUresult r;
  if ((r = cuInit(0)) || (r = cuDeviceGet(&dev, 0)) || (r = cuCtxCreate(&ctx, nullptr, 0, dev))) return fail("init", r);
  if ((r = cuModuleLoadData(&mod, ptx.c_str()))) return fail("cuModuleLoadData", r);
  if ((r = cuModuleGetFunction(&fn, mod, argv[2]))) return fail("cuModuleGetFunction", r);
  std::vector<unsigned> host(1024);
  for (unsigned i = 0; i < 1024; ++i) host[i] = i;
  CUdeviceptr out, inp;
  if ((r = cuMemAlloc(&out, 4096)) || (r = cuMemAlloc(&inp, 4096))) return fail("cuMemAlloc", r);
  const bool uninitialised_out = argc > 6 && std::string(argv[6]) == "uninitialised-out";
  if (!uninitialised_out) cuMemsetD8(out, 0, 4096);
  cuMemcpyHtoD(inp, host.data(), 4096);
  void* args[] = {&out, &inp};
  const unsigned grid = std::atoi(argv[3]), block = std::atoi(argv[4]), shared = std::atoi(argv[5]);
  if ((r = cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, shared, nullptr, args, nullptr))) return fail("cuLaunchKernel", r);
  if ((r = cuCtxSynchronize())) return fail("cuCtxSynchronize", r);
  std::printf("launch_ptx: ok\n");
  return 0;
}
