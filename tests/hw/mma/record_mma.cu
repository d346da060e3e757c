// Records what an sm_90 GPU computes for every tensor-core instruction text of classes.inc:
// loads mma_kernels.ptx with the driver API (the same PTX that tests/sem/mma_hw_test.cpp runs on
// ptxvm), feeds each kernel the inputs of inputs.h for each seed and writes the output words.
//
//   nvcc -O2 -std=c++17 -o record_mma record_mma.cu -lcuda && ./record_mma mma_kernels.ptx out/
//
// Output: one file per group (out/<group>.bin) of records: uint16 text length, "<seed> <text>",
// uint8 4 (bytes per word), uint32 word count, the words; then `xz -9` them.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../driver.h"
#include "classes.h"
#include "inputs.h"
#include "plan.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: record_mma mma_kernels.ptx outdir\n");
    return 2;
  }
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string ptx = ss.str();
  use_first_device();
  CUmodule mod;
  char log[16384] = {0};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, reinterpret_cast<void*>(sizeof log)};
  if (cuModuleLoadDataEx(&mod, ptx.c_str(), 2, opts, vals) != CUDA_SUCCESS) {
    std::fprintf(stderr, "PTX load failed:\n%s\n", log);
    return 1;
  }
  std::map<std::string, std::string> files;
  for (const ptxvm_hw_mma::Class& c : ptxvm_hw_mma::kClasses) {
    const ptxvm_hw_mma::Plan p = ptxvm_hw_mma::plan(c.tmpl, c.out_words);
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, c.kernel));
    for (unsigned seed = 1; seed <= p.seeds; ++seed) {
      std::vector<uint32_t> in = ptxvm_hw_mma::class_inputs(c.in_words, c.block_words, c.operands,
                                                            ptxvm_hw_mma::seed_of(c.text, seed), p.warps);
      const size_t out_n = size_t(p.warps) * ((c.tmpl == 'S' ? c.block_words : 0) + 32 * c.out_words);
      std::vector<uint32_t> out(out_n, 0xdeadbeef);
      CUdeviceptr din, dout;
      CHECK(cuMemAlloc(&din, in.size() * 4 + 4));
      CHECK(cuMemAlloc(&dout, out_n * 4 + 4));
      if (!in.empty()) CHECK(cuMemcpyHtoD(din, in.data(), in.size() * 4));
      CHECK(cuMemcpyHtoD(dout, out.data(), out_n * 4));
      void* args[] = {&din, &dout};
      CHECK(cuLaunchKernel(fn, p.warps / 4, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
      CHECK(cuCtxSynchronize());
      CHECK(cuMemcpyDtoH(out.data(), dout, out_n * 4));
      CHECK(cuMemFree(din));
      CHECK(cuMemFree(dout));
      const std::string name = std::to_string(seed) + " " + c.text;
      std::string& buf = files[ptxvm_hw_mma::group_of(c.text)];
      const uint16_t len = uint16_t(name.size());
      const uint8_t eb = 4;
      const uint32_t n = uint32_t(out_n);
      buf.append(reinterpret_cast<const char*>(&len), 2).append(name);
      buf.append(reinterpret_cast<const char*>(&eb), 1).append(reinterpret_cast<const char*>(&n), 4);
      buf.append(reinterpret_cast<const char*>(out.data()), out_n * 4);
    }
  }
  for (auto& [group, data] : files) {
    std::ofstream o(std::string(argv[2]) + "/" + group + ".bin", std::ios::binary);
    o.write(data.data(), std::streamsize(data.size()));
  }
  std::printf("%zu classes recorded into %zu files\n", sizeof ptxvm_hw_mma::kClasses / sizeof ptxvm_hw_mma::kClasses[0], files.size());
  return 0;
}
