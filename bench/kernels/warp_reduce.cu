// Sum of each aligned group of 32 floats by a shfl.down butterfly; lane 0 writes the warp's sum.
extern "C" __global__ void warp_reduce(float* out, const float* in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0 && i < n) out[i / 32] = v;
}
