// ptxvm's public C++ API: a device with memory, modules loaded from PTX text, kernel launches.
//
//   ptxvm::Device dev;
//   std::string diags;
//   auto mod = dev.load_module(ptx_text, "kernel.ptx", &diags);   // null on invalid PTX
//   uint64_t buf = dev.malloc(1024);
//   dev.copy_to_device(buf, host, 1024);
//   ptxvm::LaunchResult r = mod->launch("saxpy", {.grid = {4}, .block = {256}},
//                                       {ptxvm::arg(buf), ptxvm::arg(2.0f), ptxvm::arg(256u)});
//   if (!r.ok) std::cerr << r.error;
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptxvm/check.h"
#include "ptxvm/texture.h"

namespace ptxvm {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// How tensor-core instructions (mma, wmma, §9.7.14) round and order their floating-point sums,
// which the ISA leaves open: as an H100/H200 does (Sm90), or summed exactly and rounded once.
enum class TensorModel { Sm90, Exact };

struct LaunchConfig {
  Dim3 grid, block;
  Dim3 cluster;                 // CTAs per cluster (sm_90+); the grid must be a multiple of it
  bool explicit_cluster = false;  // a cluster shape was given, even 1x1x1 (%is_explicit_cluster)
  bool non_portable_cluster = false;  // up to 16 CTAs per cluster instead of 8
                                      // (cudaFuncAttributeNonPortableClusterSizeAllowed)
  uint32_t shared_bytes = 0;  // dynamic shared memory
  unsigned threads = 0;       // host threads running CTAs; 0: every core
  uint64_t step_limit = 0;    // 0: none; else stop a warp after this many steps (runaway loops)
  bool cooperative = false;   // all CTAs co-resident, as cudaLaunchCooperativeKernel (grid sync)
  double watchdog_seconds = 0;  // 0: none; else stop with a report after this long (livelocks)
  TensorModel tensor_model = TensorModel::Sm90;
  // When set, the launch stops soon after *cancel becomes true (a signal handler may set it),
  // with a report of where each warp in flight was.
  const std::atomic<bool>* cancel = nullptr;
  // Shows "CTAs done / total" on stderr while a launch that takes longer than a second runs (the
  // command turns it on when stderr is a terminal).
  bool progress = false;
  // The sanitizer's checks (docs/Sanitizer.md); their findings are LaunchResult::reports.
  Checks checks;
};

// One kernel argument: the bytes of the parameter, as the kernel declares it (§5.1.6.1).
struct KernelArg {
  std::vector<uint8_t> bytes;
};
template <typename T>
KernelArg arg(T value) {
  KernelArg a;
  a.bytes.resize(sizeof(T));
  std::memcpy(a.bytes.data(), &value, sizeof(T));
  return a;
}

struct LaunchResult {
  bool ok = false;
  std::string error;   // a guest fault report (kernel, CTA, warp, lane, PC, PTX line), or why not
  std::string output;  // what the kernel printed with printf, in order
  bool guest_fault = false;  // the kernel faulted (rather than a bad launch request)
  bool interrupted = false;  // LaunchConfig::cancel stopped it; `error` says where it was
  // What LaunchConfig::checks found, in the order found (a memcheck finding also stops the
  // launch: `error` and `guest_fault` say so as without checks).
  std::vector<CheckReport> reports;
};

class Device;

// A kernel parameter as the module declares it (§5.1.6.1): its name, bytes and alignment.
struct KernelParam {
  std::string name;
  uint32_t size = 0, align = 1;
};

class Module {
public:
  ~Module();
  bool has_kernel(std::string_view name) const;
  const std::string& name() const;  // the name it was loaded under (load_module), for reports
  // The kernels (.entry functions with bodies) in declaration order, and one's parameters
  // (empty for a name that is no kernel).
  std::vector<std::string> kernels() const;
  std::vector<KernelParam> params(std::string_view kernel) const;
  // The kernel's static shared memory in bytes (its variables and those of the functions it calls,
  // laid out as ptxas does; 0 for a name that is no kernel).
  uint32_t static_shared_bytes(std::string_view kernel) const;
  // The most threads a CTA of the kernel may have: its .maxntid or .reqntid product (§11.4),
  // else 1024 (0 for a name that is no kernel).
  uint32_t max_threads(std::string_view kernel) const;
  // The kernel's local memory per thread: its .local variables and its callees' along the deepest
  // call path, as ptxas counts it (0 for a name that is no kernel).
  uint32_t local_bytes(std::string_view kernel) const;
  // The module's constant bank (its .const variables, laid out in declaration order), which every
  // kernel of the module is given (CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES).
  uint32_t constant_bytes() const;
  // Why launch() would refuse this request (unknown kernel, argument sizes, the target's launch
  // limits and the kernel's directives), without running it; empty when it would run.
  std::string check_launch(std::string_view kernel, const LaunchConfig& config,
                           const std::vector<KernelArg>& args) const;
  LaunchResult launch(std::string_view kernel, const LaunchConfig& config,
                      const std::vector<KernelArg>& args);
  // A module-scope .global or .const variable (what cuModuleGetGlobal finds): its device address
  // and size, or nullopt when the module has none of that name. A .const variable's address lies
  // in the module's constant bank, which becomes device memory at the first such request, so that
  // the host can write it between launches.
  struct Variable {
    uint64_t address = 0;
    size_t size = 0;
  };
  std::optional<Variable> variable(std::string_view name);

private:
  friend class Device;
  struct Impl;
  explicit Module(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class Device {
public:
  Device();
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Device (global) memory. Addresses are guest addresses; copies outside an allocation throw
  // std::out_of_range.
  uint64_t malloc(size_t bytes);
  // Host memory used in place as device memory (no copy; kernels read and write it directly):
  // the caller keeps [host, host + bytes) alive until it frees the returned address. The device
  // address is the host address, as CUDA's unified addressing has it, unless that range is
  // already device memory (adopted twice) or reserved by ptxvm; then it is another address.
  uint64_t adopt(void* host, size_t bytes);
  // From now on malloc() and the variables of modules loaded later lie at the host address of
  // their storage where they can (unified addressing, as the drop-in CUDA driver gives it).
  void place_at_host_addresses();
  // Host memory a kernel reaches only through pointers it reads from memory (arrays of pointers):
  // when a kernel touches an address that no allocation holds, `resolver` is called with it
  // (possibly from several of the launch's host threads at once). It may adopt() the host memory
  // holding the address, at that same address, and returns whether it did; the access then goes
  // ahead, else it faults as before. An empty function removes it.
  void set_host_memory_resolver(std::function<bool(uint64_t address)> resolver);
  void free(uint64_t address);
  // The device-side heap of malloc and free in kernels (cudaLimitMallocHeapSize): the bytes its
  // blocks may hold at once; 8 MiB unless set.
  uint64_t malloc_heap_size() const;
  void set_malloc_heap_size(uint64_t bytes);
  uint64_t malloc_heap_used() const;  // the bytes its live blocks hold
  // The host bytes behind [address, address + bytes) when they lie inside one allocation, else
  // null.
  void* host_pointer(uint64_t address, size_t bytes);
  void copy_to_device(uint64_t dst, const void* src, size_t bytes);
  void copy_to_host(void* dst, uint64_t src, size_t bytes);

  // Texture, sampler and surface objects (PTX §5.3), what cuTexObjectCreate / cuSurfObjectCreate
  // make: the handle a kernel takes in a .u64 register, a kernel parameter or a .texref /
  // .samplerref / .surfref variable. The resource's texels stay in device memory the caller owns.
  // Throws std::invalid_argument (naming the rule) for a resource that cannot be read as described.
  uint64_t create_texture(const TextureResource& resource, const TextureSampler& sampler);
  uint64_t create_sampler(const TextureSampler& sampler);  // for independent texturing (.samplerref)
  uint64_t create_surface(const TextureResource& resource);
  void destroy_object(uint64_t handle);  // throws std::invalid_argument for an unknown handle

  // Parses, checks and prepares a module. On invalid or unsupported PTX returns null and puts
  // the diagnostics (file:line:col: error: ...) in *diagnostics. `optimize` false: as ptxas -O0
  // (a JIT optimization level of 0, or debug information) compiles it, with no mul/add fused and
  // no constant folded, where the default follows what ptxas's optimizations change in the bits.
  std::unique_ptr<Module> load_module(std::string_view ptx, const std::string& name,
                                      std::string* diagnostics, bool optimize = true);

  struct Impl;  // internal

private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ptxvm
