// Records what an sm_90 GPU writes for every cvt variant Hopper executes (plus testp,
// copysign, cvt.pack), over inputs regenerated from seeds (inputs.h).
// Build and run (README.md):  nvcc -O2 -std=c++17 -arch=sm_90 record_cvt.cu -o record_cvt
//                             ./record_cvt OUT_DIR N_RANDOM
// Writes OUT_DIR/cvt_<set>.bin per input set: for each variant, uint16 name length, the
// instruction text, uint8 element bytes, uint32 count, then count little-endian elements.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "inputs.h"

typedef uint16_t T_h;
typedef uint32_t T_r;
typedef uint64_t T_l;
typedef float T_f;
typedef double T_d;

enum Set { S16, P32, F32, F64, I32, I64 };
static const char* kSetName[] = {"s16", "p32", "f32", "f64", "i32", "i64"};

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

#define U(K, INSN, D, S, SET)                                                        \
  __global__ void K(const T_##S* a, T_##D* d, size_t n) {                            \
    IDX; T_##D r; asm(INSN " %0, %1;" : "=" #D(r) : #S(a[i])); d[i] = r; }           \
  static Register reg_##K({INSN, SET, sizeof(T_##D), [](const void* a, const void*,  \
      const void*, void* d, size_t n) { K<<<GRID(n)>>>((const T_##S*)a, (T_##D*)d, n); }});

#define B(K, INSN, D, S, SET)                                                        \
  __global__ void K(const T_##S* a, const T_##S* b, T_##D* d, size_t n) {            \
    IDX; T_##D r; asm(INSN " %0, %1, %2;" : "=" #D(r) : #S(a[i]), #S(b[i])); d[i] = r; } \
  static Register reg_##K({INSN, SET, sizeof(T_##D), [](const void* a, const void* b, \
      const void*, void* d, size_t n) {                                               \
    K<<<GRID(n)>>>((const T_##S*)a, (const T_##S*)b, (T_##D*)d, n); }});

#define T(K, INSN, D, S, SET)                                                        \
  __global__ void K(const T_##S* a, const T_##S* b, const T_##S* c, T_##D* d, size_t n) { \
    IDX; T_##D r;                                                                    \
    asm(INSN " %0, %1, %2, %3;" : "=" #D(r) : #S(a[i]), #S(b[i]), #S(c[i])); d[i] = r; } \
  static Register reg_##K({INSN, SET, sizeof(T_##D), [](const void* a, const void* b, \
      const void* c, void* d, size_t n) {                                             \
    K<<<GRID(n)>>>((const T_##S*)a, (const T_##S*)b, (const T_##S*)c, (T_##D*)d, n); }});

#define P(K, INSN, S, SET)                                                           \
  __global__ void K(const T_##S* a, uint8_t* d, size_t n) {                          \
    IDX; uint32_t r;                                                                 \
    asm("{ .reg .pred p; " INSN " p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : #S(a[i])); \
    d[i] = static_cast<uint8_t>(r); }                                                \
  static Register reg_##K({INSN, SET, 1, [](const void* a, const void*, const void*, \
      void* d, size_t n) { K<<<GRID(n)>>>((const T_##S*)a, (uint8_t*)d, n); }});

#include "variants.inc"

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

template <class T>
static std::vector<T> rotate(const std::vector<T>& v, size_t mul, size_t add) {
  std::vector<T> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = v[(i * mul + add) % v.size()];
  return r;
}

int main(int argc, char** argv) {
  if (argc != 3) { std::fprintf(stderr, "usage: record_cvt OUT_DIR N_RANDOM\n"); return 2; }
  const std::string out_dir = argv[1];
  const size_t n_random = std::strtoull(argv[2], nullptr, 10);

  // Operand arrays per set: a, then b = a rotated by (7i+3), c = a rotated by (13i+5).
  std::map<Set, std::vector<std::vector<uint8_t>>> host;
  auto add = [&](Set s, const auto& a) {
    using E = typename std::decay_t<decltype(a)>::value_type;
    for (const auto& v : {a, rotate(a, 7, 3), rotate(a, 13, 5)})
      host[s].emplace_back((const uint8_t*)v.data(), (const uint8_t*)(v.data() + v.size()));
    (void)sizeof(E);
  };
  std::vector<uint16_t> s16(65536);
  std::vector<uint32_t> p32(65536);
  for (uint32_t i = 0; i < 65536; ++i) { s16[i] = static_cast<uint16_t>(i); p32[i] = ptxvm_hw::pair16(i); }
  const std::vector<uint64_t> i64 = ptxvm_hw::int_inputs(3, n_random);
  std::vector<uint32_t> i32(i64.begin(), i64.end());
  add(S16, s16); add(P32, p32);
  add(F32, ptxvm_hw::f32_inputs(1, n_random)); add(F64, ptxvm_hw::f64_inputs(2, n_random));
  add(I32, i32); add(I64, i64);

  std::map<Set, FILE*> files;
  for (const Variant& v : variants()) {
    const auto& ops = host[v.set];
    const size_t bytes = ops[0].size();
    const size_t n = bytes / (v.set == S16 ? 2 : v.set == F64 || v.set == I64 ? 8 : 4);
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
    if (!f) f = std::fopen((out_dir + "/cvt_" + kSetName[v.set] + ".bin").c_str(), "wb");
    const uint16_t len = static_cast<uint16_t>(std::string(v.insn).size());
    const uint8_t eb = static_cast<uint8_t>(v.dst_bytes);
    const uint32_t cnt = static_cast<uint32_t>(n);
    std::fwrite(&len, 2, 1, f); std::fwrite(v.insn, 1, len, f);
    std::fwrite(&eb, 1, 1, f); std::fwrite(&cnt, 4, 1, f);
    std::fwrite(out.data(), 1, out.size(), f);
  }
  for (auto& [s, f] : files) std::fclose(f);
  std::printf("%zu variants recorded\n", variants().size());
  return 0;
}
