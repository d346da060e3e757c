// A warp-specialized Blackwell GEMM on CTA pairs (tcgen05.mma.cta_group::2), written by hand with
// inline PTX (sm_100a), in the style of CUTLASS's 2-SM UMMA kernels. C[M,N] f32 = A[M,K] x
// B[N,K]^T, A and B K-major f16. Compiled to gemm.ptx with
//
//   nvcc -arch=sm_100a -ptx -O2 -o gemm.ptx gemm.cu
//
// A cluster of 4 CTAs computes a 256 x 256 tile of C as two CTA pairs (ranks 0-1 and 2-3,
// §9.7.16.5.2 peer = rank ^ 1); pair p owns columns [128p, 128p + 128) of the tile, and CTA
// h = rank % 2 of a pair holds rows [128h, 128h + 128) of A (M = 256 with .cta_group::2: each
// CTA M/2 rows of A, N/2 rows of B, its M/2 rows of D in its own Tensor Memory). K goes in blocks
// of 64 (one 128-byte swizzle row) through a 2-stage ring. 192 threads per CTA:
//   - warp 0, the producer: its lane 0 waits on empty[s], arrive.expect_tx's the 24 KB stage s
//     will receive on full[s], then loads with TMA (128B swizzle): 64 rows of this CTA's A tile
//     MULTICAST to the CTA of the same h in the other pair (both pairs have the same A rows), and
//     this CTA's 64 rows of the pair's B tile for itself. In the odd CTA it then waits for full[s]
//     and arrives (release.cluster, mapa) on pair_full[s] of the even CTA, whose MMAs read both
//     CTAs' shared memory.
//   - warp 1 allocates 128 columns of Tensor Memory for the pair (.cta_group::2, both CTAs) and,
//     in the even CTA (the pair's issuer), waits for full[s] and pair_full[s], issues 4
//     tcgen05.mma.cta_group::2.kind::f16 (M = 256, N = 128, K = 16 each) and commits them to
//     empty[s] of all 4 CTAs (multicast 0b1111: a stage is refilled only when both pairs are
//     done with it, since each A slice was multicast into both); after the last block it commits
//     to done of both CTAs of its pair.
//   - warps 2-5, the epilogue: wait on done, then each reads its lane quarter (warp % 4) of D
//     with tcgen05.ld.32x32b.x32 and stores it to C.
//   - the cluster starts with mbarrier.init, fence.mbarrier_init and barrier.cluster; it ends
//     with barrier.cluster before the pair frees its Tensor Memory and exits.
#include <cstdint>

namespace {

constexpr uint32_t kTileK = 64, kStages = 2;
constexpr uint32_t kABytes = 128 * kTileK * 2;    // this CTA's 128 rows of A
constexpr uint32_t kASlice = kABytes / 2;         // the 64 rows one CTA multicasts
constexpr uint32_t kBBytes = 64 * kTileK * 2;     // this CTA's 64 rows of the pair's B
constexpr uint32_t kStageBytes = kABytes + kBBytes;
constexpr uint32_t kBarriers = kStages * kStageBytes;  // full[2], empty[2], pair_full[2], done, tmem slot
constexpr uint32_t kColumns = 128;
// idesc (§9.7.16.4.2 Table 42): D f32 (bits 4-5 = 1), A and B f16, K-major, N >> 3 at 17, M >> 4 at 24.
constexpr uint32_t kIdesc = 1u << 4 | (128u >> 3) << 17 | (256u >> 4) << 24;

struct alignas(64) TensorMap {  // the 128-byte CUtensorMap, opaque
  uint64_t w[16];
};

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

// Waits, acquiring at cluster scope, for the phase of parity `parity` of this CTA's barrier.
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// Arrives (release, cluster scope) on the barrier at the same offset as `bar` in CTA `rank`.
__device__ __forceinline__ void mbar_arrive_remote(uint32_t bar, uint32_t rank) {
  asm volatile(
      "{\n\t.reg .b32 remote;\n\t"
      "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n\t}" ::"r"(bar),
      "r"(rank)
      : "memory");
}

__device__ __forceinline__ void tma_load(uint32_t dst, const TensorMap* map, int c0, int c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

__device__ __forceinline__ void tma_load_multicast(uint32_t dst, const TensorMap* map, int c0, int c1, uint32_t bar,
                                                   uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
      : "memory");
}

// A K-major operand in 128B swizzle (§9.7.16.4.1 Table 40): start, LBO 16 (unused), SBO 1024
// (8-row groups), the fixed 0b001 at bits 46-48, base offset 0 (tiles 1024-aligned), swizzle
// mode 2 (128B) at bits 61-63.
__device__ __forceinline__ uint64_t desc_sw128(uint32_t addr) {
  return uint64_t((addr >> 4) & 0x3fff) | uint64_t(16 >> 4) << 16 | uint64_t(1024 >> 4) << 32 | uint64_t(1) << 46 |
         uint64_t(2) << 61;
}

__device__ __forceinline__ void mma(uint32_t d, uint64_t a, uint64_t b, uint32_t accumulate) {
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
      "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::"r"(d),
      "l"(a), "l"(b), "r"(kIdesc), "r"(accumulate)
      : "memory");
}

