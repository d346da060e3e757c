// Modules, libraries, kernels and launches (CUDA Driver API §6.10-6.12, §6.22): a module is a
// ptxvm::Module loaded from PTX text or from the PTX of a fat binary; a launch runs at once.
#include <cstdio>
#include <cstring>
#include <string>

#include "driver.h"
#include "fatbin.h"

namespace ptxvm::cuda {

bool read_file(const char* path, std::string& bytes) {
  std::FILE* file = std::fopen(path, "rb");
  if (!file) return false;
  char chunk[65536];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, file)) > 0;) bytes.append(chunk, n);
  std::fclose(file);
  return true;
}

bool jit_optimizes(const CUjit_option* options, void* const* values, unsigned count) {
  bool optimize = true;
  for (unsigned i = 0; options && values && i < count; ++i) {
    const auto value = reinterpret_cast<uintptr_t>(values[i]);  // scalar options travel as the pointer's value
    if (options[i] == CU_JIT_OPTIMIZATION_LEVEL) optimize = static_cast<unsigned>(value) != 0;
    if (options[i] == CU_JIT_GENERATE_DEBUG_INFO && static_cast<int>(value) != 0) optimize = false;
  }
  return optimize;
}

CUresult load_module(CUmodule* out, const void* image, bool optimize) {
  if (!out || !image) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  Driver& d = driver();
  uint32_t magic;
  std::memcpy(&magic, image, sizeof magic);
  std::string ptx, why;
  if (magic == kFatbinMagic || magic == kFatbinWrapperMagic) {
    ptx = fatbin_ptx(image, static_cast<unsigned>(d.config.major * 10 + d.config.minor), why);
    if (ptx.empty()) {
      std::fprintf(stderr, "ptxvm: %s\n", why.c_str());
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
  } else if (magic == 0x464c457f) {  // "\x7fELF": a cubin, from nvcc -cubin or NVRTC's nvrtcGetCUBIN
    std::fprintf(stderr, "ptxvm: a cubin holds machine code only, which ptxvm cannot run: load PTX instead (nvcc: "
                         "-gencode arch=compute_XX,code=compute_XX; NVRTC: --gpu-architecture=compute_XX, then "
                         "nvrtcGetPTX rather than nvrtcGetCUBIN)\n");
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  } else {
    ptx = static_cast<const char*>(image);
  }
  std::string diagnostics;
  auto module = d.device.load_module(ptx, "module.ptx", &diagnostics, optimize);
  if (!module) {
    std::fprintf(stderr, "ptxvm: the module does not load:\n%s", diagnostics.c_str());
    return CUDA_ERROR_INVALID_PTX;
  }
  auto m = std::make_unique<CUmod_st>();
  m->module = std::move(module);
  for (const std::string& name : m->module->kernels()) {
    auto f = std::make_unique<CUfunc_st>();
    f->module = m.get();
    f->name = name;
    f->params = m->module->params(name);
    m->functions[name] = std::move(f);
  }
  *out = m.release();
  return CUDA_SUCCESS;
}

CUresult arguments(CUfunc_st* f, void** params, void** extra, std::vector<KernelArg>& args) {
  // The arguments: one pointer per parameter (kernelParams), or one buffer laid out as the
  // parameters are (extra = {CU_LAUNCH_PARAM_BUFFER_POINTER, p, CU_LAUNCH_PARAM_BUFFER_SIZE, &n, END}).
  const uint8_t* buffer = nullptr;
  size_t buffer_size = 0;
  for (void** e = extra; e && *e != CU_LAUNCH_PARAM_END; e += 2) {
    if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = static_cast<const uint8_t*>(e[1]);
    else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE) buffer_size = *static_cast<size_t*>(e[1]);
    else return CUDA_ERROR_INVALID_VALUE;
  }
  if (!params && !buffer && !f->params.empty()) return CUDA_ERROR_INVALID_VALUE;
  args.clear();
  size_t offset = 0;
  for (size_t i = 0; i < f->params.size(); ++i) {
    const KernelParam& p = f->params[i];
    offset = (offset + p.align - 1) / p.align * p.align;
    const uint8_t* from = params ? static_cast<const uint8_t*>(params[i]) : buffer + offset;
    if (!params && offset + p.size > buffer_size) return CUDA_ERROR_INVALID_VALUE;
    args.push_back({std::vector<uint8_t>(from, from + p.size)});
    offset += p.size;
  }
  return CUDA_SUCCESS;
}

