// A 64-bin histogram: atomics on shared memory per block, then on global memory.
#include <vector>
#include "check.h"

__global__ void histogram(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[64];
  if (threadIdx.x < 64) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i] % 64], 1u);
  __syncthreads();
  if (threadIdx.x < 64) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 100000;
  std::vector<unsigned char> data(n);
  std::vector<unsigned> want(64), got(64);
  for (int i = 0; i < n; ++i) data[i] = (unsigned char)((i * 2654435761u) >> 24), ++want[data[i] % 64];
  unsigned char* ddata;
  unsigned* dbins;
  CHECK(cudaMalloc(&ddata, n));
  CHECK(cudaMalloc(&dbins, 64 * 4));
  CHECK(cudaMemcpy(ddata, data.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dbins, 0, 64 * 4));
  histogram<<<32, 256>>>(ddata, n, dbins);
  CHECK(cudaMemcpy(got.data(), dbins, 64 * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 64; ++b) EXPECT(got[b] == want[b]);
  return pass();
}
