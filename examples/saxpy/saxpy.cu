// The example kernels: y = a*x + y, and a block sum with shared memory, warp shuffles and printf.
// PTX: nvcc -ptx -arch=sm_90 saxpy.cu -o saxpy.ptx
#include <cstdio>

extern "C" __global__ void saxpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (int w = 0; w < blockDim.x / 32; ++w) sum += partial[w];
    out[blockIdx.x] = sum;
    printf("block %d: sum %.3f\n", blockIdx.x, sum);
  }
}
