// libFuzzer target: the executor and the sanitizer. Any byte string that loads as a module has
// each of its kernels launched with every check on, bounded (a step limit per warp, a watchdog,
// a small grid), on buffers of its own; the launch must end in a result, a guest fault or a
// check's report, never a crash, a hang or a host memory error. Seeded with the kernels of the
// suite (scripts/fuzz.sh SECONDS execute), so that mutations stay close to PTX that runs.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ptxvm/ptxvm.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static ptxvm::Device dev;
  static const uint64_t buffer = dev.malloc(1 << 16);
  std::string diags;
  auto module = dev.load_module(std::string(reinterpret_cast<const char*>(data), size), "fuzz.ptx", &diags);
  if (!module) return 0;
  uint32_t seed = 0;
  for (size_t i = 0; i < size; ++i) seed = seed * 31 + data[i];
  for (const std::string& kernel : module->kernels()) {
    // Pointers (8-byte parameters) to the buffer, at an offset; other parameters small values.
    std::vector<ptxvm::KernelArg> args;
    for (const ptxvm::KernelParam& p : module->params(kernel)) {
      ptxvm::KernelArg a;
      a.bytes.assign(p.size, 0);
      if (p.size == 8) {
        const uint64_t at = buffer + (seed % 16) * 256;
        std::memcpy(a.bytes.data(), &at, 8);
      } else if (p.size >= 4) {
        const uint32_t v = seed % 257;
        std::memcpy(a.bytes.data(), &v, 4);
      }
      args.push_back(std::move(a));
    }
    ptxvm::LaunchConfig config;
    config.grid = {1 + seed % 2};
    config.block = {32u << (seed / 2 % 3)};
    config.threads = 1;
    config.step_limit = 20'000;
    config.watchdog_seconds = 2;
    config.checks = *ptxvm::Checks::parse("all", nullptr);
    if (!module->check_launch(kernel, config, args).empty()) continue;  // e.g. .reqntid: not this launch
    (void)module->launch(kernel, config, args);
  }
  return 0;
}