CUresult launch(CUfunc_st* f, LaunchConfig config, void** params, void** extra, CUstream stream) {
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  if (CUresult r = ready()) return r;
  std::vector<KernelArg> args;
  if (CUresult r = arguments(f, params, extra, args)) return r;
  if (capturing(stream)) {
    CUgraphNode_st node;
    node.type = CU_GRAPH_NODE_TYPE_KERNEL;
    node.function = f, node.config = config, node.args = std::move(args);
    record(stream, std::move(node));
    return CUDA_SUCCESS;
  }
  // A launch is asynchronous: it returns before the kernel runs, and may return "error codes from
  // previous, asynchronous launches" (cuLaunchKernel's documentation), not the kernel's own. So
  // the kernel's fault is the sticky error of the calls after it; only a refused launch fails here.
  const CUresult r = run(f, config, args);
  return r != CUDA_SUCCESS && r == driver().sticky ? CUDA_SUCCESS : r;
}

CUresult run(CUfunc_st* f, const LaunchConfig& config, const std::vector<KernelArg>& args) {
  if (std::string why = f->module->module->check_launch(f->name, config, args); !why.empty()) {
    std::fprintf(stderr, "ptxvm: %s\n", why.c_str());
    return CUDA_ERROR_INVALID_VALUE;
  }
  const LaunchResult r = f->module->module->launch(f->name, config, args);
  if (!r.output.empty()) {
    std::fwrite(r.output.data(), 1, r.output.size(), stdout);
    std::fflush(stdout);
  }
  if (r.ok) return CUDA_SUCCESS;
  std::fprintf(stderr, "%s\n", r.error.c_str());  // the report names ptxvm, kernel, CTA, warp, lane, line
  if (!r.guest_fault) return CUDA_ERROR_INVALID_VALUE;
  const CUresult fault = r.error.find("assertion") != std::string::npos ? CUDA_ERROR_ASSERT
                         : r.error.find("misaligned") != std::string::npos ? CUDA_ERROR_MISALIGNED_ADDRESS
                         : r.error.find("trap") != std::string::npos ? CUDA_ERROR_LAUNCH_FAILED
                                                                      : CUDA_ERROR_ILLEGAL_ADDRESS;
  driver().sticky = fault;
  return fault;
}

LaunchConfig config_of(CUfunc_st* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       unsigned shared) {
  LaunchConfig c;
  c.grid = {gx, gy, gz};
  c.block = {bx, by, bz};
  c.shared_bytes = shared;
  if (f && f->cluster[0]) {
    c.cluster = {static_cast<uint32_t>(f->cluster[0]), static_cast<uint32_t>(f->cluster[1]),
                 static_cast<uint32_t>(f->cluster[2])};
    c.explicit_cluster = true;
  }
  if (f) c.non_portable_cluster = f->non_portable_cluster;
  return c;
}

}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;

namespace {

CUresult get_global(CUdeviceptr* dptr, size_t* bytes, CUmodule m, const char* name) {
  if (!m || !name) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  auto v = m->module->variable(name);
  if (!v) return CUDA_ERROR_NOT_FOUND;
  if (dptr) *dptr = v->address;
  if (bytes) *bytes = v->size;
  return CUDA_SUCCESS;
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuModuleLoadData(CUmodule* m, const void* image) { return load_module(m, image); }
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* m, const void* image, unsigned count, CUjit_option* options,
                                    void** values) {
  return load_module(m, image, jit_optimizes(options, values, count));
}
CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* m, const void* image) { return load_module(m, image); }

CUresult CUDAAPI cuModuleLoad(CUmodule* m, const char* path) {
  if (!path) return CUDA_ERROR_INVALID_VALUE;
  std::string bytes;
  if (!read_file(path, bytes)) return CUDA_ERROR_FILE_NOT_FOUND;
  return load_module(m, bytes.c_str());
}

