// Warp-level mma.sync through inline PTX, with fragments loaded by ldmatrix
// (x1/x2/x4, .trans) and stored by stmatrix (sm_90+); movmatrix; sparse
// mma.sp; f16/bf16/tf32/s8/u4/f64/b1 and e4m3 (sm_89+) variants.
// corpus-min: sm_80
// corpus-archs: auto:5
#include <cstdint>
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldmatrix_x2_trans(unsigned (&r)[2], const void *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ unsigned ldmatrix_x1(const void *p)
{
    unsigned r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%0}, [%1];" : "=r"(r) : "r"(smem_addr(p)));
    return r;
}

// One 16x8 output tile per warp, K = 16 per step, f16 inputs, f32 accumulate.
extern "C" __global__ void mma_f16_gemm(const half *A, const half *B, float *C, int K)
{
    __shared__ __align__(16) half As[16][16];
    __shared__ __align__(16) half Bs[16][8];
    float d[4] = {0.f, 0.f, 0.f, 0.f};
    int lane = threadIdx.x & 31;
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int e = lane; e < 256; e += 32) As[e / 16][e % 16] = A[(e / 16) * K + k0 + e % 16];
        for (int e = lane; e < 128; e += 32) Bs[e / 8][e % 8] = B[(k0 + e / 8) * 8 + e % 8];
        __syncwarp();
        unsigned a[4], b[2];
        ldmatrix_x4(a, &As[lane % 16][(lane / 16) * 8]);
        ldmatrix_x2_trans(b, &Bs[lane % 16][0]);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        __syncwarp();
    }
    int g = lane / 4, t = lane % 4;
    C[g * 8 + 2 * t] = d[0];
    C[g * 8 + 2 * t + 1] = d[1];
    C[(g + 8) * 8 + 2 * t] = d[2];
    C[(g + 8) * 8 + 2 * t + 1] = d[3];
}

extern "C" __global__ void mma_variants(const unsigned *in, float *fout, int *iout, double *dout, unsigned *hout)
{
    int lane = threadIdx.x & 31;
    const unsigned *p = in + lane * 8;
    unsigned a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3], b0 = p[4], b1 = p[5];
    float f[4] = {0, 0, 0, 0};
    // f16 inputs, f16 accumulators
    unsigned h0 = 0, h1 = 0;
    asm("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
        : "+r"(h0), "+r"(h1) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    // m16n8k8 f16
    asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
        : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(a0), "r"(a1), "r"(b0));
    // bf16
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    // tf32 m16n8k8
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    // tf32 m16n8k4
    asm("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
        : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(a0), "r"(a1), "r"(b0));
    int s[4] = {0, 0, 0, 0};
    asm("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    asm("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
        : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3]) : "r"(a0), "r"(a1), "r"(b0));
    asm("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    asm("mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32 {%0,%1}, {%2}, {%3}, {%0,%1};"
        : "+r"(s[0]), "+r"(s[1]) : "r"(a0), "r"(b0));
    asm("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    double d0 = 0.0, d1 = 0.0;
    double da = __hiloint2double(a0, a1), db = __hiloint2double(b0, b1);
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+d"(d0), "+d"(d1) : "d"(da), "d"(db));
    // f16 m8n8k4 (the Volta shape, still valid)
    float v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    asm("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%0,%1,%2,%3,%4,%5,%6,%7};"
        : "+f"(v[0]), "+f"(v[1]), "+f"(v[2]), "+f"(v[3]), "+f"(v[4]), "+f"(v[5]), "+f"(v[6]), "+f"(v[7])
        : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
#if __CUDA_ARCH__ >= 890
    asm("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#endif
    for (int k = 0; k < 4; ++k) {
        fout[lane * 12 + k] = f[k];
        iout[lane * 4 + k] = s[k];
    }
    for (int k = 0; k < 8; ++k) fout[lane * 12 + 4 + k] = v[k];
    dout[lane * 2] = d0;
    dout[lane * 2 + 1] = d1;
    hout[lane * 2] = h0;
    hout[lane * 2 + 1] = h1;
}

// 2:4 structured-sparse mma.sp with metadata.
extern "C" __global__ void mma_sparse(const unsigned *a, const unsigned *b, const unsigned *meta, float *c)
{
    int lane = threadIdx.x & 31;
    float d[4] = {0, 0, 0, 0};
    unsigned e = meta[lane];
    asm("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0x0;"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[lane * 4]), "r"(a[lane * 4 + 1]), "r"(a[lane * 4 + 2]), "r"(a[lane * 4 + 3]),
          "r"(b[lane * 4]), "r"(b[lane * 4 + 1]), "r"(b[lane * 4 + 2]), "r"(b[lane * 4 + 3]), "r"(e));
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, 0x1;"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[lane * 4]), "r"(a[lane * 4 + 1]), "r"(b[lane * 4]), "r"(b[lane * 4 + 1]), "r"(e));
    for (int k = 0; k < 4; ++k) c[lane * 4 + k] = d[k];
}

extern "C" __global__ void matrix_moves(const half *in, half *out)
{
    __shared__ __align__(16) half tile[32][8];
    int lane = threadIdx.x & 31;
    for (int k = 0; k < 8; ++k) tile[lane][k] = in[lane * 8 + k];
    __syncwarp();
    unsigned r = ldmatrix_x1(&tile[lane % 8][0]);
    unsigned t;
    asm("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t) : "r"(r));
    unsigned q[4];
    ldmatrix_x4(q, &tile[lane][0]);
    __syncwarp();
#if __CUDA_ARCH__ >= 900
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(smem_addr(&tile[lane][0])), "r"(q[0]), "r"(q[1]), "r"(q[2]), "r"(q[3]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(smem_addr(&tile[lane % 8][0])), "r"(t) : "memory");
#else
    *reinterpret_cast<unsigned *>(&tile[lane % 8][2 * (lane / 8)]) = t;
#endif
    __syncwarp();
    for (int k = 0; k < 8; ++k) out[lane * 8 + k] = tile[lane][k];
}
