// A small harness for engine and semantics tests: device buffers and launches of PTX text.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptxvm/ptxvm.h"

namespace ptxvm::test {

class Harness {
public:
  template <typename T>
  uint64_t buffer(const std::vector<T>& data) {
    uint64_t a = dev.malloc(data.size() * sizeof(T));
    if (!data.empty()) dev.copy_to_device(a, data.data(), data.size() * sizeof(T));
    return a;
  }
  template <typename T>
  std::vector<T> read(uint64_t address, size_t n) {
    std::vector<T> out(n);
    dev.copy_to_host(out.data(), address, n * sizeof(T));
    return out;
  }
  // Loads `ptx`; a load failure fails the test with the diagnostics.
  Module& load(const std::string& ptx) {
    std::string diags;
    module = dev.load_module(ptx, "test.ptx", &diags);
    EXPECT_TRUE(module) << diags;
    if (!module) throw std::runtime_error(diags);
    return *module;
  }
  LaunchResult launch(const std::string& kernel, Dim3 grid, Dim3 block, std::vector<KernelArg> args,
                      unsigned threads = 1) {
    LaunchConfig c;
    c.grid = grid;
    c.block = block;
    c.threads = threads;
    c.step_limit = 10'000'000;
    return module->launch(kernel, c, args);
  }

  Device dev;
  std::unique_ptr<Module> module;
};

// A kernel `k(.param .u64 out, .param .u64 in)` around `body`, with %r/%rd/%f/%fd/%p/%h
// registers declared; `out` and `in` are loaded into %rd_out and %rd_in.
inline std::string kernel_ptx(const std::string& body, const std::string& target = "sm_90") {
  return ".version 8.7\n.target " + target + "\n.address_size 64\n"
         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
         ".reg .b16 %h<16>;\n.reg .b32 %r<64>;\n.reg .b64 %rd<64>;\n.reg .f32 %f<32>;\n"
         ".reg .f64 %fd<32>;\n.reg .pred %p<16>;\n.reg .b64 %rd_out, %rd_in;\n"
         "ld.param.u64 %rd_out, [out];\nld.param.u64 %rd_in, [in];\n" +
         body + "\nret;\n}\n";
}

}  // namespace ptxvm::test
