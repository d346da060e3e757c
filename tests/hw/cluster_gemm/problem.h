// The cluster GEMM of gemm.cu / gemm.ptx: problem sizes, launch shape, shared-memory layout, the
// two tensor maps' fields and the inputs. Plain C++17 (no CUDA types), shared by the recorder
// (record_gemm.cu), the kernel (gemm.cu, constants only) and ptxvm's replay test, so every side
// rebuilds the same inputs, maps and launch.
//
//   C[M,N] (f32, row-major) = A[M,K] x B[N,K]^T, A and B K-major (row-major with K innermost),
//   elements bf16 or f16.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw_cluster_gemm {

// ---- tiling (compiled into gemm.ptx: changing these means regenerating it) ------------------
constexpr unsigned kTileM = 128, kTileN = 128, kTileK = 64;  // CTA tile; kTileK * 2 bytes = one 128B swizzle row
constexpr unsigned kStages = 4;                              // depth of the shared ring
constexpr unsigned kClusterX = 2, kClusterY = 1, kClusterZ = 1;  // the 2 CTAs of a cluster share an M tile
constexpr unsigned kThreads = 384;  // warpgroup 0: producer (warp 0 issues TMA); 1, 2: consumers
constexpr unsigned kConsumerWarpgroups = 2;  // each computes 64 rows of the 128-row tile
constexpr unsigned kElemBytes = 2;

// ---- shared memory (offsets from the dynamic shared base rounded up to 1024 bytes) ----------
constexpr unsigned kATileBytes = kTileM * kTileK * kElemBytes;   // 16384: A tile, 128 rows of 128 B
constexpr unsigned kAHalfBytes = kATileBytes / kClusterX;        // 8192: what each CTA of the cluster multicasts
constexpr unsigned kBTileBytes = kTileN * kTileK * kElemBytes;   // 16384: B tile, 128 rows of 128 B
constexpr unsigned kStageBytes = kATileBytes + kBTileBytes;      // stage s: A at s*kStageBytes, B after it
constexpr unsigned kBarrierOffset = kStages * kStageBytes;       // full[kStages] then empty[kStages], 8 B each
constexpr unsigned kBarrierBytes = 2 * kStages * 8;
constexpr unsigned kAlignSlack = 1024;  // the kernel rounds the dynamic base up to 1024 (128B swizzle atom)
constexpr unsigned kDynamicSharedBytes = kAlignSlack + kBarrierOffset + kBarrierBytes;  // 132160
constexpr unsigned kTxBytesPerStage = kATileBytes + kBTileBytes;  // each CTA's full barrier: own half of A,
                                                                   // the peer's half of A, own B
constexpr unsigned kEmptyArrivals = kConsumerWarpgroups * kClusterX;  // one per consumer warpgroup of the cluster

// ---- launches ---------------------------------------------------------------------------------
enum class Elem : uint8_t { bf16, f16 };

struct Launch {
  const char* name;    // record name, also the seed of the inputs
  const char* kernel;  // entry in gemm.ptx
  Elem type;
  unsigned m, n, k;
};

// The recorded launches. M, N multiples of 128 (N / 128 even: clusters of 2 along x), K of 64.
inline constexpr Launch kLaunches[] = {
    {"bf16 m256n256k512", "gemm_bf16", Elem::bf16, 256, 256, 512},
    {"f16 m128n512k384", "gemm_f16", Elem::f16, 128, 512, 384},
};
inline constexpr unsigned kNumLaunches = sizeof(kLaunches) / sizeof(kLaunches[0]);

// grid.x = N tiles (a cluster is 2 consecutive x), grid.y = M tiles; block (384,1,1); cluster (2,1,1)
inline void grid_of(const Launch& l, unsigned grid[3]) {
  grid[0] = l.n / kTileN, grid[1] = l.m / kTileM, grid[2] = 1;
}

// Kernel parameters, in order: CUtensorMap A (128 B, align 64, __grid_constant__), CUtensorMap B,
// u64 C (device pointer, M*N f32), u32 M, u32 N, u32 K.

