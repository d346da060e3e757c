// The benchmark kernels' algorithms in plain C++, one host thread: the yardstick each emulated
// kernel is compared with. Compiled -O2 (bench/CMakeLists.txt) in their own translation unit.
#pragma once

#include <cstdint>

namespace bench::native {

// y = a*x + y.
void saxpy(float* y, const float* x, float a, uint32_t n);

// out = transpose of in, a row-major matrix of `height` rows and `width` columns; by 32x32 tiles
// staged in a local buffer (the shared-memory tile of the kernel).
void transpose(float* out, const float* in, uint32_t width, uint32_t height);

// bench/kernels/divergent.cu for every i < n.
void divergent(uint32_t* out, const uint32_t* in, uint32_t n);

// bins[in[i] & 255] += 1 for every i < n.
void histogram(uint32_t* bins, const uint32_t* in, uint32_t n);

// out[j] = sum of in[32j .. 32j+31], added in the order of a shfl.down butterfly (offsets 16..1).
void warp_reduce(float* out, const float* in, uint32_t n);

// c (m x n) = a (m x k) * b (k x n), fp32, all row-major, cache-blocked.
void matmul(float* c, const float* a, const float* b, uint32_t m, uint32_t n, uint32_t k);

}  // namespace bench::native
