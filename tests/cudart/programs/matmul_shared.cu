// Tiled matrix product through shared memory (the CUDA samples' matrixMul): integers held exactly
// in float, so the result is exact.
#include <vector>
#include "check.h"

constexpr int kTile = 16;

__global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[kTile][kTile], tb[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < n / kTile; ++t) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t * kTile + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main() {
  const int n = 64;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 7 - 3), b[i] = float(i % 5 - 2);
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, a.size() * 4));
  CHECK(cudaMalloc(&db, b.size() * 4));
  CHECK(cudaMalloc(&dc, c.size() * 4));
  CHECK(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  matmul<<<dim3(n / kTile, n / kTile), dim3(kTile, kTile)>>>(da, db, dc, n);
  CHECK(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0;
      for (int k = 0; k < n; ++k) want += a[i * n + k] * b[k * n + j];
      EXPECT(c[i * n + j] == want);
    }
  return pass();
}
