// Inline PTX for bit-field and SIMD integer instructions: bfe, bfi, prmt, lop3,
// shf, bmsk, szext, dp4a/dp2a, bfind, fns.
// corpus-archs: auto:4
#include <cstdint>

__device__ __forceinline__ uint32_t bfe_u32(uint32_t v, uint32_t pos, uint32_t len)
{
    uint32_t r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(pos), "r"(len));
    return r;
}
__device__ __forceinline__ int32_t bfe_s32(int32_t v, uint32_t pos, uint32_t len)
{
    int32_t r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(pos), "r"(len));
    return r;
}
__device__ __forceinline__ uint64_t bfe_u64(uint64_t v, uint32_t pos, uint32_t len)
{
    uint64_t r;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(v), "r"(pos), "r"(len));
    return r;
}
__device__ __forceinline__ uint32_t bfi_b32(uint32_t f, uint32_t b, uint32_t pos, uint32_t len)
{
    uint32_t r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(f), "r"(b), "r"(pos), "r"(len));
    return r;
}
__device__ __forceinline__ uint32_t lop3_xor_and(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, 0x6A;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
__device__ __forceinline__ uint32_t shf_l_wrap(uint32_t lo, uint32_t hi, uint32_t s)
{
    uint32_t r;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}
__device__ __forceinline__ uint32_t shf_r_clamp(uint32_t lo, uint32_t hi, uint32_t s)
{
    uint32_t r;
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}
__device__ __forceinline__ uint32_t prmt_f4e(uint32_t a, uint32_t b, uint32_t s)
{
    uint32_t r;
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
    return r;
}
__device__ __forceinline__ uint32_t bmsk(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ int32_t szext(int32_t a, uint32_t b)
{
    int32_t r;
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t bfind_shiftamt(uint32_t a)
{
    uint32_t r;
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(a));
    return r;
}
__device__ __forceinline__ uint32_t fns(uint32_t mask, uint32_t base, int off)
{
    uint32_t r;
    asm("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(mask), "r"(base), "r"(off));
    return r;
}

extern "C" __global__ void bitfield_asm(const uint32_t *in, uint32_t *out, uint64_t *out64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t v = in[i], w = in[(i + 1) % n];
    uint32_t p = i & 31, l = (v >> 27) + 1;
    out[8 * i + 0] = bfe_u32(v, p, l) + (uint32_t)bfe_s32((int32_t)w, p, 7);
    out[8 * i + 1] = bfi_b32(v, w, p, l);
    out[8 * i + 2] = lop3_xor_and(v, w, p);
    out[8 * i + 3] = shf_l_wrap(v, w, p) ^ shf_r_clamp(w, v, l);
    out[8 * i + 4] = prmt_f4e(v, w, p) + __byte_perm(v, w, 0x7531);
    out[8 * i + 5] = bmsk(p, l) + (uint32_t)szext((int32_t)v, p);
    out[8 * i + 6] = bfind_shiftamt(v) + fns(v, p, 2);
    out[8 * i + 7] = (uint32_t)__dp4a((int)v, (int)w, 5) + __dp4a(v, w, 3u) + (uint32_t)__dp2a_lo((int)v, (int)w, 1) + __dp2a_hi(v, w, 2u);
    out64[i] = bfe_u64(((uint64_t)w << 32) | v, p + 3, l + 20);
}
