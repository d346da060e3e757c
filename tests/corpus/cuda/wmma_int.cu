// Integer WMMA: s8/u8 (m16n16k16, m32n8k16, m8n32k16) with s32 accumulators,
// and the experimental sub-byte precisions s4/u4 (m8n8k32) and b1
// (m8n8k128, XOR-popc on sm_75+, AND-popc on sm_80+).
// corpus-archs: auto:5
#include <mma.h>
using namespace nvcuda;

template <typename T, int M, int N, int K>
__global__ void wmma_i8(const T *a, const T *b, int *c)
{
    wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, K);
    wmma::load_matrix_sync(fb, b, K);
    wmma::mma_sync(fc, fa, fb, fc, true); // saturate
    wmma::store_matrix_sync(c, fc, N, wmma::mem_row_major);
}
template __global__ void wmma_i8<signed char, 16, 16, 16>(const signed char *, const signed char *, int *);
template __global__ void wmma_i8<unsigned char, 16, 16, 16>(const unsigned char *, const unsigned char *, int *);
template __global__ void wmma_i8<signed char, 32, 8, 16>(const signed char *, const signed char *, int *);
template __global__ void wmma_i8<unsigned char, 8, 32, 16>(const unsigned char *, const unsigned char *, int *);

__global__ void wmma_s4(const void *a, const void *b, int *c)
{
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 32);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}

__global__ void wmma_u4(const void *a, const void *b, int *c)
{
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::u4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::u4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 32);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 8, wmma::mem_col_major);
}

__global__ void wmma_b1(const unsigned *a, const unsigned *b, int *c_xor, int *c_and)
{
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::load_matrix_sync(fa, a, 128);
    wmma::load_matrix_sync(fb, b, 128);
    wmma::fill_fragment(fc, 0);
    wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
    wmma::store_matrix_sync(c_xor, fc, 8, wmma::mem_row_major);
#if __CUDA_ARCH__ >= 800
    wmma::fill_fragment(fc, 0);
    wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpAND, bmmaAccumulateOpPOPC);
    wmma::store_matrix_sync(c_and, fc, 8, wmma::mem_row_major);
#endif
}
