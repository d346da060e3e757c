// Element encodings of small integers for the warp-level matrix tests (mma_test.cpp,
// wmma_test.cpp): every sum of such inputs is exact in any arithmetic model.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>

namespace ptxvm::test {

enum class T { F16, BF16, TF32, F32, F64, E4M3, E5M2, E3M2, E2M3, E2M1, S8, U8, S4, U4, B1, S32 };

inline int width(T t) {
  switch (t) {
  case T::F16:
  case T::BF16:
    return 16;
  case T::TF32:
  case T::F32:
  case T::S32:
    return 32;
  case T::F64:
    return 64;
  case T::S4:
  case T::U4:
    return 4;
  case T::B1:
    return 1;
  default:
    return 8;
  }
}

// Bits of the integer v (|v| small) in a float format with `man` mantissa bits, `bias`, sign at
// bit `sign`.
inline uint64_t float_bits(int v, int man, int bias, int sign) {
  if (v == 0) return 0;
  uint64_t a = static_cast<uint64_t>(std::abs(v));
  int e = 63 - std::countl_zero(a);
  uint64_t m = (a << man >> e) & ((uint64_t{1} << man) - 1);
  return (v < 0 ? uint64_t{1} << sign : 0) | static_cast<uint64_t>(e + bias) << man | m;
}
inline uint64_t encode(T t, int v) {
  switch (t) {
  case T::F16:
    return float_bits(v, 10, 15, 15);
  case T::BF16:
    return float_bits(v, 7, 127, 15);
  case T::TF32:
  case T::F32:
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  case T::F64:
    return std::bit_cast<uint64_t>(static_cast<double>(v));
  case T::E4M3:
    return float_bits(v, 3, 7, 7);
  case T::E5M2:
    return float_bits(v, 2, 15, 7);
  case T::E3M2:
    return float_bits(v, 2, 3, 5);
  case T::E2M3:
    return float_bits(v, 3, 1, 5);
  case T::E2M1:
    return float_bits(v, 1, 1, 3) << 2; // bits 5..2 of the 8-bit container
  case T::S4:
  case T::U4:
    return static_cast<uint64_t>(v) & 0xf;
  case T::B1:
    return static_cast<uint64_t>(v) & 1;
  case T::S8:
  case T::U8:
    return static_cast<uint64_t>(v) & 0xff;
  default:
    return static_cast<uint32_t>(v);
  }
}
// Value range of random inputs.
inline std::pair<int, int> range(T t) {
  switch (t) {
  case T::S8:
    return {-128, 127};
  case T::U8:
    return {0, 255};
  case T::S4:
    return {-8, 7};
  case T::U4:
    return {0, 15};
  case T::B1:
    return {0, 1};
  case T::S32:
    return {-1000, 1000};
  default:
    return {-2, 2};
  }
}

} // namespace ptxvm::test
