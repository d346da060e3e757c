// The thread-block-cluster launches recorded on an H100: shared by record_cluster.cu (the
// recorder), cluster_kernels.cu (the kernels' layout constants) and ptxvm's replay test. Plain
// C++17, header only, no CUDA types.
//
// Every kernel of cluster_kernels.ptx takes (const u32* in, u32* out, u32 param); the TMA kernel
// takes a `const __grid_constant__ CUtensorMap` first: (map, in, out, param), the map's tensor
// being `in` itself. `in` holds in_words words from inputs(); `out` holds out_words words, every
// one of them written by a launch that runs (the recorder fills it with 0xdeadbeef first).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw_cluster {

// ---- layouts (the kernels and the table agree through these) ----
// cluster_ids: per thread kIdsHeader words, then kIdsPerRank words for every rank of the cluster.
constexpr unsigned kIdsHeader = 33, kIdsPerRank = 11;
// mapa_range: thread 0 of each CTA, kMapaRanks ranks x 5 words.
constexpr unsigned kMapaRanks = 41;
// dsmem_histogram(_ptx): 64 threads, 8 values each; per CTA in: 512 values, 64 exch operands,
// 64 CAS operands.
constexpr unsigned kHistThreads = 64, kHistInPerCta = 640, kHistOutPerCta = 512;
// dsmem_ring: 64 threads, a 1024-byte buffer; per CTA in: 256 fill words, 256 store words.
constexpr unsigned kRingThreads = 64, kRingWordsPerThread = 32, kRingInPerCta = 512,
                   kRingOutPerCta = kRingThreads * kRingWordsPerThread + 256;
// remote_mbarrier: 64 threads; per CTA in: 64 plain-store words, 256 st.async words, 64 red.async
// add operands, 64 red.async op operands, 20 initial red words.
constexpr unsigned kMbarThreads = 64, kMbarInPerCta = 468, kMbarOutPerCta = 352;
constexpr unsigned kMbarRedTxBytes = 64 * 4 + 64 * 4 + 8 * 4 + 8 * 4 + 8 * 8;  // 640
// multicast_bulk: 256-byte slices, one per rank; per CTA in: one slice.
constexpr unsigned kMcSliceWords = 64;
// bulk_s2s: a 512-byte buffer copied into the next rank's shared memory.
constexpr unsigned kS2sWords = 128;
// multicast_tma: u32 tensor 40 x 70, box 32 x 8 (1024 bytes) per rank.
constexpr unsigned kTmaW = 40, kTmaH = 70, kTmaBoxW = 32, kTmaBoxH = 8, kTmaSliceWords = 256;

enum Expect : unsigned {
  kRuns = 0,         // runs; its words are the hardware's
  kLaunchError = 1,  // cuLaunchKernelEx refuses it (zero-word record)
  kFault = 2,        // the kernel stops with an error (zero-word record)
  kUndefined = 3,    // runs, but the ISA leaves the recorded words undefined (mapa of ranks
                     // outside the cluster): a record of what the H100 does, not a test vector
};

struct Dim3 {
  unsigned x, y, z;
};

// cuTensorMapEncodeTiled's arguments: CUtensorMapDataType, rank, sizes, byte strides of
// dimensions 1.., box, element strides, CUtensorMapSwizzle. Interleave none, L2 promotion none,
// OOB fill none; the global address is `in`.
struct TensorMap {
  unsigned type, rank;
  uint64_t dims[5], strides[4];
  unsigned box[5], element_strides[5];
  unsigned swizzle;
};

struct Launch {
  const char* name;
  const char* kernel;  // entry of cluster_kernels.ptx
  Dim3 grid, block;
  Dim3 cluster;        // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION; {0,0,0}: no cluster attribute
  bool non_portable;   // CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 1 before launching
  unsigned dynamic_smem;
  unsigned param;      // the kernel's last argument
  unsigned in_words, out_words;
  unsigned expect;     // Expect
  bool has_map;
  TensorMap map;
};

