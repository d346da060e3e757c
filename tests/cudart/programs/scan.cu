// Inclusive prefix sum: each block scans its part in shared memory (Hillis-Steele), a second
// kernel adds the blocks' totals.
#include <vector>
#include "check.h"

constexpr int kBlock = 256;

__global__ void scan_blocks(const int* in, int* out, int* totals, int n) {
  __shared__ int buf[2][kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  int from = 0;
  buf[0][threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int d = 1; d < kBlock; d *= 2) {
    const int v = buf[from][threadIdx.x] + (threadIdx.x >= d ? buf[from][threadIdx.x - d] : 0);
    buf[1 - from][threadIdx.x] = v;
    from = 1 - from;
    __syncthreads();
  }
  if (i < n) out[i] = buf[from][threadIdx.x];
  if (threadIdx.x == kBlock - 1) totals[blockIdx.x] = buf[from][threadIdx.x];
}

__global__ void add_totals(int* out, const int* totals, int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  int before = 0;
  for (int b = 0; b < blockIdx.x; ++b) before += totals[b];
  if (i < n) out[i] += before;
}

int main() {
  const int n = 10000, blocks = (n + kBlock - 1) / kBlock;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 13) % 17 - 8;
  int *din, *dout, *dtotals;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMalloc(&dtotals, blocks * 4));
  CHECK(cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice));
  scan_blocks<<<blocks, kBlock>>>(din, dout, dtotals, n);
  add_totals<<<blocks, kBlock>>>(dout, dtotals, n);
  CHECK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  int running = 0;
  for (int i = 0; i < n; ++i) EXPECT(out[i] == (running += in[i]));
  return pass();
}
