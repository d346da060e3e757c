// libFuzzer target: launch inputs. The first byte picks what the rest is: a manifest (read,
// its output names resolved, its launch checked against a small kernel) or a .npy file. Each
// must end in a value or a clear error, never a crash, hang or runaway allocation.
#include <cstddef>
#include <cstdint>
#include <string>

#include "manifest.h"
#include "npy.h"
#include "outputs.h"

namespace {

constexpr const char* kKernels = R"(.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 v)
.maxntid 256 .minnctapersm 2
{ ret; }
.visible .entry req(.param .u64 out)
.reqntid 64 .reqnctapercluster 2
{ ret; }
)";

ptxvm::Module& module() {
  static ptxvm::Device dev;
  static std::unique_ptr<ptxvm::Module> m = dev.load_module(kKernels, "fuzz.ptx", nullptr);
  if (!m) __builtin_trap();
  return *m;
}

void manifest(const std::string& text) {
  ptxvm::tool::Manifest m;
  try {
    m = ptxvm::tool::parse_manifest(text);
  } catch (const ptxvm::tool::ManifestError&) {
    return;
  }
  std::vector<ptxvm::KernelArg> args;
  for (const ptxvm::tool::ArgSpec& a : m.args) {
    args.push_back(a.buffer.empty() ? a.value : ptxvm::arg(uint64_t{0}));
    if (a.output) try {
        (void)ptxvm::tool::output_path("/nonexistent/ptxvm-fuzz-out", *a.output);
      } catch (const ptxvm::tool::OutputError&) {
      }
  }
  const std::string kernel = module().has_kernel(m.kernel) ? m.kernel : "k";
  (void)module().check_launch(kernel, m.config, args);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    try {
      (void)ptxvm::tool::parse_npy(rest, "fuzz.npy");
    } catch (const ptxvm::tool::NpyError&) {
    }
  } else {
    manifest(rest);
  }
  return 0;
}