constexpr unsigned volume(Dim3 d) { return d.x * d.y * d.z; }

// ---- one constructor per kernel ----
// size: the cluster's CTA count the kernel sees (the attribute's, or __cluster_dims__'s).
constexpr Launch ids(const char* name, const char* kernel, Dim3 grid, Dim3 block, Dim3 cluster, unsigned size,
                     bool np = false, unsigned dyn = 0, unsigned expect = kRuns) {
  return {name, kernel, grid, block, cluster, np, dyn, 0, 4,
          volume(grid) * volume(block) * (kIdsHeader + kIdsPerRank * size), expect, false, {}};
}
constexpr Launch mapa_range(const char* name, Dim3 grid, Dim3 cluster) {
  return {name, "mapa_range", grid, {32, 1, 1}, cluster, false, 0, 0, 4, volume(grid) * kMapaRanks * 5,
          kUndefined, false, {}};
}
// mode 0: ld.shared::cluster, 1: generic ld, 2: st.shared::cluster at mapa(rank = cluster size)
constexpr Launch oob(const char* name, unsigned mode) {
  return {name, "dsmem_oob", {2, 1, 1}, {32, 1, 1}, {2, 1, 1}, false, 0, mode, 4, 2, kFault, false, {}};
}
// Accesses through the CTA's own variable's address with the rank bits (31:24) changed:
// mode 0: ld.shared::cta at the address with bits 31:24 cleared; 1: ld.shared::cta at the next
// rank's mapa address; 2: st.shared::cta at the cleared address (0-2: shared::cta addresses outside
// the executing CTA, undefined; the H100 stops them); 3: generic ld at cvta.shared of the cleared
// address, which is rank 0's variable in the shared::cluster window (defined). Clusters of 2, two
// clusters; per CTA: the variable's address, the value read, the own variable after a cluster
// barrier, the rank.
constexpr Launch window(const char* name, unsigned mode, unsigned expect) {
  return {name, "cta_window", {4, 1, 1}, {32, 1, 1}, {2, 1, 1}, false, 0, mode, 4, 16, expect, false, {}};
}
constexpr Launch hist(const char* name, const char* kernel, Dim3 grid, Dim3 cluster) {
  return {name, kernel, grid, {kHistThreads, 1, 1}, cluster, false, 0, 0, volume(grid) * kHistInPerCta,
          volume(grid) * kHistOutPerCta, kRuns, false, {}};
}
constexpr Launch ring(const char* name, Dim3 grid, Dim3 cluster) {
  return {name, "dsmem_ring", grid, {kRingThreads, 1, 1}, cluster, false, 0, 0, volume(grid) * kRingInPerCta,
          volume(grid) * kRingOutPerCta, kRuns, false, {}};
}
constexpr Launch mbar(const char* name, Dim3 grid, Dim3 cluster) {
  return {name, "remote_mbarrier", grid, {kMbarThreads, 1, 1}, cluster, false, 0, 0, volume(grid) * kMbarInPerCta,
          volume(grid) * kMbarOutPerCta, kRuns, false, {}};
}
// param: ctaMask in bits 0-15; bit 16: CTA r sends with the mask rotated left by r (within the
// cluster's n bits) instead of the mask itself.
constexpr Launch mc_bulk(const char* name, Dim3 grid, Dim3 cluster, unsigned param) {
  return {name, "multicast_bulk", grid, {32, 1, 1}, cluster, false, 0, param, volume(grid) * kMcSliceWords,
          volume(grid) * (volume(cluster) * kMcSliceWords + 1), kRuns, false, {}};
}
constexpr Launch s2s(const char* name, Dim3 grid, Dim3 cluster) {
  return {name, "bulk_s2s", grid, {32, 1, 1}, cluster, false, 0, 0, volume(grid) * kS2sWords,
          volume(grid) * (kS2sWords + 1), kRuns, false, {}};
}
// Clusters of n along x, two clusters; param: ctaMask (every rank sends its slice with it).
// swizzle: CUtensorMapSwizzle (0 none, 3 128B).
constexpr Launch tma(const char* name, unsigned n, unsigned swizzle, unsigned mask) {
  return {name,
          "multicast_tma",
          {2 * n, 1, 1},
          {32, 1, 1},
          {n, 1, 1},
          false,
          0,
          mask,
          kTmaW * kTmaH,
          2 * n * (n * kTmaSliceWords + 1),
          kRuns,
          true,
          {/*CU_TENSOR_MAP_DATA_TYPE_UINT32*/ 2, 2, {kTmaW, kTmaH, 0, 0, 0}, {kTmaW * 4, 0, 0, 0},
           {kTmaBoxW, kTmaBoxH, 0, 0, 0}, {1, 1, 0, 0, 0}, swizzle}};
}

