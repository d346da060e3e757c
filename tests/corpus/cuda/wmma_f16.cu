// WMMA (warp matrix multiply-accumulate) with half inputs: all three f16
// shapes, f16 and f32 accumulators, row/col-major fragments, a tiled GEMM
// with shared-memory staging, and element-wise fragment access.
// corpus-archs: auto:4
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

template <int M, int N, int K, typename Acc, typename ALayout, typename BLayout>
__global__ void wmma_single(const half *a, const half *b, const Acc *c, Acc *d, int lda, int ldb, int ldc)
{
    wmma::fragment<wmma::matrix_a, M, N, K, half, ALayout> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, half, BLayout> fb;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    for (int t = 0; t < fc.num_elements; ++t) fc.x[t] = fc.x[t] * Acc(2);
    wmma::store_matrix_sync(d, fc, ldc, wmma::mem_col_major);
}
template __global__ void wmma_single<16, 16, 16, float, wmma::row_major, wmma::col_major>(const half *, const half *, const float *, float *, int, int, int);
template __global__ void wmma_single<16, 16, 16, half, wmma::col_major, wmma::row_major>(const half *, const half *, const half *, half *, int, int, int);
template __global__ void wmma_single<32, 8, 16, float, wmma::row_major, wmma::row_major>(const half *, const half *, const float *, float *, int, int, int);
template __global__ void wmma_single<8, 32, 16, half, wmma::col_major, wmma::col_major>(const half *, const half *, const half *, half *, int, int, int);

// C = A * B with A row-major MxK, B col-major KxN; each warp computes a
// 16x16 tile, the block a 64x64 tile staged through shared memory.
__global__ void wmma_gemm(const half *A, const half *B, float *C, int M, int N, int K)
{
    __shared__ half As[64][16 + 8];
    __shared__ half Bs[64][16 + 8];
    int warp = threadIdx.x / 32;
    int wm = warp / 4, wn = warp % 4; // 16 warps -> 4x4 tiles
    int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int e = threadIdx.x; e < 64 * 16; e += blockDim.x) {
            int r = e / 16, k = e % 16;
            As[r][k] = (row0 + r < M && k0 + k < K) ? A[(size_t)(row0 + r) * K + k0 + k] : __float2half(0.f);
            Bs[r][k] = (col0 + r < N && k0 + k < K) ? B[(size_t)(col0 + r) * K + k0 + k] : __float2half(0.f);
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
        wmma::load_matrix_sync(fa, &As[wm * 16][0], 16 + 8);
        wmma::load_matrix_sync(fb, &Bs[wn * 16][0], 16 + 8);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncthreads();
    }
    int r = row0 + wm * 16, c = col0 + wn * 16;
    if (r < M && c < N) wmma::store_matrix_sync(C + (size_t)r * N + c, acc, N, wmma::mem_row_major);
}

// Fused bias + ReLU on the accumulator fragment before storing as half.
__global__ void wmma_bias_relu(const half *a, const half *b, const float *bias, half *out)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> hacc;
    wmma::fill_fragment(acc, bias[0]);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    for (int t = 0; t < acc.num_elements; ++t) hacc.x[t] = __float2half(fmaxf(acc.x[t], 0.f));
    wmma::store_matrix_sync(out, hacc, 16, wmma::mem_row_major);
}
