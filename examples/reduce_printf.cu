#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int counter;
__constant__ float coeffs[4] = {1.0f, 2.5f, -3.0f, 0.125f};
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n-1) + fib(n-2); }
extern "C" __global__ void k(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float s[256];
  if (i < n) s[threadIdx.x] = in[i] * coeffs[i & 3];
  __syncthreads();
  float v = s[threadIdx.x ^ 1];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  if (i == 0) printf("hello %d %f\n", fib(n), v);
  atomicAdd(&counter, 1);
  auto g = cg::tiled_partition<8>(cg::this_thread_block());
  v += g.shfl_down(v, 1);
  if (i < n) out[i] = v;
}
