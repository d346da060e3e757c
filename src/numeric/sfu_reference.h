// The reference the special-function-unit delta tables are relative to (src/numeric/sfu/,
// recorded by tests/hw/sfu/record_sfu.cu): the f64 result converted to f32 rounding to nearest
// even. IEEE f64 division, square root and conversion are correctly rounded, so every host
// computes the same bits.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ptxvm::numeric {

enum class SfuFn { Rcp, Rsqrt, Sqrt };

inline uint32_t sfu_reference(SfuFn fn, uint32_t x_bits) {
  float x;
  std::memcpy(&x, &x_bits, 4);
  const double d = x;
  const double r = fn == SfuFn::Rcp ? 1.0 / d : fn == SfuFn::Rsqrt ? 1.0 / std::sqrt(d) : std::sqrt(d);
  const float f = static_cast<float>(r);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

}  // namespace ptxvm::numeric
