// libptxvm_bitdiff.so: an LD_PRELOAD interposer over the CUDA runtime (libcudart.so, the shared
// one: build programs with `nvcc -cudart shared`) that hashes what every device-to-host copy
// leaves in host memory, so that a program's run on a GPU and over ptxvm can be compared bit for
// bit, copy by copy (docs/BitDiff.md).
//
// One log line per copy:   SEQ BYTES HASH LAUNCHES FUNCTION
//   SEQ       the copy's number, from 0, in the order the program's calls return
//   BYTES     the bytes copied (rows of a 2D/3D copy packed, the destination's pitch gaps left out)
//   HASH      64-bit FNV-1a of those bytes, 16 hex digits
//   LAUNCHES  kernel launches the program had made so far (<<<>>>, cudaLaunchKernel,
//             cudaLaunchCooperativeKernel, cudaLaunchKernelEx; graph launches do not count)
//   FUNCTION  the runtime function the program called
// Lines starting with '#' are comments (the header; copies made during stream capture, which are
// not hashed).
//
// Environment:
//   BITDIFF_LOG       the log file, written anew when the library loads (a program that starts
//                     others under the same LD_PRELOAD would have each rewrite it); stderr when unset
//   BITDIFF_DUMP      a directory: the copied bytes of each copy go to DIR/SEQ.bin
//   BITDIFF_DUMP_SEQ  with BITDIFF_DUMP, only these copies (comma-separated sequence numbers)
//
// Copies seen: cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2D, cudaMemcpy2DAsync,
// cudaMemcpy2DFromArray, cudaMemcpy2DFromArrayAsync, cudaMemcpyFromArray, cudaMemcpyFromSymbol,
// cudaMemcpyFromSymbolAsync, cudaMemcpy3D, cudaMemcpy3DAsync, each when its kind is
// cudaMemcpyDeviceToHost, or cudaMemcpyDefault with device (or managed) source memory and host
// destination memory. An asynchronous copy is hashed after synchronizing its stream. Not seen:
// copies made by graph memcpy nodes, peer and batch copies, the driver API's cuMemcpy*, and
// host reads of mapped, managed or zero-copy memory.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

std::mutex mutex;           // guards everything below
FILE* log_file = nullptr;   // opened when the library loads (open_log)
long next_seq = 0;
long launches = 0;
struct Dump {
  std::string dir;
  std::set<long> only;  // empty: every copy
};
// Built at its first use: the library's constructor (open_log) may run before this file's
// objects with constructors are built.
Dump& dump() {
  static Dump d;
  return d;
}
thread_local int depth = 0;  // runtime calls of ours on this thread's stack: only the outermost counts

struct Nested {
  Nested() { ++depth; }
  ~Nested() { --depth; }
  bool outermost() const { return depth == 1; }
};

// The function the next library (the CUDA runtime) defines under `name`.
template <class F>
F next(const char* name) {
  void* p = dlsym(RTLD_NEXT, name);
  if (!p) {
    std::fprintf(stderr, "bitdiff: the CUDA runtime has no %s\n", name);
    std::abort();
  }
  return reinterpret_cast<F>(p);
}
#define NEXT(name) static const auto real = next<decltype(&name)>(#name)

// The log, opened when the library loads: a program that copies nothing leaves a log of the
// header alone.
FILE* log_locked() {
  if (log_file) return log_file;
  const char* path = std::getenv("BITDIFF_LOG");
  log_file = path && *path ? std::fopen(path, "w") : stderr;
  if (!log_file) {
    std::fprintf(stderr, "bitdiff: cannot write %s\n", path);
    log_file = stderr;
  }
  if (const char* d = std::getenv("BITDIFF_DUMP")) dump().dir = d;
  if (const char* s = std::getenv("BITDIFF_DUMP_SEQ"))
    for (const char* p = s; *p;) {
      char* end;
      const long seq = std::strtol(p, &end, 10);
      if (end == p) break;
      dump().only.insert(seq);
      p = *end == ',' ? end + 1 : end;
    }
  std::fprintf(log_file, "# bitdiff: seq bytes fnv1a64 launches function\n");
  return log_file;
}

__attribute__((constructor)) void open_log() {
  std::lock_guard<std::mutex> lock(mutex);
  log_locked();
}

