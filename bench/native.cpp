#include "native.h"

#include <algorithm>

namespace bench::native {

void saxpy(float* y, const float* x, float a, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

void transpose(float* out, const float* in, uint32_t width, uint32_t height) {
  // As bench/kernels/transpose.cu does through shared memory: read a 32x32 tile row by row into a
  // local buffer, write it out row by row transposed, so that both matrices are walked contiguously.
  constexpr uint32_t kTile = 32;
  float tile[kTile][kTile + 1];
  for (uint32_t y0 = 0; y0 < height; y0 += kTile)
    for (uint32_t x0 = 0; x0 < width; x0 += kTile) {
      uint32_t rows = std::min(kTile, height - y0), cols = std::min(kTile, width - x0);
      for (uint32_t y = 0; y < rows; ++y)
        for (uint32_t x = 0; x < cols; ++x) tile[y][x] = in[(y0 + y) * width + x0 + x];
      for (uint32_t x = 0; x < cols; ++x)
        for (uint32_t y = 0; y < rows; ++y) out[(x0 + x) * height + y0 + y] = tile[y][x];
    }
}

void divergent(uint32_t* out, const uint32_t* in, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = in[i], k = v & 31, acc = v;
    if (i & 1) {
      for (uint32_t t = 0; t < k; ++t) acc = acc * 1664525u + 1013904223u;
    } else {
      for (uint32_t t = 0; t < k; ++t) acc = (acc ^ (acc >> 7)) + 0x9e3779b9u;
    }
    out[i] = acc;
  }
}

void histogram(uint32_t* bins, const uint32_t* in, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) ++bins[in[i] & 255];
}

void warp_reduce(float* out, const float* in, uint32_t n) {
  for (uint32_t base = 0; base < n; base += 32) {
    float v[32];
    std::copy(in + base, in + base + 32, v);
    for (uint32_t offset = 16; offset > 0; offset >>= 1)
      for (uint32_t lane = 0; lane < offset; ++lane) v[lane] += v[lane + offset];
    out[base / 32] = v[0];
  }
}

void matmul(float* c, const float* a, const float* b, uint32_t m, uint32_t n, uint32_t k) {
  constexpr uint32_t kBlock = 64;
  std::fill(c, c + size_t{m} * n, 0.0f);
  for (uint32_t i0 = 0; i0 < m; i0 += kBlock)
    for (uint32_t p0 = 0; p0 < k; p0 += kBlock)
      for (uint32_t j0 = 0; j0 < n; j0 += kBlock)
        for (uint32_t i = i0; i < std::min(i0 + kBlock, m); ++i)
          for (uint32_t p = p0; p < std::min(p0 + kBlock, k); ++p) {
            float av = a[size_t{i} * k + p];
            const float* brow = b + size_t{p} * n;
            float* crow = c + size_t{i} * n;
            for (uint32_t j = j0; j < std::min(j0 + kBlock, n); ++j) crow[j] += av * brow[j];
          }
}

}  // namespace bench::native
