// Page-locked host memory: cudaHostAlloc with mapping, its device pointer written by a kernel;
// registered memory; zero-copy reads.
#include <vector>
#include "check.h"

__global__ void square(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

int main() {
  const int n = 2000;
  int* in;
  CHECK(cudaHostAlloc(&in, n * sizeof(int), cudaHostAllocMapped));
  std::vector<int> out(n);
  CHECK(cudaHostRegister(out.data(), n * sizeof(int), cudaHostRegisterMapped));
  for (int i = 0; i < n; ++i) in[i] = i - 1000;
  int *din, *dout;
  CHECK(cudaHostGetDevicePointer(&din, in, 0));
  CHECK(cudaHostGetDevicePointer(&dout, out.data(), 0));
  square<<<(n + 255) / 256, 256>>>(din, dout, n);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) EXPECT(out[i] == (i - 1000) * (i - 1000));
  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, in));
  EXPECT(a.type == cudaMemoryTypeHost);
  CHECK(cudaHostUnregister(out.data()));
  CHECK(cudaFreeHost(in));
  return pass();
}
