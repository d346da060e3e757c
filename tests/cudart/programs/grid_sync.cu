// A cooperative launch: every block of the grid meets at grid.sync(), twice, so that each phase
// reads what all blocks wrote in the one before.
#include <cooperative_groups.h>
#include <vector>
#include "check.h"

namespace cg = cooperative_groups;

__global__ void phases(int* a, int* b, int n) {
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank();
  a[i] = i;
  grid.sync();
  b[i] = a[(i + 1) % n] + a[(i + n - 1) % n];
  grid.sync();
  a[i] = b[(i + 7) % n];
}

int main() {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
  EXPECT(supported);
  const int blocks = 8, threads = 128, n = blocks * threads;
  int *a, *b;
  CHECK(cudaMalloc(&a, n * 4));
  CHECK(cudaMalloc(&b, n * 4));
  void* args[] = {&a, &b, (void*)&n};
  CHECK(cudaLaunchCooperativeKernel((void*)phases, blocks, threads, args, 0, 0));
  std::vector<int> got(n);
  CHECK(cudaMemcpy(got.data(), a, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const int j = (i + 7) % n;
    EXPECT(got[i] == (j + 1) % n + (j + n - 1) % n);
  }
  return pass();
}
