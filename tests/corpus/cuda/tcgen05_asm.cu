// Blackwell 5th-generation tensor core (tcgen05) through inline PTX:
// Tensor Memory alloc/relinquish/dealloc, tcgen05.mma (f16, tf32, f8f6f4,
// A-from-TMEM), tcgen05.commit to an mbarrier, tcgen05.ld/st/wait,
// tcgen05.cp, tcgen05.shift and the tcgen05 fences. Syntax per
// /work/shared/spec/000_70a4b524dfe259fa.txt §9.7.16 and 003_6cc9a368d385caa7.txt.
// corpus-archs: sm_100a sm_103a sm_110a sm_100f sm_110f
// corpus-G: sm_100a
// corpus-lineinfo: sm_103a
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ uint64_t sdesc(const void *smem, uint32_t lbo, uint32_t sbo)
{
    uint64_t d = 0;
    d |= (uint64_t)((smem_u32(smem) & 0x3FFFF) >> 4);
    d |= (uint64_t)((lbo & 0x3FFFF) >> 4) << 16;
    d |= (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;
    d |= (uint64_t)1 << 46; // fixed 0b001
    return d;
}

// idesc for kind::f16: dtype f32 (bits 4-5 = 1), a/b = f16 (0), N>>3 at 17, M>>4 at 24.
__host__ __device__ constexpr uint32_t idesc_f16(uint32_t M, uint32_t N) { return (1u << 4) | ((N >> 3) << 17) | ((M >> 4) << 24); }

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t phase)
{
    asm volatile("{\n.reg .pred p;\nWAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n}" ::"r"(bar), "r"(phase) : "memory");
}

extern "C" __global__ void __launch_bounds__(128) tcgen05_gemm_tile(const uint32_t *A, const uint32_t *B, float *C, int ksteps)
{
    __shared__ __align__(1024) uint32_t sa[128 * 8];
    __shared__ __align__(1024) uint32_t sb[64 * 8];
    __shared__ uint32_t tmem_base;
    __shared__ __align__(8) uint64_t mbar;
    int warp = threadIdx.x / 32;
    if (warp == 0) {
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;" ::"r"(smem_u32(&tmem_base)) : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    }
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&mbar)) : "memory");
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    uint32_t tmem = tmem_base;
    for (int k = 0; k < ksteps; ++k) {
        for (int e = threadIdx.x; e < 128 * 8; e += 128) sa[e] = A[k * 1024 + e];
        for (int e = threadIdx.x; e < 64 * 8; e += 128) sb[e] = B[k * 512 + e];
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
            uint64_t da = sdesc(sa, 128, 256), db = sdesc(sb, 128, 256);
            asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
                         "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}" ::"r"(tmem), "l"(da), "l"(db), "r"(idesc_f16(128, 64)), "r"(k)
                         : "memory");
            asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(smem_u32(&mbar)) : "memory");
        }
        mbar_wait(smem_u32(&mbar), k & 1);
        __syncthreads();
    }
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    uint32_t r[8];
    uint32_t taddr = tmem + ((uint32_t)(warp * 32) << 16);
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]) : "r"(taddr));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    for (int j = 0; j < 8; ++j) C[threadIdx.x * 8 + j] = __uint_as_float(r[j]);
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    if (warp == 0) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;" ::"r"(tmem) : "memory");
}

extern "C" __global__ void __launch_bounds__(128) tcgen05_misc(const uint32_t *in, uint32_t *out)
{
    __shared__ __align__(1024) uint32_t s[128 * 8];
    __shared__ uint32_t tmem_base;
    __shared__ __align__(8) uint64_t mbar;
    int warp = threadIdx.x / 32;
    for (int e = threadIdx.x; e < 128 * 8; e += 128) s[e] = in[e];
    if (warp == 0) asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;" ::"r"(smem_u32(&tmem_base)) : "memory");  // D of the MMAs: columns 96..159
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&mbar)) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    uint32_t tmem = tmem_base;
    uint32_t lane_addr = tmem + ((uint32_t)(warp * 32) << 16);
    // Store registers into TMEM, then read them back with a different shape.
    uint32_t v0 = in[threadIdx.x], v1 = in[threadIdx.x + 128], v2 = in[threadIdx.x + 256], v3 = in[threadIdx.x + 384];
    asm volatile("tcgen05.st.sync.aligned.32x32b.x4.b32 [%0], {%1,%2,%3,%4};" ::"r"(lane_addr), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
    asm volatile("tcgen05.st.sync.aligned.16x64b.x2.unpack::16b.b32 [%0], {%1,%2};" ::"r"(lane_addr + 8), "r"(v0), "r"(v1) : "memory");
    asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
    uint32_t a, b, c, d;
    asm volatile("tcgen05.ld.sync.aligned.16x128b.x1.b32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(lane_addr));
    asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x2.pack::16b.b32 {%0,%1}, [%2], 4;" : "=r"(c), "=r"(d) : "r"(lane_addr + 16));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    if (threadIdx.x == 0) {
        uint64_t sd = sdesc(s, 128, 256);
        asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;" ::"r"(tmem + 32), "l"(sd) : "memory");
#if defined(__CUDA_ARCH_SPECIFIC__) // tcgen05.shift is not in the sm_100f family subset
        asm volatile("tcgen05.shift.cta_group::1.down [%0];" ::"r"(tmem + 64) : "memory");
#endif
        // A operand from TMEM, tf32 kind; then f8f6f4 kind with disable-output-lane mask.
        uint32_t idesc_tf32 = (1u << 4) | (2u << 7) | (2u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);
        asm volatile("tcgen05.mma.cta_group::1.kind::tf32 [%0], [%1], %2, %3, 1;" ::"r"(tmem + 96), "r"(tmem + 32), "l"(sd), "r"(idesc_tf32) : "memory");
        uint32_t idesc_f8 = (1u << 4) | ((64u >> 3) << 17) | ((128u >> 4) << 24);
        asm volatile("tcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, %3, {%4,%5,%6,%7}, 0;" ::"r"(tmem + 96), "l"(sd), "l"(sd), "r"(idesc_f8),
                     "r"(0u), "r"(0u), "r"(0u), "r"(0u) : "memory");
        asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(smem_u32(&mbar)) : "memory");
    }
    mbar_wait(smem_u32(&mbar), 0);
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    out[threadIdx.x * 4] = a ^ v2;
    out[threadIdx.x * 4 + 1] = b ^ v3;
    out[threadIdx.x * 4 + 2] = c;
    out[threadIdx.x * 4 + 3] = d;
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    if (warp == 0) {
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;" ::"r"(tmem) : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    }
}
