// A thread block cluster (sm_90): __cluster_dims__, the cluster barrier, and each block reading
// its neighbour's shared memory (distributed shared memory).
#include <cooperative_groups.h>
#include <vector>
#include "check.h"

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) neighbours(int* out) {
  __shared__ int mine[64];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  mine[threadIdx.x] = int(rank * 100 + threadIdx.x);
  cluster.sync();
  const int* next = cluster.map_shared_rank(mine, (rank + 1) % cluster.num_blocks());
  out[blockIdx.x * 64 + threadIdx.x] = next[threadIdx.x] + int(cluster.num_blocks()) * 1000;
  cluster.sync();  // the neighbour's shared memory stays until every block has read it
}

int main() {
  const int blocks = 8;
  int* out;
  CHECK(cudaMalloc(&out, blocks * 64 * 4));
  neighbours<<<blocks, 64>>>(out);
  CHECK(cudaGetLastError());
  std::vector<int> got(blocks * 64);
  CHECK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 64; ++t) EXPECT(got[b * 64 + t] == int(((b % 4 + 1) % 4) * 100 + t) + 4000);
  return pass();
}
