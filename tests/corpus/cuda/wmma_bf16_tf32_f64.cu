// WMMA with the sm_80 precisions: bf16 (m16n16k16, m32n8k16, m8n32k16),
// tf32 (m16n16k8, __float_to_tf32 rounding) and double (m8n8k4).
// corpus-min: sm_80
// corpus-archs: auto:4
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <int M, int N, int K>
__global__ void wmma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c)
{
    wmma::fragment<wmma::matrix_a, M, N, K, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, float> fc;
    wmma::fill_fragment(fc, 0.f);
    wmma::load_matrix_sync(fa, a, K);
    wmma::load_matrix_sync(fb, b, K);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, N, wmma::mem_row_major);
}
template __global__ void wmma_bf16<16, 16, 16>(const __nv_bfloat16 *, const __nv_bfloat16 *, float *);
template __global__ void wmma_bf16<32, 8, 16>(const __nv_bfloat16 *, const __nv_bfloat16 *, float *);
template __global__ void wmma_bf16<8, 32, 16>(const __nv_bfloat16 *, const __nv_bfloat16 *, float *);

__global__ void wmma_tf32(const float *a, const float *b, float *c, int K)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.f);
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(fa, a + k, K);
        wmma::load_matrix_sync(fb, b + (size_t)k * 16, 16);
        for (int t = 0; t < fa.num_elements; ++t) fa.x[t] = wmma::__float_to_tf32(fa.x[t]);
        for (int t = 0; t < fb.num_elements; ++t) fb.x[t] = wmma::__float_to_tf32(fb.x[t]);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_col_major);
}

__global__ void wmma_f64(const double *a, const double *b, const double *c, double *d, int K)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    for (int k = 0; k < K; k += 4) {
        wmma::load_matrix_sync(fa, a + k, K);
        wmma::load_matrix_sync(fb, b + k, K);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}
