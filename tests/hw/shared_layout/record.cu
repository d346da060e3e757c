// Records tests/hw/shared_layout (README.md): each kernel of shared_layout.ptx, 32 threads, with 0
// and 64 dynamic bytes; one JSON object per launch.
// nvcc -o record record.cu -lcuda && ./record shared_layout.ptx > records.json
#include <cstdio>

#include "../driver.h"

int main(int argc, char** argv) {
  const CUmodule module = load_ptx(argc > 1 ? argv[1] : "shared_layout.ptx");
  for (const char* name : {"k1", "k2", "k3", "k5", "k6", "k7", "k4"})
    for (unsigned dyn : {0u, 64u}) {
      CUfunction f;
      cuModuleGetFunction(&f, module, name);
      CUdeviceptr out;
      cuMemAlloc(&out, 7 * 4);
      cuMemsetD32(out, 0xdeadbeef, 7);
      void* args[] = {&out};
      CUresult r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, dyn, nullptr, args, nullptr);
      if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
      unsigned w[7] = {};
      cuMemcpyDtoH(w, out, sizeof w);
      std::printf("{\"kernel\": \"%s\", \"dynamic\": %u, \"result\": %d, \"words\": [%u, %u, %u, %u, %u, %u, %u]}\n", name,
                  dyn, int(r), w[0], w[1], w[2], w[3], w[4], w[5], w[6]);
      cuMemFree(out);
    }
  return 0;
}
