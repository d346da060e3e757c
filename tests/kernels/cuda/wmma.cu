// Small GEMMs through nvcuda::wmma (wmma.load / wmma.mma / wmma.store, PTX §9.7.14.4-5):
// D = fixup(A * B + C), one warp per output tile, tiles shared out over all warps of the grid.
// fixup(v, alpha, e) = v * alpha + e, with e the index of v in the fragment's x[] array, so the
// outputs depend on which matrix element each lane's register holds (the fragment layout);
// integer fixups wrap (computed unsigned).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <type_traits>

using namespace nvcuda;
namespace wx = nvcuda::wmma::experimental;

__device__ inline int warp_id() { return (blockIdx.x * blockDim.x + threadIdx.x) / 32; }
__device__ inline int warp_count() { return gridDim.x * blockDim.x / 32; }

// Offset of element (r, c) of a rows x cols matrix in layout L, and its leading dimension.
template <typename L> __device__ inline int at(int r, int c, int rows, int cols)
{
    return std::is_same_v<L, wmma::row_major> ? r * cols + c : c * rows + r;
}
template <typename L> __device__ inline int lead(int rows, int cols)
{
    return std::is_same_v<L, wmma::row_major> ? cols : rows;
}
__device__ inline int at(wmma::layout_t l, int r, int c, int rows, int cols)
{
    return l == wmma::mem_row_major ? r * cols + c : c * rows + r;
}
__device__ inline int lead(wmma::layout_t l, int rows, int cols) { return l == wmma::mem_row_major ? cols : rows; }

template <typename T> __device__ inline T fixup(T v, T alpha, int e) { return v * alpha + T(e); }
template <> __device__ inline __half fixup(__half v, __half alpha, int e) { return __hfma(v, alpha, __int2half_rn(e)); }
template <> __device__ inline int fixup(int v, int alpha, int e) { return int(unsigned(v) * unsigned(alpha) + unsigned(e)); }

// Fragments read straight from global memory. Prec is the fragment element type (tf32: float
// data converted with __float_to_tf32 after the load, as wmma requires); Sat: .satfinite (int).
template <int TM, int TN, int TK, typename In, typename Acc, typename LA, typename LB, typename Prec = In,
          bool Sat = false>
__device__ void gemm(const In *A, const In *B, const Acc *C, Acc *D, int M, int N, int K, wmma::layout_t lc,
                     wmma::layout_t ld, Acc alpha)
{
    for (int t = warp_id(); t < (M / TM) * (N / TN); t += warp_count()) {
        int i = t / (N / TN) * TM, j = t % (N / TN) * TN;
        wmma::fragment<wmma::matrix_a, TM, TN, TK, Prec, LA> a;
        wmma::fragment<wmma::matrix_b, TM, TN, TK, Prec, LB> b;
        wmma::fragment<wmma::accumulator, TM, TN, TK, Acc> acc;
        wmma::load_matrix_sync(acc, C + at(lc, i, j, M, N), lead(lc, M, N), lc);
        for (int k = 0; k < K; k += TK) {
            wmma::load_matrix_sync(a, A + at<LA>(i, k, M, K), lead<LA>(M, K));
            wmma::load_matrix_sync(b, B + at<LB>(k, j, K, N), lead<LB>(K, N));
            if constexpr (std::is_same_v<Prec, wmma::precision::tf32>) {
                for (int e = 0; e < a.num_elements; ++e) a.x[e] = wmma::__float_to_tf32(a.x[e]);
                for (int e = 0; e < b.num_elements; ++e) b.x[e] = wmma::__float_to_tf32(b.x[e]);
            }
            if constexpr (Sat)
                wmma::mma_sync(acc, a, b, acc, true);
            else
                wmma::mma_sync(acc, a, b, acc);
        }
        for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = fixup(acc.x[e], alpha, e);
        wmma::store_matrix_sync(D + at(ld, i, j, M, N), acc, lead(ld, M, N), ld);
    }
}

