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

// The f64 forms (rcp/rsqrt.approx.ftz.f64) read the upper word of x only: the f64 result for that
// upper word (lower word zero), truncated to its upper word (lower word zero).
inline uint64_t sfu_reference64(SfuFn fn, uint64_t x_bits) {
  double x;
  const uint64_t upper = x_bits & 0xffffffff00000000ull;
  std::memcpy(&x, &upper, 8);
  const double r = fn == SfuFn::Rcp ? 1.0 / x : 1.0 / std::sqrt(x);
  uint64_t bits;
  std::memcpy(&bits, &r, 8);
  return bits & 0xffffffff00000000ull;
}

}  // namespace ptxvm::numeric