inline constexpr Launch kLaunches[] = {
    // a. identities and shared::cluster addresses
    ids("ids_nocluster", "cluster_ids", {4, 2, 1}, {32, 1, 1}, {0, 0, 0}, 1),
    ids("ids_c1x1x1", "cluster_ids", {2, 2, 1}, {32, 1, 1}, {1, 1, 1}, 1),
    ids("ids_c2x1x1", "cluster_ids", {4, 3, 1}, {32, 1, 1}, {2, 1, 1}, 2),
    ids("ids_c3x1x1", "cluster_ids", {6, 1, 1}, {16, 2, 1}, {3, 1, 1}, 3),
    ids("ids_c4x1x1", "cluster_ids", {8, 2, 1}, {32, 1, 1}, {4, 1, 1}, 4),
    ids("ids_c1x2x1", "cluster_ids", {2, 4, 1}, {32, 1, 1}, {1, 2, 1}, 2),
    ids("ids_c2x2x2_dyn256", "cluster_ids", {4, 2, 2}, {64, 1, 1}, {2, 2, 2}, 8, false, 256),
    ids("ids_c8x1x1", "cluster_ids", {16, 1, 1}, {32, 1, 1}, {8, 1, 1}, 8),
    ids("ids_c16x1x1_np", "cluster_ids", {16, 1, 1}, {32, 1, 1}, {16, 1, 1}, 16, true),
    ids("ids_c3x3x1_np", "cluster_ids", {3, 3, 1}, {32, 1, 1}, {3, 3, 1}, 9, true),
    ids("ids_compiled_c2", "cluster_ids_c2", {4, 1, 1}, {32, 1, 1}, {0, 0, 0}, 2),
    // launches the driver refuses
    ids("err_grid_not_multiple", "cluster_ids", {3, 1, 1}, {32, 1, 1}, {2, 1, 1}, 2, false, 0, kLaunchError),
    ids("err_c16_portable", "cluster_ids", {16, 1, 1}, {32, 1, 1}, {16, 1, 1}, 16, false, 0, kLaunchError),
    ids("err_c32_np", "cluster_ids", {32, 1, 1}, {32, 1, 1}, {32, 1, 1}, 32, true, 0, kLaunchError),
    ids("err_compiled_c2_attr_c4", "cluster_ids_c2", {4, 1, 1}, {32, 1, 1}, {4, 1, 1}, 4, false, 0, kLaunchError),
    // mapa of ranks outside the cluster (undefined; what the H100 computes)
    mapa_range("ub_mapa_range_nocluster", {1, 1, 1}, {0, 0, 0}),
    mapa_range("ub_mapa_range_c2", {2, 1, 1}, {2, 1, 1}),
    mapa_range("ub_mapa_range_c4", {4, 1, 1}, {4, 1, 1}),
    // g. accesses to a rank outside the cluster
    oob("fault_ld_rank_n", 0),
    oob("fault_ld_generic_rank_n", 1),
    oob("fault_st_rank_n", 2),
    // shared::cta accesses with another CTA's rank bits, and a generic one
    window("ub_window_ld_rank_bits_cleared", 0, kFault),
    window("ub_window_ld_other_rank", 1, kFault),
    window("ub_window_st_rank_bits_cleared", 2, kFault),
    window("window_generic_rank_bits_cleared", 3, kRuns),
    // b. distributed histogram and DSMEM atomics
    hist("hist_generic_c2", "dsmem_histogram", {4, 1, 1}, {2, 1, 1}),
    hist("hist_generic_c2x2", "dsmem_histogram", {4, 2, 1}, {2, 2, 1}),
    hist("hist_generic_c8", "dsmem_histogram", {8, 1, 1}, {8, 1, 1}),
    hist("hist_ptx_c2", "dsmem_histogram_ptx", {4, 1, 1}, {2, 1, 1}),
    hist("hist_ptx_c4", "dsmem_histogram_ptx", {8, 1, 1}, {4, 1, 1}),
    hist("hist_ptx_c8", "dsmem_histogram_ptx", {8, 1, 1}, {8, 1, 1}),
    // c. loads and stores of the next rank's shared memory
    ring("ring_c2", {4, 1, 1}, {2, 1, 1}),
    ring("ring_c3", {6, 1, 1}, {3, 1, 1}),
    ring("ring_c4", {4, 1, 1}, {4, 1, 1}),
    ring("ring_c8", {8, 1, 1}, {8, 1, 1}),
    ring("ring_c1x2", {2, 2, 1}, {1, 2, 1}),
    // d. remote mbarrier arrives, st.async, red.async
    mbar("mbar_c2", {4, 1, 1}, {2, 1, 1}),
    mbar("mbar_c4", {8, 1, 1}, {4, 1, 1}),
    mbar("mbar_c8", {8, 1, 1}, {8, 1, 1}),
    // e. bulk copies into the cluster
    mc_bulk("mc_bulk_c2_all", {4, 1, 1}, {2, 1, 1}, 0x3),
    mc_bulk("mc_bulk_c4_all", {8, 1, 1}, {4, 1, 1}, 0xf),
    mc_bulk("mc_bulk_c4_rot5", {8, 1, 1}, {4, 1, 1}, 0x10005),
    mc_bulk("mc_bulk_c4_mask3", {8, 1, 1}, {4, 1, 1}, 0x3),
    mc_bulk("mc_bulk_c8_rot29", {8, 1, 1}, {8, 1, 1}, 0x10029),
    s2s("s2s_c2", {4, 1, 1}, {2, 1, 1}),
    s2s("s2s_c4", {4, 1, 1}, {4, 1, 1}),
    s2s("s2s_c8", {8, 1, 1}, {8, 1, 1}),
    // f. TMA multicast
    tma("tma_mc_c2_none", 2, 0, 0x3),
    tma("tma_mc_c2_128B", 2, 3, 0x3),
    tma("tma_mc_c4_none", 4, 0, 0xf),
    tma("tma_mc_c4_128B", 4, 3, 0xf),
    tma("tma_mc_c4_mask6_128B", 4, 3, 0x6),
};

inline constexpr unsigned kLaunchCount = sizeof kLaunches / sizeof kLaunches[0];

inline uint64_t seed_of(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char ch : name) h = (h ^ uint8_t(ch)) * 0x100000001b3ull;
  return h;
}

// The `in` buffer of a launch: splitmix64 seeded by the launch's name, low 32 bits of each draw.
inline std::vector<uint32_t> inputs(const Launch& l) {
  std::vector<uint32_t> w(l.in_words);
  uint64_t s = seed_of(l.name);
  for (uint32_t& x : w) x = uint32_t(ptxvm_hw_seed::splitmix64(s));
  return w;
}

}  // namespace ptxvm_hw_cluster
