// Occupancy and function attributes: blocks per SM for a kernel's block size and shared memory,
// its registers, shared memory and maximum block.
#include "check.h"

__global__ void __launch_bounds__(256) busy(float* x) {
  __shared__ float tile[2048];
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[255 - threadIdx.x];
}

int main() {
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, busy));
  EXPECT(a.sharedSizeBytes == 2048 * sizeof(float));
  EXPECT(a.maxThreadsPerBlock == 256);
  EXPECT(a.ptxVersion >= 90);
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, busy, 256, 0));
  EXPECT(blocks >= 1 && blocks <= 8);
  int fewer = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fewer, busy, 256, 32 * 1024));
  EXPECT(fewer < blocks && fewer >= 1);
  std::printf("%d blocks of 256 per SM, %d with 32 KiB more shared memory\n", blocks, fewer);
  return pass();
}
