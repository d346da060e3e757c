// What the CUDA runtime asks the driver for beyond cuda.h: entry points by name and version
// (cuGetProcAddress, answered from the real driver's table, tests/hw/driver/proc_address.json)
// and the private tables of cuGetExportTable (docs/driver/CudartPrivateInterface.md §2; their
// sizes as the real driver reports them, tests/hw/driver/export_tables.json).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "driver.h"

using namespace ptxvm::cuda;

namespace {

// ---- cuGetProcAddress ----

struct ProcRow {
  const char* name;
  unsigned flags;  // 1 default, 2 legacy stream, 4 per-thread default stream
  int from;        // the CUDA version from which `symbol` answers (until a later row's)
  const char* symbol;
};
constexpr ProcRow kProcTable[] = {
#include "proc_address.inc"
};
constexpr int kDriverVersion = 13000;

// PTXVM_DRIVER_TRACE=1: every entry point and private table the program asks for, on stderr.
bool tracing() {
  static const bool on = std::getenv("PTXVM_DRIVER_TRACE") != nullptr;
  return on;
}

// This library's own exported symbol `name`, or null.
void* own_symbol(const char* name) {
  static void* self = [] {
    Dl_info info{};
    dladdr(reinterpret_cast<void*>(&own_symbol), &info);
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }();
  return self ? dlsym(self, name) : nullptr;
}

// ---- the private tables ----

CUresult load_fat_binary(CUmodule* m, const void* image) { return load_module(m, image); }
CUresult primary_context(CUcontext* ctx, CUdevice dev) {  // without retaining it
  if (!ctx || dev < 0 || dev >= driver().config.devices) return CUDA_ERROR_INVALID_VALUE;
  *ctx = driver().primary[static_cast<size_t>(dev)].get();
  return CUDA_SUCCESS;
}
CUresult primary_init_params(CUdevice, void**) { return CUDA_SUCCESS; }
CUresult primary_initialize(CUdevice, unsigned) { return CUDA_SUCCESS; }
CUresult primary_reset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }
CUresult load_fat_binary_relocated(CUmodule* m, const void* image, const char**, void**, unsigned count) {
  return count ? CUDA_ERROR_NOT_SUPPORTED : load_module(m, image);
}
void fat_binary_destroyed(const void*) {}
CUresult load_hidden(const void* image, CUmodule* m, CUjit_option*, void**, unsigned) { return load_module(m, image); }
CUresult load_compilers() { return CUDA_SUCCESS; }

// CUDART_INTERFACE: 13 slots, slot 0 the size; 9-11 unknown (slot 10 empty in the real driver).
const void* const kCudartInterface[13] = {
    reinterpret_cast<const void*>(13 * sizeof(void*)),
    reinterpret_cast<const void*>(&load_fat_binary),
    reinterpret_cast<const void*>(&primary_context),
    reinterpret_cast<const void*>(&primary_init_params),
    reinterpret_cast<const void*>(&primary_initialize),
    reinterpret_cast<const void*>(&primary_reset),
    reinterpret_cast<const void*>(&load_fat_binary_relocated),
    reinterpret_cast<const void*>(&fat_binary_destroyed),
    reinterpret_cast<const void*>(&load_hidden),
    nullptr,
    nullptr,
    nullptr,
    reinterpret_cast<const void*>(&load_compilers),
};

// Tools hooks: no profiler callback is ever enabled (all-zero enable buffers).
uint32_t callbacks_enabled[1024], internal_callbacks_enabled[14];
CUresult issue_callback(uint32_t, const void*) { return CUDA_SUCCESS; }
void enable_buffer(volatile uint32_t** buffer, size_t* count) {
  *buffer = callbacks_enabled;
  *count = 1024;
}
CUresult stream_id(CUcontext, CUstream s, uint64_t* id) {
  *id = reinterpret_cast<uintptr_t>(s);
  return CUDA_SUCCESS;
}
CUresult context_id(CUcontext c, uint64_t* id) {
  *id = reinterpret_cast<uintptr_t>(c);
  return CUDA_SUCCESS;
}
void internal_enable_buffer(volatile uint32_t** buffer, size_t* count) {
  *buffer = internal_callbacks_enabled;
  *count = 14;
}
const void* const kToolsHooks[7] = {
    reinterpret_cast<const void*>(7 * sizeof(void*)),   reinterpret_cast<const void*>(&issue_callback),
    reinterpret_cast<const void*>(&enable_buffer),      reinterpret_cast<const void*>(&stream_id),
    reinterpret_cast<const void*>(&context_id),         reinterpret_cast<const void*>(&issue_callback),
    reinterpret_cast<const void*>(&internal_enable_buffer),
};

