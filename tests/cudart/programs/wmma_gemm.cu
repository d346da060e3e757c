// A 32x32x32 GEMM with WMMA fragments (half inputs, float accumulators), one warp per 16x16 tile:
// small integers, so the products and sums are exact.
#include <cuda_fp16.h>
#include <mma.h>
#include <vector>
#include "check.h"

using namespace nvcuda;
constexpr int N = 32;

__global__ void gemm(const half* a, const half* b, float* c) {
  const int tile = threadIdx.x / 32, ti = tile / 2, tj = tile % 2;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < N; k += 16) {
    wmma::load_matrix_sync(fa, a + ti * 16 * N + k, N);
    wmma::load_matrix_sync(fb, b + tj * 16 * N + k, N);  // B column-major: column j at b + j * N
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + ti * 16 * N + tj * 16, acc, N, wmma::mem_row_major);
}

int main() {
  std::vector<half> a(N * N), b(N * N);
  std::vector<float> fa(N * N), fb(N * N), c(N * N);
  for (int i = 0; i < N * N; ++i) {
    fa[i] = float(i % 5 - 2), fb[i] = float(i % 3 - 1);
    a[i] = __float2half(fa[i]), b[i] = __float2half(fb[i]);
  }
  half *da, *db;
  float* dc;
  CHECK(cudaMalloc(&da, N * N * sizeof(half)));
  CHECK(cudaMalloc(&db, N * N * sizeof(half)));
  CHECK(cudaMalloc(&dc, N * N * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), N * N * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), N * N * sizeof(half), cudaMemcpyHostToDevice));
  gemm<<<1, 128>>>(da, db, dc);
  CHECK(cudaMemcpy(c.data(), dc, N * N * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float want = 0;
      for (int k = 0; k < N; ++k) want += fa[i * N + k] * fb[j * N + k];
      EXPECT(c[i * N + j] == want);
    }
  return pass();
}
