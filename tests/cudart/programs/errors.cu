// Errors as the runtime reports them: a launch with too many threads, an unknown symbol, and a
// kernel that writes out of bounds (an illegal address, sticky for the rest of the process).
#include <cstring>
#include "check.h"

__global__ void fine(int* x) { x[threadIdx.x] = 1; }
__global__ void wild(int* x) { x[1 << 28] = 1; }

int main() {
  int* x;
  CHECK(cudaMalloc(&x, 1024 * 4));
  fine<<<1, 2048>>>(x);
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue);  // as CUDA 13 on an H100 answers
  EXPECT(cudaPeekAtLastError() == cudaSuccess);
  EXPECT(std::strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") == 0);
  int host = 0;
  EXPECT(cudaMemcpyToSymbol(&host, &host, 4) == cudaErrorInvalidSymbol);
  EXPECT(cudaMemcpy(x, &host, 4, cudaMemcpyKind(7)) == cudaErrorInvalidMemcpyDirection);
  fine<<<1, 256>>>(x);
  CHECK(cudaDeviceSynchronize());
  wild<<<1, 1>>>(x);
  const cudaError_t e = cudaDeviceSynchronize();
  EXPECT(e == cudaErrorIllegalAddress);
  EXPECT(cudaMemcpy(&host, x, 4, cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress);
  std::printf("%s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  return pass();
}