CUresult CUDAAPI cuModuleUnload(CUmodule m) {
  if (!m) return CUDA_ERROR_INVALID_HANDLE;
  delete m;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name) {
  if (!f || !m || !name) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  auto it = m->functions.find(name);
  if (it == m->functions.end()) return CUDA_ERROR_NOT_FOUND;
  *f = it->second.get();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetGlobal_v2(CUdeviceptr* dptr, size_t* bytes, CUmodule m, const char* name) {
  return get_global(dptr, bytes, m, name);
}

// Libraries (CUDA 12+): a library is its module; a CUkernel is the module's CUfunction.
CUresult CUDAAPI cuLibraryLoadData(CUlibrary* lib, const void* image, CUjit_option* jit, void** jit_values,
                                   unsigned jit_count, CUlibraryOption*, void**, unsigned) {
  if (!lib) return CUDA_ERROR_INVALID_VALUE;
  CUmodule m = nullptr;
  if (CUresult r = load_module(&m, image, jit_optimizes(jit, jit_values, jit_count))) return r;
  *lib = new CUlib_st{m};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryUnload(CUlibrary lib) {
  if (!lib) return CUDA_ERROR_INVALID_HANDLE;
  delete lib->module;
  delete lib;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetModule(CUmodule* m, CUlibrary lib) {
  if (!m || !lib) return CUDA_ERROR_INVALID_VALUE;
  *m = lib->module;
  return ready();
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel* k, CUlibrary lib, const char* name) {
  if (!k || !lib) return CUDA_ERROR_INVALID_VALUE;
  CUfunction f = nullptr;
  CUresult r = cuModuleGetFunction(&f, lib->module, name);
  *k = reinterpret_cast<CUkernel>(f);
  return r;
}

CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary lib, const char* name) {
  if (!lib) return CUDA_ERROR_INVALID_HANDLE;
  return get_global(dptr, bytes, lib->module, name);
}

CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr* dptr, size_t* bytes, CUlibrary lib, const char* name) {
  return cuLibraryGetGlobal(dptr, bytes, lib, name);
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction* f, CUkernel k) {
  if (!f || !k) return CUDA_ERROR_INVALID_VALUE;
  *f = reinterpret_cast<CUfunction>(k);
  return ready();
}

CUresult CUDAAPI cuKernelGetLibrary(CUlibrary*, CUkernel) { return CUDA_ERROR_NOT_SUPPORTED; }

CUresult CUDAAPI cuFuncGetName(const char** name, CUfunction f) {
  if (!name || !f) return CUDA_ERROR_INVALID_VALUE;
  *name = f->name.c_str();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetAttribute(int* value, CUfunction_attribute attr, CUfunction f) {
  if (!value || !f) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  const int arch = driver().config.major * 10 + driver().config.minor;
  switch (attr) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = int(f->module->module->max_threads(f->name)); break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = 32; break;  // nominal: ptxvm has no register allocation
  case CU_FUNC_ATTRIBUTE_PTX_VERSION:
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *value = arch; break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = f->max_dynamic_shared_bytes(); break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = static_cast<int>(f->module->module->static_shared_bytes(f->name)); break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *value = f->cluster[0]; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *value = f->cluster[1]; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *value = f->cluster[2]; break;
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *value = f->non_portable_cluster; break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = static_cast<int>(f->module->module->local_bytes(f->name)); break;
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = static_cast<int>(f->module->module->constant_bytes()); break;
  default: *value = 0;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction f, CUfunction_attribute attr, int value) {
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  switch (attr) {
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: f->max_dynamic_shared = value; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: f->cluster[0] = value; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: f->cluster[1] = value; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: f->cluster[2] = value; break;
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: f->non_portable_cluster = value != 0; break;
  default: break;  // carve-out and cache preferences: nothing to set
  }
  return ready();
}

CUresult CUDAAPI cuKernelGetAttribute(int* value, CUfunction_attribute attr, CUkernel k, CUdevice) {
  return cuFuncGetAttribute(value, attr, reinterpret_cast<CUfunction>(k));
}
CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attr, int value, CUkernel k, CUdevice) {
  return cuFuncSetAttribute(reinterpret_cast<CUfunction>(k), attr, value);
}
CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction, CUfunc_cache) { return ready(); }
CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel, CUfunc_cache, CUdevice) { return ready(); }
// Parameter `index`'s offset and size in the kernel's parameter buffer (cuFuncGetParamInfo), laid
// out as arguments() reads it.
CUresult CUDAAPI cuFuncGetParamInfo(CUfunction f, size_t index, size_t* offset, size_t* size) {
  if (!f || !offset || !size) return CUDA_ERROR_INVALID_VALUE;
  if (index >= f->params.size()) return CUDA_ERROR_INVALID_VALUE;
  size_t at = 0;
  for (size_t i = 0;; ++i) {
    const ptxvm::KernelParam& p = f->params[i];
    at = (at + p.align - 1) / p.align * p.align;
    if (i == index) {
      *offset = at, *size = p.size;
      return ready();
    }
    at += p.size;
  }
}
CUresult CUDAAPI cuKernelGetParamInfo(CUkernel k, size_t index, size_t* offset, size_t* size) {
  return cuFuncGetParamInfo(reinterpret_cast<CUfunction>(k), index, offset, size);
}
CUresult CUDAAPI cuKernelGetName(const char** name, CUkernel k) {
  return cuFuncGetName(name, reinterpret_cast<CUfunction>(k));
}
// Modules load eagerly: a function is loaded as soon as it exists.
CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState* state, CUfunction f) {
  if (!state || !f) return CUDA_ERROR_INVALID_VALUE;
  *state = CU_FUNCTION_LOADING_STATE_LOADED;
  return ready();
}
CUresult CUDAAPI cuFuncLoad(CUfunction f) { return f ? ready() : CUDA_ERROR_INVALID_HANDLE; }

