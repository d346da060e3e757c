// Unified memory: cudaMallocManaged memory touched by host and device alike, and a __managed__
// variable.
#include "check.h"

__managed__ int counter = 5;

__global__ void fill(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2 + 1;
  if (i == 0) atomicAdd(&counter, n);
}

int main() {
  const int n = 1000;
  int* x;
  CHECK(cudaMallocManaged(&x, n * sizeof(int)));
  for (int i = 0; i < n; ++i) x[i] = i;
  EXPECT(counter == 5);
  cudaMemLocation device{cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemPrefetchAsync(x, n * sizeof(int), device, 0, 0));
  fill<<<(n + 127) / 128, 128>>>(x, n);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) EXPECT(x[i] == 2 * i + 1);
  EXPECT(counter == 5 + n);
  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, x));
  EXPECT(a.type == cudaMemoryTypeManaged);
  CHECK(cudaFree(x));
  return pass();
}
