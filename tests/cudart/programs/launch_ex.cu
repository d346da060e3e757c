// cudaLaunchKernelEx: a cluster shape given at launch (no __cluster_dims__), read back through
// the cluster's special registers.
#include <cooperative_groups.h>
#include <vector>
#include "check.h"

namespace cg = cooperative_groups;

__global__ void where(int* out, int bias) {
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) out[blockIdx.x] = int(cluster.num_blocks()) * 100 + int(cluster.block_rank()) + bias;
}

int main() {
  const int blocks = 6;
  int* out;
  CHECK(cudaMalloc(&out, blocks * 4));
  cudaLaunchConfig_t config = {};
  config.gridDim = blocks;
  config.blockDim = 32;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 2;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, where, out, 7));
  std::vector<int> got(blocks);
  CHECK(cudaMemcpy(got.data(), out, blocks * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) EXPECT(got[b] == 200 + b % 2 + 7);
  return pass();
}