// A module's kernels: how many, and up to `count` of them.
CUresult CUDAAPI cuModuleGetFunctionCount(unsigned* count, CUmodule m) {
  if (!count || !m) return CUDA_ERROR_INVALID_VALUE;
  *count = unsigned(m->functions.size());
  return ready();
}
CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction* functions, unsigned count, CUmodule m) {
  if (!functions || !m) return CUDA_ERROR_INVALID_VALUE;
  unsigned i = 0;
  for (auto it = m->functions.begin(); it != m->functions.end() && i < count; ++it) functions[i++] = it->second.get();
  return ready();
}
CUresult CUDAAPI cuLibraryGetKernelCount(unsigned* count, CUlibrary lib) {
  if (!lib) return CUDA_ERROR_INVALID_HANDLE;
  return cuModuleGetFunctionCount(count, lib->module);
}
CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel* kernels, unsigned count, CUlibrary lib) {
  if (!lib) return CUDA_ERROR_INVALID_HANDLE;
  return cuModuleEnumerateFunctions(reinterpret_cast<CUfunction*>(kernels), count, lib->module);
}
CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary* lib, const char* path, CUjit_option* jit, void** jit_values,
                                       unsigned jit_count, CUlibraryOption* options, void** values, unsigned count) {
  if (!path) return CUDA_ERROR_INVALID_VALUE;
  std::string bytes;
  if (!read_file(path, bytes)) return CUDA_ERROR_FILE_NOT_FOUND;
  return cuLibraryLoadData(lib, bytes.c_str(), jit, jit_values, jit_count, options, values, count);
}

CUresult CUDAAPI cuFuncGetModule(CUmodule* m, CUfunction f) {
  if (!m || !f) return CUDA_ERROR_INVALID_VALUE;
  *m = f->module;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                unsigned bz, unsigned shared, CUstream stream, void** params, void** extra) {
  return launch(f, config_of(f, gx, gy, gz, bx, by, bz, shared), params, extra, stream);
}

CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                           unsigned by, unsigned bz, unsigned shared, CUstream stream, void** params) {
  ptxvm::LaunchConfig c = config_of(f, gx, gy, gz, bx, by, bz, shared);
  c.cooperative = true;
  return launch(f, c, params, nullptr, stream);
}

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) {
  if (!config) return CUDA_ERROR_INVALID_VALUE;
  ptxvm::LaunchConfig c = config_of(f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX,
                                    config->blockDimY, config->blockDimZ, config->sharedMemBytes);
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute& a = config->attrs[i];
    if (a.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      c.cluster = {a.value.clusterDim.x, a.value.clusterDim.y, a.value.clusterDim.z};
      c.explicit_cluster = true;
    } else if (a.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
      c.cooperative = a.value.cooperative != 0;
    }
  }
  return launch(f, c, params, extra, config->hStream);
}

// Blocks of `block` threads resident on one SM: at most 32, 2048 threads, and the SM's 228 KiB
// of shared memory shared among their static and dynamic shared memory and the 1 KiB the system
// reserves per block; none when the dynamic shared memory asked for is more than the kernel may
// take. An H200 answers so in all 56 cases of tests/hw/driver/occupancy.
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunction f, int block, size_t shared) {
  if (!blocks || !f || block <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  constexpr int64_t kPerSm = 228 * 1024;
  const int64_t per_block = int64_t{f->module->module->static_shared_bytes(f->name)} + int64_t(shared) + 1024;
  *blocks = int(std::min<int64_t>(std::max(1, std::min(32, 2048 / block)), kPerSm / per_block));
  if (int64_t(shared) > f->max_dynamic_shared_bytes()) *blocks = 0;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, CUfunction f, int block,
                                                                      size_t shared, unsigned) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block, shared);
}