// f16 x f16 with an f16 accumulator, m16n16k16; C row-major, D column-major.
extern "C" __global__ void wmma_f16_f16acc(const __half *A, const __half *B, const __half *C, __half *D, int M,
                                           int N, int K, float alpha)
{
    gemm<16, 16, 16, __half, __half, wmma::row_major, wmma::col_major>(A, B, C, D, M, N, K, wmma::mem_row_major,
                                                                       wmma::mem_col_major, __float2half(alpha));
}

// bf16 x bf16 with an f32 accumulator, m8n32k16; A and B row-major, C column-major.
extern "C" __global__ void wmma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *C, float *D,
                                     int M, int N, int K, float alpha)
{
    gemm<8, 32, 16, __nv_bfloat16, float, wmma::row_major, wmma::row_major>(A, B, C, D, M, N, K,
                                                                            wmma::mem_col_major,
                                                                            wmma::mem_row_major, alpha);
}

// tf32 x tf32 (f32 data rounded with __float_to_tf32), f32 accumulator, m16n16k8; A col, B row.
extern "C" __global__ void wmma_tf32(const float *A, const float *B, const float *C, float *D, int M, int N, int K,
                                     float alpha)
{
    gemm<16, 16, 8, float, float, wmma::col_major, wmma::row_major, wmma::precision::tf32>(
        A, B, C, D, M, N, K, wmma::mem_row_major, wmma::mem_row_major, alpha);
}

// s8 x s8 -> s32, m16n16k16, saturating (.satfinite); A row, B col.
extern "C" __global__ void wmma_s8(const signed char *A, const signed char *B, const int *C, int *D, int M, int N,
                                   int K, int alpha)
{
    gemm<16, 16, 16, signed char, int, wmma::row_major, wmma::col_major, signed char, true>(
        A, B, C, D, M, N, K, wmma::mem_row_major, wmma::mem_row_major, alpha);
}

// u8 x u8 -> s32, m32n8k16 (wrapping); A col, B row, D column-major.
extern "C" __global__ void wmma_u8(const unsigned char *A, const unsigned char *B, const int *C, int *D, int M,
                                   int N, int K, int alpha)
{
    gemm<32, 8, 16, unsigned char, int, wmma::col_major, wmma::row_major>(A, B, C, D, M, N, K, wmma::mem_row_major,
                                                                           wmma::mem_col_major, alpha);
}

// f64 m8n8k4; A col, B row, C and D row-major.
extern "C" __global__ void wmma_f64(const double *A, const double *B, const double *C, double *D, int M, int N,
                                    int K, double alpha)
{
    gemm<8, 8, 4, double, double, wmma::col_major, wmma::row_major>(A, B, C, D, M, N, K, wmma::mem_row_major,
                                                                    wmma::mem_row_major, alpha);
}

// f16 x f16 with an f32 accumulator, m32n8k16, from shared memory: each block of 4 warps stages
// a 32 x K panel of A and a K x 32 panel of B, both column-major (B transposed on the way:
// every fragment then starts 32-byte aligned, as wmma.load requires, PTX §9.7.14.4.2), and
// computes a 32x32 tile of D (row-major), warp w its columns 8w..8w+7. K <= 64.
extern "C" __global__ void wmma_f16_f32acc_shared(const __half *A, const __half *B, const float *C, float *D,
                                                  int M, int N, int K, float alpha)
{
    __shared__ __align__(32) __half As[64 * 32], Bs[64 * 32];
    __shared__ __align__(32) float Cs[32 * 32];
    int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32, w = threadIdx.x / 32;
    for (int e = threadIdx.x; e < 32 * K; e += blockDim.x) {
        As[e] = A[(e / 32) * M + i0 + e % 32];   // A is column-major M x K
        Bs[e % 32 * 64 + e / 32] = B[(e / 32) * N + j0 + e % 32];   // B is row-major K x N
    }
    for (int e = threadIdx.x; e < 32 * 32; e += blockDim.x) Cs[e] = C[(i0 + e / 32) * N + j0 + e % 32];
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
    wmma::load_matrix_sync(acc, Cs + 8 * w, 32, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, As + k * 32, 32);
        wmma::load_matrix_sync(b, Bs + 8 * w * 64 + k, 64);
        wmma::mma_sync(acc, a, b, acc);
    }
    for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = fixup(acc.x[e], alpha, e);
    __syncthreads();
    wmma::store_matrix_sync(Cs + 8 * w, acc, 32, wmma::mem_row_major);
    __syncthreads();
    for (int e = threadIdx.x; e < 32 * 32; e += blockDim.x) D[(i0 + e / 32) * N + j0 + e % 32] = Cs[e];
}