// Arrives once on `bar` in each CTA of `mask` when every tcgen05.mma issued so far completes.
__device__ __forceinline__ void commit(uint32_t bar, uint16_t mask) {
  asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%0], %1;" ::"r"(
                   bar),
               "h"(mask)
               : "memory");
}

// 32 columns of this warp's 32 lanes from Tensor Memory address `t`.
__device__ __forceinline__ void tmem_ld32(uint32_t t, uint32_t (&v)[32]) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];\n\t"
      "tcgen05.wait::ld.sync.aligned;"
      : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7]), "=r"(v[8]),
        "=r"(v[9]), "=r"(v[10]), "=r"(v[11]), "=r"(v[12]), "=r"(v[13]), "=r"(v[14]), "=r"(v[15]), "=r"(v[16]),
        "=r"(v[17]), "=r"(v[18]), "=r"(v[19]), "=r"(v[20]), "=r"(v[21]), "=r"(v[22]), "=r"(v[23]), "=r"(v[24]),
        "=r"(v[25]), "=r"(v[26]), "=r"(v[27]), "=r"(v[28]), "=r"(v[29]), "=r"(v[30]), "=r"(v[31])
      : "r"(t)
      : "memory");
}

}  // namespace

extern "C" __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(192, 1)
    pair_gemm(const __grid_constant__ TensorMap map_a, const __grid_constant__ TensorMap map_b, float* c, uint32_t n,
              uint32_t k) {
  extern __shared__ __align__(1024) uint8_t dyn[];
  const uint32_t base = (smem_addr(dyn) + 1023u) & ~1023u;  // the 128B swizzle atom is 1024 bytes
  const uint32_t full = base + kBarriers, empty = full + 8 * kStages, pair_full = empty + 8 * kStages,
                 done = pair_full + 8 * kStages, slot = done + 8;
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32, rank = cluster_ctarank();
  const uint32_t h = rank % 2, pair = rank / 2, k_blocks = k / kTileK;
  const uint32_t m0 = blockIdx.y * 256 + 128 * h, n0 = blockIdx.x / 4 * 256 + 128 * pair;

  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < kStages; ++s) {
      mbar_init(full + 8 * s, 1);
      mbar_init(empty + 8 * s, 2);  // one commit from the issuer of each pair
      mbar_init(pair_full + 8 * s, 1);
    }
    mbar_init(done, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (warp == 1) {
    asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(slot), "r"(kColumns)
                 : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  cluster_sync();  // barriers initialized and Tensor Memory allocated, cluster-wide
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  uint32_t tmem;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(tmem) : "r"(slot) : "memory");

  if (warp == 0 && lane == 0) {  // ---- producer
    for (uint32_t kb = 0; kb < k_blocks; ++kb) {
      const uint32_t s = kb % kStages, phase = (kb / kStages) & 1;
      const uint32_t a = base + s * kStageBytes, b = a + kABytes;
      mbar_wait(empty + 8 * s, phase ^ 1);  // round 0 passes: the phase before the first
      mbar_arrive_expect_tx(full + 8 * s, kStageBytes);
      tma_load_multicast(a + pair * kASlice, &map_a, int(kb * kTileK), int(m0 + 64 * pair), full + 8 * s,
                         uint16_t(0b101u << h));
      tma_load(b, &map_b, int(kb * kTileK), int(n0 + 64 * h), full + 8 * s);
      if (h == 1) {  // tell the pair's issuer that this CTA's operands are in
        mbar_wait(full + 8 * s, phase);
        mbar_arrive_remote(pair_full + 8 * s, rank - 1);
      }
    }
  } else if (warp == 1 && h == 0 && lane == 0) {  // ---- the pair's MMA issuer
    for (uint32_t kb = 0; kb < k_blocks; ++kb) {
      const uint32_t s = kb % kStages, phase = (kb / kStages) & 1;
      const uint32_t a = base + s * kStageBytes, b = a + kABytes;
      mbar_wait(full + 8 * s, phase);
      mbar_wait(pair_full + 8 * s, phase);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      for (uint32_t kk = 0; kk < kTileK / 16; ++kk)  // 16 elements = 32 bytes along the swizzled row
        mma(tmem, desc_sw128(a + 32 * kk), desc_sw128(b + 32 * kk), kb | kk);
      commit(empty + 8 * s, 0b1111);
    }
    commit(done, uint16_t(0b11u << rank));
  } else if (warp >= 2) {  // ---- epilogue: lane quarter warp % 4 of this CTA's 128 rows of D
    mbar_wait(done, 0);
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const uint32_t quarter = warp % 4, row = m0 + 32 * quarter + lane;
    for (uint32_t c0 = 0; c0 < kColumns; c0 += 32) {
      uint32_t v[32];
      tmem_ld32(tmem + ((32 * quarter) << 16) + c0, v);
      for (uint32_t j = 0; j < 32; ++j) c[size_t(row) * n + n0 + c0 + j] = __uint_as_float(v[j]);
    }
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  cluster_sync();  // every read of Tensor Memory and shared memory in the cluster is done
  if (warp == 1) {
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(kColumns) : "memory");
  }
}