const void* const kToolsTls[3] = {
    reinterpret_cast<const void*>(3 * sizeof(void*)),
    reinterpret_cast<const void*>(&cuCtxSetCurrent),
    reinterpret_cast<const void*>(&cuCtxGetCurrent),
};

// Context-local storage: (context, key) -> data, with a destructor run when the context resets.
CUresult store(CUcontext ctx, void* key, void* data, void (*destroy)(CUcontext, void*, void*)) {
  if (!ctx) ctx = current();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard lock(driver().mutex);
  ctx->stored[key] = {data, destroy};
  return CUDA_SUCCESS;
}
CUresult unstore(CUcontext ctx, void* key) {
  if (!ctx) ctx = current();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard lock(driver().mutex);
  ctx->stored.erase(key);
  return CUDA_SUCCESS;
}
CUresult stored(void** data, CUcontext ctx, void* key) {
  if (!ctx) ctx = current();
  if (!ctx || !data) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard lock(driver().mutex);
  auto it = ctx->stored.find(key);
  if (it == ctx->stored.end()) return CUDA_ERROR_INVALID_HANDLE;
  *data = it->second.data;
  return CUDA_SUCCESS;
}
const void* const kContextStorage[4] = {reinterpret_cast<const void*>(&store), reinterpret_cast<const void*>(&unstore),
                                        reinterpret_cast<const void*>(&stored), nullptr};

// The runtime's check that it talks to NVIDIA's driver: the fixed answers for runtime versions
// ending in 0 or 1; others need a keyed hash ptxvm does not compute.
CUresult integrity(uint32_t version, uint64_t, uint64_t out[2]) {
  if (version % 10 > 1) return CUDA_ERROR_NOT_SUPPORTED;
  out[0] = version % 10 == 0 ? 0x3341181C03CB675Cull : 0x1841181C03CB675Cull;
  out[1] = 0x8ED383AA1F4CD1E8ull;
  return CUDA_SUCCESS;
}
const void* const kIntegrity[3] = {reinterpret_cast<const void*>(3 * sizeof(void*)),
                                   reinterpret_cast<const void*>(&integrity), nullptr};

CUresult unwrap_context(CUcontext ctx, uint32_t* wrapped, CUcontext* inner) {
  if (wrapped) *wrapped = 0;
  if (inner) *inner = ctx;
  return CUDA_SUCCESS;
}
uint32_t no_flags() { return 0; }
const void* const kContextChecks[15] = {reinterpret_cast<const void*>(15 * sizeof(void*)), nullptr,
                                        reinterpret_cast<const void*>(&unwrap_context),
                                        reinterpret_cast<const void*>(&no_flags)};

struct Table {
  unsigned char id[16];
  const void* const* table;
};
const Table kTables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}, kCudartInterface},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}, kToolsHooks},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}, kToolsTls},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}, kContextStorage},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}, kIntegrity},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}, kContextChecks},
};

}  // namespace

extern "C" {

CUresult CUDAAPI cuGetExportTable(const void** table, const CUuuid* id) {
  if (!table || !id) return CUDA_ERROR_INVALID_VALUE;
  if (tracing()) {
    std::fprintf(stderr, "ptxvm driver: cuGetExportTable ");
    for (char b : id->bytes) std::fprintf(stderr, "%02x", static_cast<unsigned char>(b));
    std::fprintf(stderr, "\n");
  }
  for (const Table& t : kTables)
    if (std::memcmp(t.id, id->bytes, 16) == 0) {
      *table = t.table;
      return CUDA_SUCCESS;
    }
  *table = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetProcAddress_v2(const char* symbol, void** pfn, int version, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult* status) {
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  if (version > kDriverVersion) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  const unsigned flag = flags == CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM ? 4
                        : flags == CU_GET_PROC_ADDRESS_LEGACY_STREAM         ? 2
                                                                             : 1;
  // the row of `symbol` whose version range begins last at or before `version`
  const ProcRow* best = nullptr;
  bool known = false;
  for (const ProcRow& r : kProcTable) {
    if (std::string_view(r.name) != symbol || !(r.flags & flag)) continue;
    known = true;
    if (r.from <= version && (!best || r.from > best->from)) best = &r;
  }
  if (best) *pfn = own_symbol(best->symbol);
  if (tracing())
    std::fprintf(stderr, "ptxvm driver: cuGetProcAddress %s %d %llu -> %s\n", symbol, version,
                 static_cast<unsigned long long>(flags), *pfn ? best->symbol : "none");
  if (status)
    *status = *pfn                ? CU_GET_PROC_ADDRESS_SUCCESS
              : known && !best ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                               : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_SUCCESS;
}

// CUDA 11.3-12.x's form, without the status (cuda.h now names cuGetProcAddress_v2 so).
#undef cuGetProcAddress
CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, nullptr);
}

}  // extern "C"
