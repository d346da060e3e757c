// A warp-specialized Hopper GEMM on a thread-block cluster of 2 CTAs, written by hand with inline
// PTX (sm_90a). C[M,N] f32 = A[M,K] x B[N,K]^T, A and B K-major, bf16 (gemm_bf16) or f16
// (gemm_f16). Compiled to gemm.ptx with
//
//   nvcc -arch=sm_90a -ptx -O2 -o gemm.ptx gemm.cu
//
// Shapes and layouts: problem.h. Per CTA (384 threads) a 128x128 tile of C, K in steps of 64:
//   - warpgroup 0 (setmaxnreg.dec 40) is the producer: thread 0 fills a 4-stage ring of shared
//     buffers with TMA (cp.async.bulk.tensor.2d, 128B swizzle). The 2 CTAs of a cluster have the
//     same M tile: CTA rank r loads rows [64r, 64r+64) of the A tile and multicasts them to both
//     CTAs (ctaMask 0b11); B (its own N tile) it loads for itself. Each stage has a 'full'
//     mbarrier (arrive.expect_tx of all 32 KB the stage receives, from both CTAs) and an 'empty'
//     mbarrier that the 2 consumer warpgroups of BOTH CTAs arrive on (4 arrivals) before the
//     producer refills the stage, since its multicast writes into the peer's buffer too.
//   - warpgroups 1 and 2 (setmaxnreg.inc 232) are consumers: each computes 64 rows of the tile
//     with wgmma.mma_async m64n128k16 from shared-memory descriptors, keeps one wgmma group in
//     flight (wait_group 1), releases a stage by a release.cluster arrive on the empty barrier of
//     each CTA of the cluster (mapa), and stores its accumulators to C with st.global.
//   - the cluster starts with mbarrier.init, fence.mbarrier_init and barrier.cluster, and ends
//     with barrier.cluster, so no CTA exits while its peer may still multicast into it or arrive
//     on its barriers.
#include <cstdint>

#include "problem.h"

namespace g = ptxvm_hw_cluster_gemm;

struct alignas(64) TensorMap {  // the 128-byte CUtensorMap, opaque
  uint64_t w[16];
};

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

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

// Waits for the phase of parity `parity` of the CTA's own barrier to complete (acquire.cta).
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// The same with acquire at cluster scope: the producer's wait for the consumers of both CTAs.
__device__ __forceinline__ void mbar_wait_cluster(uint32_t bar, uint32_t parity) {
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

// Arrives (release, cluster scope) on the barrier at the same offset as `bar` in CTA `rank` of the cluster.
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar, uint32_t rank) {
  asm volatile(
      "{\n\t.reg .b32 remote;\n\t"
      "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n\t}" ::"r"(bar),
      "r"(rank)
      : "memory");
}

// One box of a 2-D map into this CTA's shared memory, completing on this CTA's barrier.
__device__ __forceinline__ void tma_load(uint32_t dst, const TensorMap* map, int c0, int c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

// One box multicast to the CTAs of `mask`, at the same offsets (buffer and barrier) in each.
__device__ __forceinline__ void tma_load_multicast(uint32_t dst, const TensorMap* map, int c0, int c1, uint32_t bar,
                                                   uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
      : "memory");
}

// A K-major operand in 128B swizzle (§9.7.15.5.1): rows of 128 bytes, 8-row groups 1024 bytes
// apart (SBO), LBO unused (16), base offset 0 (every tile 1024-aligned), mode 1 = 128B.
__device__ __forceinline__ uint64_t desc_sw128(uint32_t addr) {
  return uint64_t((addr >> 4) & 0x3fff) | uint64_t(16 >> 4) << 16 | uint64_t(1024 >> 4) << 32 | uint64_t(1) << 62;
}

// Keeps the compiler from moving accumulator reads and writes across the asynchronous wgmma.
__device__ __forceinline__ void fence_acc(float (&d)[64]) {
#pragma unroll
  for (int i = 0; i < 64; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

#define WGMMA_D_OPERANDS                                                                                     \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), \
      "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),  \
      "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), \
      "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), \
      "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), \
      "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), \
      "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), \
      "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])

#define WGMMA_D_LIST                                                                                          \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, " \
  "%23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, "  \
  "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"

// d (+)= A(64x16, desc a) x B(128x16, desc b)^T; scale_d = 0 overwrites d.
template <g::Elem T>
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t a, uint64_t b, uint32_t scale_d) {
  if constexpr (T == g::Elem::bf16)
    asm volatile(
        "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %66, 0;\n\t"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " WGMMA_D_LIST ", %64, %65, p, 1, 1, 0, 0;\n\t}"
        : WGMMA_D_OPERANDS
        : "l"(a), "l"(b), "r"(scale_d)
        : "memory");
  else
    asm volatile(
        "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %66, 0;\n\t"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " WGMMA_D_LIST ", %64, %65, p, 1, 1, 0, 0;\n\t}"
        : WGMMA_D_OPERANDS
        : "l"(a), "l"(b), "r"(scale_d)
        : "memory");
}

