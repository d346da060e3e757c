// One translation unit with several kernels, each with its own static shared memory, launched
// in turn on the same data (each kernel's shared memory is its own).
#include <vector>
#include "check.h"

__global__ void shift(int* x) {
  __shared__ int s[128];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = s[(threadIdx.x + 1) % 128];
}

__global__ void blocksum(int* x, int* total) {
  __shared__ long long wide[128];
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  wide[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  atomicAdd(&count, 1);
  for (int s = 64; s > 0; s /= 2) {
    if (threadIdx.x < s) wide[threadIdx.x] += wide[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) total[0] = int(wide[0]) + count;
}

__global__ void negate(int* x) { x[threadIdx.x] = -x[threadIdx.x]; }

int main() {
  std::vector<int> h(128);
  for (int i = 0; i < 128; ++i) h[i] = i * i;
  int *x, *total;
  CHECK(cudaMalloc(&x, 128 * 4));
  CHECK(cudaMalloc(&total, 4));
  CHECK(cudaMemcpy(x, h.data(), 128 * 4, cudaMemcpyHostToDevice));
  shift<<<1, 128>>>(x);
  negate<<<1, 128>>>(x);
  blocksum<<<1, 128>>>(x, total);
  std::vector<int> got(128);
  int t = 0;
  CHECK(cudaMemcpy(got.data(), x, 128 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&t, total, 4, cudaMemcpyDeviceToHost));
  long long want = 0;
  for (int i = 0; i < 128; ++i) {
    EXPECT(got[i] == -h[(i + 1) % 128]);
    want += got[i];
  }
  EXPECT(t == int(want) + 128);
  return pass();
}
