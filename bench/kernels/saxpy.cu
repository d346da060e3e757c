// y = a*x + y over n floats, one element per thread (bench/engine_bench.cpp: "saxpy").
extern "C" __global__ void saxpy(float* y, const float* x, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