// ---- tensor maps (the fields of cuTensorMapEncodeTiled) ---------------------------------------
struct TensorMapFields {
  uint32_t data_type;  // CUtensorMapDataType: 6 FLOAT16, 9 BFLOAT16
  uint32_t rank;       // 2
  uint64_t dims[2];    // {K, rows}: innermost first
  uint64_t strides[1]; // row pitch in bytes (K * 2)
  uint32_t box[2];     // {64, 64} for A (half tile, multicast), {64, 128} for B
  uint32_t element_strides[2];  // {1, 1}
  uint32_t interleave;  // 0 NONE
  uint32_t swizzle;     // 3 = CU_TENSOR_MAP_SWIZZLE_128B
  uint32_t l2_promotion;  // 0 NONE
  uint32_t oob_fill;      // 0 NONE (never used: every box is inside)
};

inline TensorMapFields map_a(const Launch& l) {
  return {l.type == Elem::bf16 ? 9u : 6u, 2, {l.k, l.m}, {uint64_t(l.k) * kElemBytes}, {kTileK, kTileM / kClusterX},
          {1, 1}, 0, 3, 0, 0};
}
inline TensorMapFields map_b(const Launch& l) {
  return {l.type == Elem::bf16 ? 9u : 6u, 2, {l.k, l.n}, {uint64_t(l.k) * kElemBytes}, {kTileK, kTileN},
          {1, 1}, 0, 3, 0, 0};
}

// ---- inputs -------------------------------------------------------------------------------------
inline uint64_t seed_of(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char ch : name) h = (h ^ uint8_t(ch)) * 0x100000001b3ull;
  return h;
}

// `count` 16-bit elements of `type`, from splitmix64 seeded by seed_of(name + " A") (or " B"):
// per element one draw r; sign = bit 0, exponent 2^-4 .. 2^1 from (r >> 1) % 6, all fraction bits
// from r >> 16; every 16th draw (r >> 60 == 0) is a zero. Integer arithmetic only.
inline std::vector<uint16_t> operand(const Launch& l, char which, size_t count) {
  uint64_t s = seed_of(std::string(l.name) + (which == 'A' ? " A" : " B"));
  std::vector<uint16_t> v(count);
  for (uint16_t& x : v) {
    const uint64_t r = ptxvm_hw_seed::splitmix64(s);
    const unsigned sign = unsigned(r & 1), e = unsigned((r >> 1) % 6);  // unbiased exponent e - 4
    if ((r >> 60) == 0) {
      x = uint16_t(sign << 15);
      continue;
    }
    if (l.type == Elem::bf16)
      x = uint16_t(sign << 15 | (127 + e - 4) << 7 | (unsigned(r >> 16) & 0x7f));
    else
      x = uint16_t(sign << 15 | (15 + e - 4) << 10 | (unsigned(r >> 16) & 0x3ff));
  }
  return v;
}
inline std::vector<uint16_t> input_a(const Launch& l) { return operand(l, 'A', size_t(l.m) * l.k); }
inline std::vector<uint16_t> input_b(const Launch& l) { return operand(l, 'B', size_t(l.n) * l.k); }

// The value of an element (normal or zero, as operand() makes them), exactly.
inline double value_of(Elem t, uint16_t x) {
  const double sign = (x >> 15) ? -1.0 : 1.0;
  if (t == Elem::bf16) {
    const int e = (x >> 7) & 0xff;
    if (e == 0) return sign * 0.0;
    double v = 1.0 + (x & 0x7f) / 128.0;
    for (int i = e; i < 127; ++i) v /= 2;
    for (int i = 127; i < e; ++i) v *= 2;
    return sign * v;
  }
  const int e = (x >> 10) & 0x1f;
  if (e == 0) return sign * 0.0;
  double v = 1.0 + (x & 0x3ff) / 1024.0;
  for (int i = e; i < 15; ++i) v /= 2;
  for (int i = 15; i < e; ++i) v *= 2;
  return sign * v;
}

// C in double (row-major M x N): the CPU reference the recorder checks the GPU against.
inline std::vector<double> reference(const Launch& l, const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
  std::vector<double> av(a.size()), bv(b.size()), c(size_t(l.m) * l.n);
  for (size_t i = 0; i < a.size(); ++i) av[i] = value_of(l.type, a[i]);
  for (size_t i = 0; i < b.size(); ++i) bv[i] = value_of(l.type, b[i]);
  for (unsigned i = 0; i < l.m; ++i)
    for (unsigned j = 0; j < l.n; ++j) {
      double acc = 0;
      for (unsigned k = 0; k < l.k; ++k) acc += av[size_t(i) * l.k + k] * bv[size_t(j) * l.k + k];
      c[size_t(i) * l.n + j] = acc;
    }
  return c;
}

}  // namespace ptxvm_hw_cluster_gemm
