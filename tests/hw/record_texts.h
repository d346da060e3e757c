// What the text recorders of tests/hw (video, integer) share: each instruction text's kernel,
// loaded with the driver API (the driver's PTX compiler), launched over the same operands, and
// its results written as hw_records.h reads them.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "driver.h"

// Runs kernel(text) `k(out, in)` for every text over `in` with count threads, and writes
// dir/<name>: per text, uint16 text length, the text, uint8 bytes per result (bytes_of(text)),
// uint32 count, then the count little-endian results; and dir/rejected.txt, the texts the
// driver's PTX compiler refused, with its log. Prints what it recorded; 1 if a file cannot be
// written.
template <typename KernelOf, typename BytesOf>
int record_texts(const std::string& dir, const std::string& name, const std::vector<std::string>& texts,
                 const void* in, size_t in_bytes, size_t count, KernelOf kernel, BytesOf bytes_of) {
  use_first_device();
  CUdeviceptr din, dout;
  CHECK(cuMemAlloc(&din, in_bytes));
  CHECK(cuMemAlloc(&dout, count * 8));
  CHECK(cuMemcpyHtoD(din, in, in_bytes));
  FILE* bin = std::fopen((dir + "/" + name).c_str(), "wb");
  FILE* rejected = std::fopen((dir + "/rejected.txt").c_str(), "w");
  if (!bin || !rejected) return 1;
  size_t recorded = 0, refused = 0;
  for (const std::string& text : texts) {
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
    CHECK(cuMemsetD8(dout, 0, count * 8));
    void* args[] = {&dout, &din};
    CHECK(cuLaunchKernel(fn, static_cast<unsigned>((count + 255) / 256), 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
    const uint8_t bytes = static_cast<uint8_t>(bytes_of(text));
    std::vector<uint8_t> out(count * bytes);
    CHECK(cuMemcpyDtoH(out.data(), dout, out.size()));
    CHECK(cuModuleUnload(mod));
    const uint16_t len = static_cast<uint16_t>(text.size());
    const uint32_t n = static_cast<uint32_t>(count);
    std::fwrite(&len, 2, 1, bin);
    std::fwrite(text.data(), 1, len, bin);
    std::fwrite(&bytes, 1, 1, bin);
    std::fwrite(&n, 4, 1, bin);
    std::fwrite(out.data(), 1, out.size(), bin);
    ++recorded;
  }
  std::fclose(bin);
  std::fclose(rejected);
  std::printf("%zu texts recorded, %zu refused\n", recorded, refused);
  return 0;
}
