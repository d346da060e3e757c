// 256-bin histogram of the low byte of each input word, by global atomicAdd.
extern "C" __global__ void histogram(unsigned* bins, const unsigned* in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] & 255], 1u);
}