template <g::Elem T>
__device__ __forceinline__ void gemm(const TensorMap* map_a, const TensorMap* map_b, float* c, uint32_t n, uint32_t k) {
  extern __shared__ __align__(1024) uint8_t dyn[];
  const uint32_t base = (smem_addr(dyn) + 1023u) & ~1023u;  // the 128B swizzle atom is 1024 bytes
  const uint32_t full = base + g::kBarrierOffset, empty = full + 8 * g::kStages;
  const uint32_t tid = threadIdx.x, warpgroup = tid / 128, rank = cluster_ctarank();
  const uint32_t n_tile = blockIdx.x, m_tile = blockIdx.y, k_blocks = k / g::kTileK;

  if (tid == 0) {
    for (uint32_t s = 0; s < g::kStages; ++s) {
      mbar_init(full + 8 * s, 1);
      mbar_init(empty + 8 * s, g::kEmptyArrivals);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_sync();  // every barrier of the cluster is initialized before anyone uses it

  if (warpgroup == 0) {  // ---- producer
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (tid == 0) {
      asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map_a)) : "memory");
      asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map_b)) : "memory");
      for (uint32_t kb = 0; kb < k_blocks; ++kb) {
        const uint32_t s = kb % g::kStages, phase = (kb / g::kStages) & 1;
        mbar_wait_cluster(empty + 8 * s, phase ^ 1);  // round 0 passes: the phase before the first
        mbar_arrive_expect_tx(full + 8 * s, g::kTxBytesPerStage);
        const uint32_t a = base + s * g::kStageBytes, b = a + g::kATileBytes;
        tma_load_multicast(a + rank * g::kAHalfBytes, map_a, int(kb * g::kTileK),
                           int(m_tile * g::kTileM + rank * (g::kTileM / g::kClusterX)), full + 8 * s,
                           uint16_t((1u << g::kClusterX) - 1));
        tma_load(b, map_b, int(kb * g::kTileK), int(n_tile * g::kTileN), full + 8 * s);
      }
    }
    __syncwarp();
  } else {  // ---- consumers
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    const uint32_t w = warpgroup - 1, t = tid % 128;
    float d[64];
#pragma unroll
    for (int i = 0; i < 64; ++i) d[i] = 0.f;
    for (uint32_t kb = 0; kb < k_blocks; ++kb) {
      const uint32_t s = kb % g::kStages, phase = (kb / g::kStages) & 1;
      mbar_wait(full + 8 * s, phase);
      const uint32_t a = base + s * g::kStageBytes + w * (g::kATileBytes / 2), b = base + s * g::kStageBytes + g::kATileBytes;
      fence_acc(d);
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (uint32_t kk = 0; kk < g::kTileK / 16; ++kk)  // 16 elements = 32 bytes along the swizzled row
        wgmma_m64n128k16<T>(d, desc_sw128(a + 32 * kk), desc_sw128(b + 32 * kk), kb | kk);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");  // block kb - 1 is done with its stage
      fence_acc(d);
      if (kb > 0 && t < g::kClusterX) mbar_arrive_cluster(empty + 8 * ((kb - 1) % g::kStages), t);
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    fence_acc(d);
    if (k_blocks > 0 && t < g::kClusterX) mbar_arrive_cluster(empty + 8 * ((k_blocks - 1) % g::kStages), t);

    // the m64n128 f32 fragment: warp q of the warpgroup holds rows 16q..16q+15; d[4j + 2i + e] is
    // row 16q + lane/4 + 8i, column 8j + 2(lane%4) + e
    const uint32_t q = t / 32, lane = t % 32;
    const uint32_t row0 = m_tile * g::kTileM + w * 64 + q * 16 + lane / 4, col0 = n_tile * g::kTileN + 2 * (lane % 4);
#pragma unroll
    for (uint32_t j = 0; j < 16; ++j)
#pragma unroll
      for (uint32_t i = 0; i < 2; ++i)
        *reinterpret_cast<float2*>(c + size_t(row0 + 8 * i) * n + col0 + 8 * j) = make_float2(d[4 * j + 2 * i], d[4 * j + 2 * i + 1]);
  }
  cluster_sync();  // no CTA exits while its peer may still multicast into it or arrive on its barriers
}

extern "C" __global__ void __launch_bounds__(g::kThreads, 1)
    gemm_bf16(const __grid_constant__ TensorMap map_a, const __grid_constant__ TensorMap map_b, float* c, uint32_t m,
              uint32_t n, uint32_t k) {
  (void)m;
  gemm<g::Elem::bf16>(&map_a, &map_b, c, n, k);
}

extern "C" __global__ void __launch_bounds__(g::kThreads, 1)
    gemm_f16(const __grid_constant__ TensorMap map_a, const __grid_constant__ TensorMap map_b, float* c, uint32_t m,
             uint32_t n, uint32_t k) {
  (void)m;
  gemm<g::Elem::f16>(&map_a, &map_b, c, n, k);
}
