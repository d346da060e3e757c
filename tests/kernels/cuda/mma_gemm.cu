// CUTLASS-style GEMMs in inline PTX: a block of 4 warps computes a 64x64 tile of D = A * B,
// each warp a 32x32 quarter as 2 x 4 tiles of mma.sync m16n8 (PTX §9.7.14.5.14); operand tiles
// go global -> shared with plain loads and __syncthreads (no cp.async), shared -> registers
// with ldmatrix (PTX §9.7.14.5.15). Epilogues write through stmatrix (§9.7.14.5.16) and
// movmatrix (§9.7.14.5.17). M and N are multiples of 64, K of 32 (f16/bf16) or 64 (s8).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <type_traits>

constexpr int BM = 64, BN = 64, KB = 64;          // block tile; bytes of K per shared stage
constexpr int SA = KB + 16;                       // shared row stride (bytes) of the K-major tiles
constexpr int SB = BN * 2 + 16;                   // shared row stride (bytes) of the [k][n] f16 tile

__device__ inline unsigned smem(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// Copies rows x row_bytes (a multiple of 16) from global (row stride gs bytes) to shared
// (row stride ss bytes), 16 bytes a thread at a time.
__device__ inline void copy_tile(char *s, int ss, const char *g, int gs, int rows, int row_bytes)
{
    for (int e = threadIdx.x; e < rows * row_bytes / 16; e += blockDim.x) {
        int r = e / (row_bytes / 16), c = e % (row_bytes / 16) * 16;
        *reinterpret_cast<uint4 *>(s + r * ss + c) = *reinterpret_cast<const uint4 *>(g + r * gs + c);
    }
}

__device__ inline void ldmatrix_x4(unsigned (&r)[4], unsigned addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

__device__ inline void ldmatrix_x4_trans(unsigned (&r)[4], unsigned addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

template <typename T> __device__ inline void mma_16816(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    if constexpr (std::is_same_v<T, __half>)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ inline void mma_16832_s8(int (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// The accumulators of a 16-bit GEMM: A row-major M x K, B row-major K x N (loaded transposed by
// ldmatrix.trans into the mma's column operand). acc[mt][nt]: rows wm + 16 mt, cols wn + 8 nt;
// c0,c1 at (lane/4, 2(lane%4) + {0,1}), c2,c3 eight rows below.
template <typename T>
__device__ void mainloop16(const T *A, const T *B, int N, int K, char *As, char *Bs, float (&acc)[2][4][4])
{
    int lane = threadIdx.x % 32, w = threadIdx.x / 32, wm = w / 2 * 32, wn = w % 2 * 32;
    const char *a = reinterpret_cast<const char *>(A + blockIdx.y * BM * K);
    const char *b = reinterpret_cast<const char *>(B + blockIdx.x * BN);
    for (int k0 = 0; k0 < K; k0 += KB / 2) {
        copy_tile(As, SA, a + k0 * 2, K * 2, BM, KB);
        copy_tile(Bs, SB, b + k0 * N * 2, N * 2, KB / 2, BN * 2);
        __syncthreads();
        for (int kk = 0; kk < KB / 2; kk += 16) {
            unsigned af[2][4], bf[2][4];
            // matrix q = lane / 8 of x4: rows (q & 1) * 8.., k (q >> 1) * 8.. -> a0..a3
            for (int mt = 0; mt < 2; ++mt)
                ldmatrix_x4(af[mt], smem(As + (wm + 16 * mt + lane % 16) * SA + (kk + lane / 16 * 8) * 2));
            // matrix q: k rows kk + (q & 1) * 8.., n cols (q >> 1) * 8.., transposed -> b0, b1 of two n-tiles
            for (int np = 0; np < 2; ++np)
                ldmatrix_x4_trans(bf[np], smem(Bs + (kk + lane % 16) * SB + (wn + 16 * np + lane / 16 * 8) * 2));
            for (int mt = 0; mt < 2; ++mt)
                for (int nt = 0; nt < 4; ++nt)
                    mma_16816<T>(acc[mt][nt], af[mt], bf[nt / 2][nt % 2 * 2], bf[nt / 2][nt % 2 * 2 + 1]);
        }
        __syncthreads();
    }
}

// Dout (f32) = A * B, and D16 = the same rounded to f16, written to shared with
// stmatrix.x4 (the f16x2 accumulator pairs are stmatrix's fragment) and copied out.
extern "C" __global__ void mma_gemm_f16(const __half *A, const __half *B, float *D, __half *D16, int M, int N, int K)
{
    __shared__ __align__(16) char As[BM * SA], Bs[KB / 2 * SB];
    __shared__ __align__(16) __half Cs[BM * (BN + 8)];
    float acc[2][4][4] = {};
    mainloop16(A, B, N, K, As, Bs, acc);
    int lane = threadIdx.x % 32, w = threadIdx.x / 32, wm = w / 2 * 32, wn = w % 2 * 32;
    int i0 = blockIdx.y * BM, j0 = blockIdx.x * BN;
    for (int mt = 0; mt < 2; ++mt)
        for (int nt = 0; nt < 4; ++nt) {
            int r = i0 + wm + 16 * mt + lane / 4, c = j0 + wn + 8 * nt + lane % 4 * 2;
            *reinterpret_cast<float2 *>(D + r * N + c) = make_float2(acc[mt][nt][0], acc[mt][nt][1]);
            *reinterpret_cast<float2 *>(D + (r + 8) * N + c) = make_float2(acc[mt][nt][2], acc[mt][nt][3]);
        }
    for (int mt = 0; mt < 2; ++mt)
        for (int np = 0; np < 2; ++np) {
            unsigned h[4];
            for (int q = 0; q < 4; ++q) {  // matrix q: rows (q & 1) * 8.., n-tile 2 np + (q >> 1)
                __half2 v = __floats2half2_rn(acc[mt][2 * np + q / 2][q % 2 * 2], acc[mt][2 * np + q / 2][q % 2 * 2 + 1]);
                h[q] = *reinterpret_cast<unsigned *>(&v);
            }
            unsigned addr = smem(Cs + (wm + 16 * mt + lane % 16) * (BN + 8) + wn + 16 * np + lane / 16 * 8);
            asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                         :: "r"(addr), "r"(h[0]), "r"(h[1]), "r"(h[2]), "r"(h[3]) : "memory");
        }
    __syncthreads();
    for (int e = threadIdx.x; e < BM * BN / 8; e += blockDim.x) {
        int r = e / (BN / 8), c = e % (BN / 8) * 8;
        *reinterpret_cast<uint4 *>(D16 + (i0 + r) * N + j0 + c) = *reinterpret_cast<const uint4 *>(Cs + r * (BN + 8) + c);
    }
}

// Dout (f32) = A * B in bf16, and Dt (bf16, N x M) = its transpose: each 8x8 bf16 block of the
// accumulators is transposed in registers with movmatrix.trans and stored from there.
extern "C" __global__ void mma_gemm_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *D,
                                         __nv_bfloat16 *Dt, int M, int N, int K)
{
    __shared__ __align__(16) char As[BM * SA], Bs[KB / 2 * SB];
    float acc[2][4][4] = {};
    mainloop16(A, B, N, K, As, Bs, acc);
    int lane = threadIdx.x % 32, w = threadIdx.x / 32, wm = w / 2 * 32, wn = w % 2 * 32;
    int i0 = blockIdx.y * BM + wm, j0 = blockIdx.x * BN + wn;
    for (int mt = 0; mt < 2; ++mt)
        for (int nt = 0; nt < 4; ++nt)
            for (int h = 0; h < 2; ++h) {  // rows 8h.. of the 16x8 tile
                float c0 = acc[mt][nt][2 * h], c1 = acc[mt][nt][2 * h + 1];
                int r = i0 + 16 * mt + 8 * h, c = j0 + 8 * nt;
                *reinterpret_cast<float2 *>(D + (r + lane / 4) * N + c + lane % 4 * 2) = make_float2(c0, c1);
                __nv_bfloat162 v = __floats2bfloat162_rn(c0, c1);
                unsigned x = *reinterpret_cast<unsigned *>(&v), t;
                asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t) : "r"(x));
                // t holds row lane/4, cols 2(lane%4).. of the transposed block: D[r + 2(lane%4)..][c + lane/4]
                *reinterpret_cast<unsigned *>(Dt + (c + lane / 4) * M + r + lane % 4 * 2) = t;
            }
}

// s8 GEMM, s32 accumulators (wrapping): A row-major M x K, B column-major (N x K, K contiguous),
// both K-major in shared, so ldmatrix without .trans gives mma.m16n8k32's a0..a3 and b0, b1.
extern "C" __global__ void mma_gemm_s8(const signed char *A, const signed char *B, int *D, int M, int N, int K)
{
    __shared__ __align__(16) char As[BM * SA], Bs[BN * SA];
    int acc[2][4][4] = {};
    int lane = threadIdx.x % 32, w = threadIdx.x / 32, wm = w / 2 * 32, wn = w % 2 * 32;
    const char *a = reinterpret_cast<const char *>(A + blockIdx.y * BM * K);
    const char *b = reinterpret_cast<const char *>(B + blockIdx.x * BN * K);
    for (int k0 = 0; k0 < K; k0 += KB) {
        copy_tile(As, SA, a + k0, K, BM, KB);
        copy_tile(Bs, SA, b + k0, K, BN, KB);
        __syncthreads();
        for (int kk = 0; kk < KB; kk += 32) {
            unsigned af[2][4], bf[2][4];
            // matrix q: rows (q & 1) * 8.., k bytes (q >> 1) * 16.. -> a0..a3
            for (int mt = 0; mt < 2; ++mt)
                ldmatrix_x4(af[mt], smem(As + (wm + 16 * mt + lane % 16) * SA + kk + lane / 16 * 16));
            // matrix q: n rows (q >> 1) * 8.., k bytes (q & 1) * 16.. -> b0, b1 of two n-tiles
            for (int np = 0; np < 2; ++np)
                ldmatrix_x4(bf[np], smem(Bs + (wn + 16 * np + lane / 16 * 8 + lane % 8) * SA + kk + lane / 8 % 2 * 16));
            for (int mt = 0; mt < 2; ++mt)
                for (int nt = 0; nt < 4; ++nt)
                    mma_16832_s8(acc[mt][nt], af[mt], bf[nt / 2][nt % 2 * 2], bf[nt / 2][nt % 2 * 2 + 1]);
        }
        __syncthreads();
    }
    int i0 = blockIdx.y * BM + wm, j0 = blockIdx.x * BN + wn;
    for (int mt = 0; mt < 2; ++mt)
        for (int nt = 0; nt < 4; ++nt) {
            int r = i0 + 16 * mt + lane / 4, c = j0 + 8 * nt + lane % 4 * 2;
            *reinterpret_cast<int2 *>(D + r * N + c) = make_int2(acc[mt][nt][0], acc[mt][nt][1]);
            *reinterpret_cast<int2 *>(D + (r + 8) * N + c) = make_int2(acc[mt][nt][2], acc[mt][nt][3]);
        }
}