// 4-bit integers, m8n8k32: A row-major M x K and B column-major (N x K, K contiguous), eight
// elements a 32-bit word; s32 accumulator. Element offsets halve to byte offsets.
template <typename P>
__device__ void gemm_int4(const unsigned *A, const unsigned *B, const int *C, int *D, int M, int N, int K, int alpha)
{
    const char *a8 = reinterpret_cast<const char *>(A), *b8 = reinterpret_cast<const char *>(B);
    for (int t = warp_id(); t < (M / 8) * (N / 8); t += warp_count()) {
        int i = t / (N / 8) * 8, j = t % (N / 8) * 8;
        wmma::fragment<wmma::matrix_a, 8, 8, 32, P, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 8, 8, 32, P, wmma::col_major> b;
        wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
        wmma::load_matrix_sync(acc, C + i * N + j, N, wmma::mem_row_major);
        for (int k = 0; k < K; k += 32) {
            wmma::load_matrix_sync(a, a8 + (i * K + k) / 2, K);
            wmma::load_matrix_sync(b, b8 + (j * K + k) / 2, K);
            wmma::mma_sync(acc, a, b, acc);
        }
        for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = fixup(acc.x[e], alpha, e);
        wmma::store_matrix_sync(D + i * N + j, acc, N, wmma::mem_row_major);
    }
}

extern "C" __global__ void wmma_s4(const unsigned *A, const unsigned *B, const int *C, int *D, int M, int N, int K,
                                   int alpha)
{
    gemm_int4<wx::precision::s4>(A, B, C, D, M, N, K, alpha);
}

extern "C" __global__ void wmma_u4(const unsigned *A, const unsigned *B, const int *C, int *D, int M, int N, int K,
                                   int alpha)
{
    gemm_int4<wx::precision::u4>(A, B, C, D, M, N, K, alpha);
}

// Single-bit m8n8k128 (bmma_sync): D = C + popc(A op B) over k; A row-major, B column-major,
// 32 elements a word; the result is stored column-major.
template <wx::bmmaBitOp Op>
__device__ void gemm_b1(const unsigned *A, const unsigned *B, const int *C, int *D, int M, int N, int K, int alpha)
{
    const char *a8 = reinterpret_cast<const char *>(A), *b8 = reinterpret_cast<const char *>(B);
    for (int t = warp_id(); t < (M / 8) * (N / 8); t += warp_count()) {
        int i = t / (N / 8) * 8, j = t % (N / 8) * 8;
        wmma::fragment<wmma::matrix_a, 8, 8, 128, wx::precision::b1, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 8, 8, 128, wx::precision::b1, wmma::col_major> b;
        wmma::fragment<wmma::accumulator, 8, 8, 128, int> acc;
        wmma::load_matrix_sync(acc, C + i * N + j, N, wmma::mem_row_major);
        for (int k = 0; k < K; k += 128) {
            wmma::load_matrix_sync(a, a8 + (i * K + k) / 8, K);
            wmma::load_matrix_sync(b, b8 + (j * K + k) / 8, K);
            wmma::bmma_sync(acc, a, b, acc, Op, wx::bmmaAccumulateOpPOPC);
        }
        for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = fixup(acc.x[e], alpha, e);
        wmma::store_matrix_sync(D + j * M + i, acc, M, wmma::mem_col_major);
    }
}

extern "C" __global__ void wmma_b1_xor(const unsigned *A, const unsigned *B, const int *C, int *D, int M, int N,
                                       int K, int alpha)
{
    gemm_b1<wx::bmmaBitOpXOR>(A, B, C, D, M, N, K, alpha);
}

extern "C" __global__ void wmma_b1_and(const unsigned *A, const unsigned *B, const int *C, int *D, int M, int N,
                                       int K, int alpha)
{
    gemm_b1<wx::bmmaBitOpAND>(A, B, C, D, M, N, K, alpha);
}