uint64_t fnv1a(const unsigned char* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// Records a copy whose destination holds `slices` slices of `height` rows of `width` bytes, rows
// `pitch` bytes apart and slices `slice` bytes apart.
void record(const char* function, const void* dst, size_t width, size_t height = 1, size_t pitch = 0,
            size_t slices = 1, size_t slice = 0) {
  const size_t total = width * height * slices;
  const unsigned char* bytes = static_cast<const unsigned char*>(dst);
  std::vector<unsigned char> packed;
  const bool dense = (height <= 1 || pitch == width) && (slices <= 1 || slice == width * height);
  if (!dense) {
    packed.resize(total);
    for (size_t z = 0; z < slices; ++z)
      for (size_t y = 0; y < height; ++y)
        std::memcpy(&packed[(z * height + y) * width], bytes + z * slice + y * pitch, width);
    bytes = packed.data();
  }
  std::lock_guard<std::mutex> lock(mutex);
  FILE* f = log_locked();
  const long seq = next_seq++;
  std::fprintf(f, "%ld %zu %016llx %ld %s\n", seq, total, (unsigned long long)fnv1a(bytes, total), launches,
               function);
  std::fflush(f);
  const Dump& d = dump();
  if (!d.dir.empty() && (d.only.empty() || d.only.count(seq))) {
    const std::string path = d.dir + "/" + std::to_string(seq) + ".bin";
    if (FILE* out = std::fopen(path.c_str(), "wb")) {
      std::fwrite(bytes, 1, total, out);
      std::fclose(out);
    }
  }
}

void note(const char* function, const char* what) {
  std::lock_guard<std::mutex> lock(mutex);
  std::fprintf(log_locked(), "# %s %s\n", function, what);
  std::fflush(log_file);
}

// What kind of memory `p` is; cudaMemoryTypeUnregistered for pageable host memory.
cudaMemoryType memory_type(const void* p) {
  NEXT(cudaPointerGetAttributes);
  cudaPointerAttributes a;
  if (real(&a, p) != cudaSuccess) {
    cudaGetLastError();  // not the program's error
    return cudaMemoryTypeUnregistered;
  }
  return a.type;
}
bool is_host(const void* p) {
  const cudaMemoryType t = memory_type(p);
  return t == cudaMemoryTypeHost || t == cudaMemoryTypeUnregistered;
}
bool is_device(const void* p) {
  const cudaMemoryType t = memory_type(p);
  return t == cudaMemoryTypeDevice || t == cudaMemoryTypeManaged;
}
// Whether a copy of `kind` lands in host memory from the device. `src` is null where the source
// is an array or a symbol (device memory).
bool to_host(cudaMemcpyKind kind, void* dst, const void* src) {
  if (kind == cudaMemcpyDeviceToHost) return true;
  return kind == cudaMemcpyDefault && (!src || is_device(src)) && is_host(dst);
}

// Waits for an asynchronous copy on `stream`; false (and a comment) while the stream is being
// captured, when the copy has not run.
bool wait_for(const char* function, cudaStream_t stream) {
  NEXT(cudaStreamIsCapturing);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (real(stream, &status) != cudaSuccess) {
    cudaGetLastError();
    note(function, "on a stream whose capture status is unknown: not hashed");
    return false;
  }
  if (status != cudaStreamCaptureStatusNone) {
    note(function, "during stream capture: not hashed");
    return false;
  }
  static const auto sync = next<decltype(&cudaStreamSynchronize)>("cudaStreamSynchronize");
  return sync(stream) == cudaSuccess;
}

// The bytes of one element of `array`.
size_t element_size(cudaArray_const_t array) {
  cudaChannelFormatDesc desc;
  cudaExtent extent;
  unsigned flags;
  if (cudaArrayGetInfo(&desc, &extent, &flags, const_cast<cudaArray_t>(array)) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return size_t(desc.x + desc.y + desc.z + desc.w) / 8;
}

// A 3D copy into linear host memory. With an array on the other side, the extent and the
// destination's x position count the array's elements, else bytes.
void record_3d(const char* function, const cudaMemcpy3DParms* p) {
  size_t unit = 1;
  if (p->srcArray && !(unit = element_size(p->srcArray))) {
    note(function, "from an array of unknown element size: not hashed");
    return;
  }
  const cudaPitchedPtr& d = p->dstPtr;
  const size_t slice = d.pitch * d.ysize;
  const char* base = static_cast<const char*>(d.ptr) + p->dstPos.z * slice + p->dstPos.y * d.pitch + p->dstPos.x * unit;
  record(function, base, p->extent.width * unit, p->extent.height, d.pitch, p->extent.depth, slice);
}
bool to_host_3d(const cudaMemcpy3DParms* p) {
  if (!p || p->dstArray || !p->dstPtr.ptr) return false;
  return to_host(p->kind, p->dstPtr.ptr, p->srcArray ? nullptr : p->srcPtr.ptr);
}

void count_launch() {
  std::lock_guard<std::mutex> lock(mutex);
  ++launches;
}

}  // namespace

extern "C" {

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  NEXT(cudaMemcpy);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, src);
  const cudaError_t e = real(dst, src, count, kind);
  if (e == cudaSuccess && seen) record("cudaMemcpy", dst, count);
  return e;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  NEXT(cudaMemcpyAsync);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, src);
  const cudaError_t e = real(dst, src, count, kind, stream);
  if (e == cudaSuccess && seen && wait_for("cudaMemcpyAsync", stream)) record("cudaMemcpyAsync", dst, count);
  return e;
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  NEXT(cudaMemcpy2D);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, src);
  const cudaError_t e = real(dst, dpitch, src, spitch, width, height, kind);
  if (e == cudaSuccess && seen) record("cudaMemcpy2D", dst, width, height, dpitch);
  return e;
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream) {
  NEXT(cudaMemcpy2DAsync);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, src);
  const cudaError_t e = real(dst, dpitch, src, spitch, width, height, kind, stream);
  if (e == cudaSuccess && seen && wait_for("cudaMemcpy2DAsync", stream))
    record("cudaMemcpy2DAsync", dst, width, height, dpitch);
  return e;
}

cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, cudaMemcpyKind kind) {
  NEXT(cudaMemcpy2DFromArray);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, nullptr);
  const cudaError_t e = real(dst, dpitch, src, wOffset, hOffset, width, height, kind);
  if (e == cudaSuccess && seen) record("cudaMemcpy2DFromArray", dst, width, height, dpitch);
  return e;
}

cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  NEXT(cudaMemcpy2DFromArrayAsync);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, nullptr);
  const cudaError_t e = real(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream);
  if (e == cudaSuccess && seen && wait_for("cudaMemcpy2DFromArrayAsync", stream))
    record("cudaMemcpy2DFromArrayAsync", dst, width, height, dpitch);
  return e;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                cudaMemcpyKind kind) {
  NEXT(cudaMemcpyFromArray);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, nullptr);
  const cudaError_t e = real(dst, src, wOffset, hOffset, count, kind);
  if (e == cudaSuccess && seen) record("cudaMemcpyFromArray", dst, count);
  return e;
}
#pragma GCC diagnostic pop

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
  NEXT(cudaMemcpyFromSymbol);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, nullptr);
  const cudaError_t e = real(dst, symbol, count, offset, kind);
  if (e == cudaSuccess && seen) record("cudaMemcpyFromSymbol", dst, count);
  return e;
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t stream) {
  NEXT(cudaMemcpyFromSymbolAsync);
  Nested n;
  const bool seen = n.outermost() && to_host(kind, dst, nullptr);
  const cudaError_t e = real(dst, symbol, count, offset, kind, stream);
  if (e == cudaSuccess && seen && wait_for("cudaMemcpyFromSymbolAsync", stream))
    record("cudaMemcpyFromSymbolAsync", dst, count);
  return e;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  NEXT(cudaMemcpy3D);
  Nested n;
  const bool seen = n.outermost() && to_host_3d(p);
  const cudaError_t e = real(p);
  if (e == cudaSuccess && seen) record_3d("cudaMemcpy3D", p);
  return e;
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  NEXT(cudaMemcpy3DAsync);
  Nested n;
  const bool seen = n.outermost() && to_host_3d(p);
  const cudaError_t e = real(p, stream);
  if (e == cudaSuccess && seen && wait_for("cudaMemcpy3DAsync", stream)) record_3d("cudaMemcpy3DAsync", p);
  return e;
}

// Kernel launches, counted when the runtime accepts them. nvcc's <<<>>> calls __cudaLaunchKernel
// (CUDA 13) or cudaLaunchKernel (before); cudaLaunchKernelEx is an inline function over
// cudaLaunchKernelExC.
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                               cudaStream_t stream) {
  static const auto real = next<decltype(&__cudaLaunchKernel)>("__cudaLaunchKernel");
  Nested n;
  const cudaError_t e = real(kernel, grid, block, args, shared, stream);
  if (e == cudaSuccess && n.outermost()) count_launch();
  return e;
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                    cudaStream_t stream) {
  static const auto real = next<decltype(&__cudaLaunchKernel_ptsz)>("__cudaLaunchKernel_ptsz");
  Nested n;
  const cudaError_t e = real(kernel, grid, block, args, shared, stream);
  if (e == cudaSuccess && n.outermost()) count_launch();
  return e;
}

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                             cudaStream_t stream) {
  NEXT(cudaLaunchKernel);
  Nested n;
  const cudaError_t e = real(func, grid, block, args, shared, stream);
  if (e == cudaSuccess && n.outermost()) count_launch();
  return e;
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                        cudaStream_t stream) {
  NEXT(cudaLaunchCooperativeKernel);
  Nested n;
  const cudaError_t e = real(func, grid, block, args, shared, stream);
  if (e == cudaSuccess && n.outermost()) count_launch();
  return e;
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  NEXT(cudaLaunchKernelExC);
  Nested n;
  const cudaError_t e = real(config, func, args);
  if (e == cudaSuccess && n.outermost()) count_launch();
  return e;
}

}  // extern "C"
