// __constant__ and __device__ variables through the symbol API: copies to and from them,
// their addresses and sizes.
#include "check.h"

__constant__ float coefficients[8];
__device__ int results[8];
__device__ int calls;

__global__ void evaluate(float x) {
  const int i = threadIdx.x;
  float y = 0;
  for (int k = 7; k >= 0; --k) y = y * x + coefficients[k];
  results[i] = int(y) + i;
  if (i == 0) atomicAdd(&calls, 1);
}

int main() {
  const float c[8] = {1, 2, 0, 0, 0, 0, 0, 1};  // 1 + 2x + x^7
  CHECK(cudaMemcpyToSymbol(coefficients, c, sizeof c));
  const int zero = 0;
  CHECK(cudaMemcpyToSymbol(calls, &zero, sizeof zero));
  evaluate<<<1, 8>>>(2.0f);
  evaluate<<<1, 8>>>(2.0f);
  int r[8], n = 0;
  CHECK(cudaMemcpyFromSymbol(r, results, sizeof r));
  CHECK(cudaMemcpyFromSymbol(&n, calls, sizeof n));
  for (int i = 0; i < 8; ++i) EXPECT(r[i] == 1 + 4 + 128 + i);
  EXPECT(n == 2);
  void* address = nullptr;
  size_t size = 0;
  CHECK(cudaGetSymbolAddress(&address, results));
  CHECK(cudaGetSymbolSize(&size, results));
  EXPECT(address != nullptr && size == sizeof r);
  int r3 = 0;
  CHECK(cudaMemcpy(&r3, static_cast<int*>(address) + 3, 4, cudaMemcpyDeviceToHost));
  EXPECT(r3 == r[3]);
  CHECK(cudaMemcpyFromSymbol(&r3, results, 4, 5 * sizeof(int)));
  EXPECT(r3 == r[5]);
  EXPECT(cudaMemcpyToSymbol(coefficients, c, sizeof c + 4) == cudaErrorInvalidValue);
  return pass();
}