// The dynamic shared memory each of `blocks` resident blocks of `block` threads may take, as an
// H200 answers (tests/hw/driver/occupancy): an SM's 228 KiB shared among them less the kernel's
// static shared memory, within the kernel's dynamic limit; more threads than an SM's 2048, or
// more than 32 blocks, is an invalid request.
CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, CUfunction f, int blocks, int block) {
  if (!bytes || !f || blocks <= 0 || block <= 0 || blocks > 32 || int64_t{blocks} * block > 2048)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  constexpr int64_t kPerSm = 228 * 1024;
  const int64_t fixed = f->module->module->static_shared_bytes(f->name);
  *bytes = static_cast<size_t>(std::max<int64_t>(0, std::min<int64_t>(kPerSm / blocks - fixed, f->max_dynamic_shared_bytes())));
  return CUDA_SUCCESS;
}

// Clusters of the launch's shape (or the kernel's) that fit at once: the device's SMs times the
// blocks each holds (at most 8 for a cluster launch, as an H200 answers), shared among the
// cluster's CTAs. An H200 answers this exactly for clusters of 1 and 2 CTAs and up to a tenth
// lower for larger ones, whose CTAs must share a GPC (tests/hw/driver/occupancy).
CUresult CUDAAPI cuOccupancyMaxActiveClusters(int* clusters, CUfunction f, const CUlaunchConfig* config) {
  if (!clusters || !f || !config) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  unsigned size = std::max(1, f->cluster[0] * std::max(1, f->cluster[1]) * std::max(1, f->cluster[2]));
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      const auto& d = config->attrs[i].value.clusterDim;
      size = std::max(1u, d.x * d.y * d.z);
    }
  const unsigned threads = std::max(1u, config->blockDimX * config->blockDimY * config->blockDimZ);
  if (threads > 1024) return CUDA_ERROR_INVALID_VALUE;
  int sms = 0;
  if (CUresult r = cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0)) return r;
  const int per_sm = static_cast<int>(std::min(8u, 2048 / threads));
  *clusters = size > 16 ? 0 : sms * per_sm / static_cast<int>(size);
  return CUDA_SUCCESS;
}

// The block size of the highest occupancy (blocks per SM times threads; the larger block on a tie)
// and the grid that fills the device at it (cuOccupancyMaxPotentialBlockSize): block sizes from
// the kernel's limit (and `limit`, when not 0) down by whole warps, each with the dynamic shared
// memory `dynamic` or the callback gives it.
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid, int* block, CUfunction f,
                                                          CUoccupancyB2DSize dynamic_of, size_t dynamic, int limit,
                                                          unsigned) {
  if (!min_grid || !block || !f || limit < 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  int most = 0, sms = 0;
  if (CUresult r = cuFuncGetAttribute(&most, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f)) return r;
  if (CUresult r = cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0)) return r;
  if (limit > 0) most = std::min(most, limit);
  int best_block = 0, best_blocks = 0;
  for (int threads = most; threads > 0; threads = (threads - 1) / 32 * 32) {
    int blocks = 0;
    const size_t shared = dynamic_of ? dynamic_of(threads) : dynamic;
    if (CUresult r = cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, threads, shared)) return r;
    if (blocks * threads > best_blocks * best_block) best_block = threads, best_blocks = blocks;
  }
  *block = best_block;
  *min_grid = best_blocks * sms;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int* min_grid, int* block, CUfunction f, CUoccupancyB2DSize dynamic_of,
                                                 size_t dynamic, int limit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block, f, dynamic_of, dynamic, limit, 0);
}

int CUfunc_st::max_dynamic_shared_bytes() const {
  return max_dynamic_shared >= 0 ? max_dynamic_shared
                                 : std::max(0, 48 * 1024 - static_cast<int>(module->module->static_shared_bytes(name)));
}

// Modules load eagerly: every kernel of a module is ready when cuModuleLoadData returns.
CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  *mode = CU_MODULE_EAGER_LOADING;
  return CUDA_SUCCESS;
}

}  // extern "C"
