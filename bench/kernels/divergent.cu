// Divergent control flow: odd and even lanes take different loops, and each loop runs a
// data-dependent number of times (in[i] & 31), so the lanes of a warp split and re-converge.
extern "C" __global__ void divergent(unsigned* out, const unsigned* in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = in[i], k = v & 31, acc = v;
  if (i & 1) {
    for (unsigned t = 0; t < k; ++t) acc = acc * 1664525u + 1013904223u;
  } else {
    for (unsigned t = 0; t < k; ++t) acc = (acc ^ (acc >> 7)) + 0x9e3779b9u;
  }
  out[i] = acc;
}
