// 128-bit unsigned integer helpers for exact floating-point arithmetic (ieee_arith.cpp): a product
// of two f64 significands, a quotient or root carried with sticky bits below the rounding point.
#pragma once

#include <bit>
#include <cstdint>

namespace ptxvm::numeric {

__extension__ typedef unsigned __int128 u128;  // GCC/Clang

// Index of the highest set bit of x (x != 0).
inline int msb(u128 x) {
  const uint64_t hi = static_cast<uint64_t>(x >> 64);
  return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(static_cast<uint64_t>(x));
}

// Shift right by n, OR-ing what falls off into bit 0 (a sticky bit far below any rounding point).
inline u128 shift_sticky(u128 x, int n) {
  if (n <= 0) return x;
  if (n >= 128) return x != 0;
  return (x >> n) | ((x & ((u128{1} << n) - 1)) != 0);
}

// floor(sqrt(n)) by the bitwise method.
inline u128 isqrt(u128 n) {
  u128 res = 0, bit = u128{1} << 126;
  while (bit > n) bit >>= 2;
  while (bit) {
    if (n >= res + bit) {
      n -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  return res;
}

}  // namespace ptxvm::numeric
