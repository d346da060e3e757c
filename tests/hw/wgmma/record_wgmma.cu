// Records what an sm_90a GPU computes for every warpgroup MMA text of texts.inc: loads
// wgmma_kernels.ptx with the driver API (the same PTX that tests/units/wgmma_hw_test.cpp runs on
// ptxvm), feeds each kernel the inputs of texts.h for each seed and writes the output words.
//
//   nvcc -O2 -std=c++17 -o record_wgmma record_wgmma.cu -lcuda && ./record_wgmma wgmma_kernels.ptx out/ [only]
//
// Output: one file per group (out/<group>.bin) of records: uint16 text length, "<seed> <text>",
// uint8 4 (bytes per word), uint32 word count, the words; then `xz -9` them. `only` (groups and
// kernels, comma-separated) records just those texts, from a module of just their kernels, and
// appends to the files: a kernel that faults takes only its own process down, so a script can
// record group by group and fall back to kernel by kernel. Files are written at the end only.
#include <cuda.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../driver.h"
#include "texts.h"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: record_wgmma wgmma_kernels.ptx outdir [group,kernel,...]\n");
    return 2;
  }
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string ptx = ss.str();
  std::set<std::string> only;
  if (argc == 4) {
    std::stringstream list(argv[3]);
    for (std::string item; std::getline(list, item, ',');) only.insert(item);
  }
  auto wanted = [&](const ptxvm_hw_wgmma::Text& t) { return only.empty() || only.count(t.group) || only.count(t.kernel); };
  if (!only.empty()) {  // the header and the wanted kernels alone
    std::string part = ptx.substr(0, ptx.find(".visible .entry"));
    for (const ptxvm_hw_wgmma::Text& t : ptxvm_hw_wgmma::kTexts) {
      if (!wanted(t)) continue;
      const size_t start = ptx.find(".visible .entry " + std::string(t.kernel) + "(");
      const size_t end = ptx.find("\n}\n", start);
      part += ptx.substr(start, end + 3 - start);
    }
    ptx = part;
  }
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
  unsigned unwritten = 0;
  unsigned texts = 0;
  for (const ptxvm_hw_wgmma::Text& t : ptxvm_hw_wgmma::kTexts) {
    if (!wanted(t)) continue;
    ++texts;
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, t.kernel));
    for (unsigned seed = 1; seed <= ptxvm_hw_wgmma::seeds(t); ++seed) {
      const std::vector<uint32_t> in = ptxvm_hw_wgmma::inputs(t, ptxvm_hw_wgmma::seed_of(t.text, seed));
      const size_t out_n = size_t(ptxvm_hw_wgmma::kCtas) * ptxvm_hw_wgmma::out_words_per_cta(t);
      std::vector<uint32_t> out(out_n, 0xdeadbeef);
      CUdeviceptr din, dout;
      CHECK(cuMemAlloc(&din, in.size() * 4));
      CHECK(cuMemAlloc(&dout, out_n * 4));
      CHECK(cuMemcpyHtoD(din, in.data(), in.size() * 4));
      CHECK(cuMemcpyHtoD(dout, out.data(), out_n * 4));
      void* args[] = {&din, &dout};
      if (in.size() != size_t(ptxvm_hw_wgmma::kCtas) * ptxvm_hw_wgmma::in_words_per_cta(t)) {
        std::fprintf(stderr, "%s: %zu input words, texts.inc says %u per CTA\n", t.text, in.size(),
                     ptxvm_hw_wgmma::in_words_per_cta(t));
        return 1;
      }
      CHECK(cuLaunchKernel(fn, ptxvm_hw_wgmma::kCtas, 1, 1, t.threads, 1, 1, 0, nullptr, args, nullptr));
      CHECK(cuCtxSynchronize());
      CHECK(cuMemcpyDtoH(out.data(), dout, out_n * 4));
      CHECK(cuMemFree(din));
      CHECK(cuMemFree(dout));
      size_t fill = 0;
      for (uint32_t v : out) fill += v == 0xdeadbeef;
      if (fill == out_n) ++unwritten;
      const std::string name = std::to_string(seed) + " " + t.text;
      std::string& buf = files[t.group];
      const uint16_t len = uint16_t(name.size());
      const uint8_t eb = 4;
      const uint32_t n = uint32_t(out_n);
      buf.append(reinterpret_cast<const char*>(&len), 2).append(name);
      buf.append(reinterpret_cast<const char*>(&eb), 1).append(reinterpret_cast<const char*>(&n), 4);
      buf.append(reinterpret_cast<const char*>(out.data()), out_n * 4);
      if (seed == 1) std::printf("%-8s %s: %zu words, %zu untouched\n", t.kernel, t.text, out_n, fill);
    }
  }
  for (auto& [group, data] : files) {
    std::ofstream o(std::string(argv[2]) + "/" + group + ".bin",
                    only.empty() ? std::ios::binary : std::ios::binary | std::ios::app);
    o.write(data.data(), std::streamsize(data.size()));
  }
  std::printf("%u texts recorded into %zu files; %u records left entirely unwritten\n", texts, files.size(), unwritten);
  return 0;
}
