// Records what an sm_90 GPU writes for the integer and logic instructions of inputs.h's texts():
// each text in the kernel of inputs.h's kernel() (the PTX that tests/sem/integer_hw_test.cpp runs
// on ptxvm), loaded with the driver API over the operands of inputs.h's operands().
//
//   nvcc -O2 -std=c++17 -o record_integer record_integer.cu -lcuda && ./record_integer OUT_DIR
//
// Writes OUT_DIR/integer.bin: per text, uint16 text length, the text, uint8 bytes per result,
// uint32 count, then the count little-endian results; and OUT_DIR/rejected.txt, the texts the
// driver's PTX compiler refused, with its log.
#include <cuda.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../driver.h"
#include "inputs.h"

using namespace ptxvm_hw_integer;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: record_integer OUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  use_first_device();

  const Operands o = operands();
  std::vector<uint64_t> in(o.a);
  in.insert(in.end(), o.b.begin(), o.b.end());
  in.insert(in.end(), o.c.begin(), o.c.end());
  CUdeviceptr din, dout;
  CHECK(cuMemAlloc(&din, in.size() * 8));
  CHECK(cuMemAlloc(&dout, kCount * 8));
  CHECK(cuMemcpyHtoD(din, in.data(), in.size() * 8));

  FILE* bin = std::fopen((dir + "/integer.bin").c_str(), "wb");
  FILE* rejected = std::fopen((dir + "/rejected.txt").c_str(), "w");
  if (!bin || !rejected) return 1;
  size_t recorded = 0, refused = 0;
  for (const std::string& text : texts()) {
    const std::string ptx = kernel(text);
    char log[8192] = {};
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* vals[] = {log, reinterpret_cast<void*>(sizeof log)};
    CUmodule mod;
    if (cuModuleLoadDataEx(&mod, ptx.c_str(), 2, opts, vals) != CUDA_SUCCESS) {
      std::fprintf(rejected, "%s\n%s\n", text.c_str(), log);
      ++refused;
      continue;
    }
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, "k"));
    CHECK(cuMemsetD8(dout, 0, kCount * 8));
    void* args[] = {&dout, &din};
    CHECK(cuLaunchKernel(fn, (kCount + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
    const uint8_t bytes = static_cast<uint8_t>(result_bytes(text));
    std::vector<uint8_t> out(kCount * bytes);
    CHECK(cuMemcpyDtoH(out.data(), dout, out.size()));
    CHECK(cuModuleUnload(mod));
    const uint16_t len = static_cast<uint16_t>(text.size());
    const uint32_t count = kCount;
    std::fwrite(&len, 2, 1, bin);
    std::fwrite(text.data(), 1, len, bin);
    std::fwrite(&bytes, 1, 1, bin);
    std::fwrite(&count, 4, 1, bin);
    std::fwrite(out.data(), 1, out.size(), bin);
    ++recorded;
  }
  std::fclose(bin);
  std::fclose(rejected);
  std::printf("%zu texts recorded, %zu refused\n", recorded, refused);
  return 0;
}
