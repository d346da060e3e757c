// Hopper warpgroup MMA (sm_90a only) through inline PTX: shared-memory
// matrix descriptors, wgmma.fence / mma_async / commit_group / wait_group,
// A-from-registers form, f16/bf16/tf32/e4m3/s8 kinds, plus setmaxnreg,
// elect.sync and fence.proxy.async that warp-specialized kernels use.
// corpus-archs: sm_90a
// corpus-G: sm_90a
// corpus-lineinfo: sm_90a
#include <cstdint>
#include <cuda_fp16.h>

__device__ __forceinline__ uint64_t make_desc(const void *smem, uint32_t lbo, uint32_t sbo, uint32_t swizzle)
{
    uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    uint64_t d = 0;
    d |= (uint64_t)((a & 0x3FFFF) >> 4);
    d |= (uint64_t)((lbo & 0x3FFFF) >> 4) << 16;
    d |= (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;
    d |= (uint64_t)swizzle << 62;
    return d;
}

__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wg_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }

// 64x16 tile, K loop in steps of 16, f16 inputs in shared memory, f32 accum.
extern "C" __global__ void __launch_bounds__(128) wgmma_f16_tile(const half *A, const half *B, float *C, int K)
{
    __shared__ __align__(128) half As[64 * 16];
    __shared__ __align__(128) half Bs[16 * 16];
    float d[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) d[k] = 0.f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int e = threadIdx.x; e < 64 * 16; e += 128) As[e] = A[(e / 16) * K + k0 + e % 16];
        for (int e = threadIdx.x; e < 16 * 16; e += 128) Bs[e] = B[(e / 16) * K + k0 + e % 16];
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        uint64_t da = make_desc(As, 128, 256, 0), db = make_desc(Bs, 128, 256, 0);
        wg_fence();
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1, 0, 0;\n}"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                     : "l"(da), "l"(db), "r"(k0 > 0 ? 1 : 0));
        wg_commit();
        wg_wait<0>();
        __syncthreads();
    }
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row = warp * 16 + lane / 4, col = (lane % 4) * 2;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        C[row * 16 + col + 8 * j] = d[4 * j];
        C[row * 16 + col + 8 * j + 1] = d[4 * j + 1];
        C[(row + 8) * 16 + col + 8 * j] = d[4 * j + 2];
        C[(row + 8) * 16 + col + 8 * j + 1] = d[4 * j + 3];
    }
}

extern "C" __global__ void __launch_bounds__(128) wgmma_kinds(const uint32_t *in, float *fout, int *iout, uint32_t *hout)
{
    __shared__ __align__(128) uint32_t sa[64 * 16];
    __shared__ __align__(128) uint32_t sb[64 * 16];
    for (int e = threadIdx.x; e < 64 * 16; e += 128) { sa[e] = in[e]; sb[e] = in[e + 1024]; }
    asm volatile("fence.proxy.async;" ::: "memory");
    __syncthreads();
    uint64_t da = make_desc(sa, 16, 128, 1), db = make_desc(sb, 16, 128, 1);
    float f[4] = {0, 0, 0, 0};
    int s[4] = {0, 0, 0, 0};
    uint32_t h[2] = {0, 0};
    wg_fence();
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0,%1,%2,%3}, %4, %5, 1, 1, -1, 0, 1;"
                 : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "l"(da), "l"(db));
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, %4, %5, 1, 1, 1;"
                 : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "l"(da), "l"(db));
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%0,%1,%2,%3}, %4, %5, 1, 1, 1;"
                 : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "l"(da), "l"(db));
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8.satfinite {%0,%1,%2,%3}, %4, %5, 0;"
                 : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3]) : "l"(da), "l"(db));
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0,%1}, %2, %3, 0, 1, 1, 0, 0;"
                 : "+r"(h[0]), "+r"(h[1]) : "l"(da), "l"(db));
    // A operand from registers.
    uint32_t ar[4] = {in[threadIdx.x], in[threadIdx.x + 128], in[threadIdx.x + 256], in[threadIdx.x + 384]};
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, 1, 1, 1, 1;"
                 : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(db));
    wg_commit();
    wg_wait<1>();
    wg_wait<0>();
    for (int k = 0; k < 4; ++k) {
        fout[threadIdx.x * 4 + k] = f[k];
        iout[threadIdx.x * 4 + k] = s[k];
    }
    hout[threadIdx.x * 2] = h[0];
    hout[threadIdx.x * 2 + 1] = h[1];
}

// Warp-specialized skeleton: producer warpgroup gives registers away,
// consumer warpgroup takes more; one elected lane issues the work.
extern "C" __global__ void __launch_bounds__(256) warp_specialized(const float *in, float *out, int n)
{
    int wg = threadIdx.x / 128;
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        uint32_t is_leader;
        asm volatile("{\n.reg .pred p;\n.reg .b32 r;\nelect.sync r|p, 0xffffffff;\nselp.u32 %0, 1, 0, p;\n}" : "=r"(is_leader));
        if (is_leader && threadIdx.x / 32 == 0) out[n] = 1.f;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        float acc = 0.f;
        for (int i = threadIdx.x - 128; i < n; i += 128) acc += in[i];
        out[threadIdx.x - 128] = acc;
    }
}
