// Device printf: each thread of two blocks prints one line (the test looks for them).
#include "check.h"

__global__ void hello(int tag) { printf("block %d thread %d tag %d value %.2f\n", blockIdx.x, threadIdx.x, tag, threadIdx.x * 0.25); }

int main() {
  hello<<<2, 4>>>(42);
  CHECK(cudaDeviceSynchronize());
  return pass();
}
