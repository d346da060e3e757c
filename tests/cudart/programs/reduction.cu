// Sum reduction: a shared-memory tree within each block, warp shuffles for the last 32, one
// atomicAdd per block.
#include <vector>
#include "check.h"

__global__ void sum(const int* in, unsigned long long* out, int n) {
  __shared__ int partial[256];
  int v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s >= 32; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    v = partial[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) atomicAdd(out, (unsigned long long)v);
  }
}

int main() {
  const int n = 1 << 18;
  std::vector<int> in(n);
  unsigned long long want = 0;
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 1001, want += in[i];
  int* din;
  unsigned long long* dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, sizeof *dout));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, sizeof *dout));
  sum<<<64, 256>>>(din, dout, n);
  unsigned long long got = 0;
  CHECK(cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == want);
  return pass();
}
