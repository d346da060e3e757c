// Records what an sm_90 GPU writes for the floating-point instructions of PTX §9.7.3,
// §9.7.4 and §9.7.7 (variants.inc), over operands regenerated from seeds (inputs.h).
// Build and run (README.md):  nvcc -O2 -std=c++17 -arch=sm_90 record_float.cu -o record_float
//                             ./record_float OUT_DIR
// Writes OUT_DIR/float_<set>.bin per input set: for each variant, uint16 text length, the
// instruction text, uint8 result bytes, uint32 count, then count little-endian results.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "inputs.h"

using namespace ptxvm_hw_float;

typedef uint16_t T_h;
typedef uint32_t T_r;
typedef uint64_t T_l;
typedef float T_f;
typedef double T_d;

struct Variant {
  const char* insn;
  Set set;
  size_t dst_bytes;
  void (*launch)(const void* a, const void* b, const void* c, void* d, size_t n);
};
static std::vector<Variant>& variants() { static std::vector<Variant> v; return v; }
struct Register { Register(Variant v) { variants().push_back(v); } };

#define GRID(n) static_cast<unsigned>(((n) + 255) / 256), 256
#define IDX size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; if (i >= n) return
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define K CAT(k, __LINE__)

// U unary, B binary, T ternary (result register letter D, sources S), C setp (1-byte 0/1).
#define U(INSN, D, S, SET)                                                           \
  __global__ void K(const T_##S* a, T_##D* d, size_t n) {                            \
    IDX; T_##D r; asm(INSN " %0, %1;" : "=" #D(r) : #S(a[i])); d[i] = r; }           \
  static Register CAT(reg, __LINE__)({INSN, SET, sizeof(T_##D), [](const void* a,    \
      const void*, const void*, void* d, size_t n) {                                 \
    K<<<GRID(n)>>>((const T_##S*)a, (T_##D*)d, n); }});

#define B(INSN, D, S, SET)                                                           \
  __global__ void K(const T_##S* a, const T_##S* b, T_##D* d, size_t n) {            \
    IDX; T_##D r; asm(INSN " %0, %1, %2;" : "=" #D(r) : #S(a[i]), #S(b[i])); d[i] = r; } \
  static Register CAT(reg, __LINE__)({INSN, SET, sizeof(T_##D), [](const void* a,    \
      const void* b, const void*, void* d, size_t n) {                               \
    K<<<GRID(n)>>>((const T_##S*)a, (const T_##S*)b, (T_##D*)d, n); }});

#define T(INSN, D, S, SET)                                                           \
  __global__ void K(const T_##S* a, const T_##S* b, const T_##S* c, T_##D* d, size_t n) { \
    IDX; T_##D r;                                                                    \
    asm(INSN " %0, %1, %2, %3;" : "=" #D(r) : #S(a[i]), #S(b[i]), #S(c[i])); d[i] = r; } \
  static Register CAT(reg, __LINE__)({INSN, SET, sizeof(T_##D), [](const void* a,    \
      const void* b, const void* c, void* d, size_t n) {                             \
    K<<<GRID(n)>>>((const T_##S*)a, (const T_##S*)b, (const T_##S*)c, (T_##D*)d, n); }});

#define C(INSN, S, SET)                                                              \
  __global__ void K(const T_##S* a, const T_##S* b, uint8_t* d, size_t n) {          \
    IDX; uint32_t r;                                                                 \
    asm("{ .reg .pred p; " INSN " p, %1, %2; selp.u32 %0, 1, 0, p; }"                \
        : "=r"(r) : #S(a[i]), #S(b[i]));                                             \
    d[i] = static_cast<uint8_t>(r); }                                                \
  static Register CAT(reg, __LINE__)({INSN, SET, 1, [](const void* a, const void* b, \
      const void*, void* d, size_t n) {                                              \
    K<<<GRID(n)>>>((const T_##S*)a, (const T_##S*)b, (uint8_t*)d, n); }});

#include "variants.inc"

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

int main(int argc, char** argv) {
  if (argc != 2) { std::fprintf(stderr, "usage: record_float OUT_DIR\n"); return 2; }
  const std::string out_dir = argv[1];
  std::map<Set, std::vector<std::vector<uint8_t>>> host;
  std::map<Set, FILE*> files;
  for (const Variant& v : variants()) {
    const size_t eb = set_bytes(v.set);
    if (!host.count(v.set)) {
      const Operands o = set_operands(v.set);
      for (const auto* src : {&o.a, &o.b, &o.c}) {
        std::vector<uint8_t> bytes(src->size() * eb);
        for (size_t i = 0; i < src->size(); ++i) std::memcpy(&bytes[i * eb], &(*src)[i], eb);
        host[v.set].push_back(std::move(bytes));
      }
    }
    const auto& ops = host[v.set];
    const size_t bytes = ops[0].size(), n = bytes / eb;
    void* dev[4];
    for (int k = 0; k < 3; ++k) {
      CHECK(cudaMalloc(&dev[k], bytes));
      CHECK(cudaMemcpy(dev[k], ops[k].data(), bytes, cudaMemcpyHostToDevice));
    }
    CHECK(cudaMalloc(&dev[3], n * v.dst_bytes));
    v.launch(dev[0], dev[1], dev[2], dev[3], n);
    CHECK(cudaGetLastError());
    std::vector<uint8_t> out(n * v.dst_bytes);
    CHECK(cudaMemcpy(out.data(), dev[3], out.size(), cudaMemcpyDeviceToHost));
    for (void* p : dev) CHECK(cudaFree(p));
    FILE*& f = files[v.set];
    if (!f) f = std::fopen((out_dir + "/float_" + set_name(v.set) + ".bin").c_str(), "wb");
    const uint16_t len = static_cast<uint16_t>(std::strlen(v.insn));
    const uint8_t db = static_cast<uint8_t>(v.dst_bytes);
    const uint32_t cnt = static_cast<uint32_t>(n);
    std::fwrite(&len, 2, 1, f); std::fwrite(v.insn, 1, len, f);
    std::fwrite(&db, 1, 1, f); std::fwrite(&cnt, 4, 1, f);
    std::fwrite(out.data(), 1, out.size(), f);
  }
  for (auto& [s, f] : files) std::fclose(f);
  std::printf("%zu variants recorded\n", variants().size());
  return 0;
}
