// Dynamic shared memory: an extern array sized at launch, above 48 KiB after opting in with
// cudaFuncSetAttribute.
#include <vector>
#include "check.h"

__global__ void reverse(const int* in, int* out, int n) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = buf[n - 1 - i];
}

int main() {
  const int n = 24 * 1024;  // 96 KiB of ints
  const size_t bytes = n * sizeof(int);
  EXPECT(cudaFuncSetAttribute(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)) == cudaSuccess);
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, reverse));
  EXPECT(attr.maxDynamicSharedSizeBytes == int(bytes));
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i * 3;
  int *din, *dout;
  CHECK(cudaMalloc(&din, bytes));
  CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMemcpy(din, in.data(), bytes, cudaMemcpyHostToDevice));
  reverse<<<1, 256, bytes>>>(din, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(out[i] == in[n - 1 - i]);
  return pass();
}
