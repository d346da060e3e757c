// Inputs of the cvt hardware vectors, regenerated from a seed: shared, unchanged, by
// record_cvt.cu (which ran on the GPU) and the C++ test that replays them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw {

using ptxvm_hw_seed::splitmix64;

inline uint32_t f32_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline uint64_t f64_bits(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }

// Magnitudes where some conversion changes behaviour: rounding ties, format limits,
// integer limits, subnormal boundaries.
inline std::vector<double> edge_magnitudes() {
  std::vector<double> v = {0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3.5, 127, 127.5, 128, 128.5,
                           255, 255.5, 256, 32767, 32767.5, 32768, 32768.5, 65504, 65519,
                           65520, 65535, 65535.5, 65536, 448, 464, 480, 57344, 61440, 6, 7.5, 28,
                           3.3895313892515355e38, 3.4028234663852886e38, 1e300};
  for (int e : {-1074, -1022, -1000, -160, -150, -149, -148, -133, -127, -126, -125, -25, -24,
                -17, -16, -15, -14, -10, -9, -8, -7, -6, -4, -3, -2, 31, 32, 53, 63, 64, 127, 128,
                1023})
    v.push_back(std::ldexp(1.0, e));
  v.push_back(std::ldexp(1.5, -150));
  v.push_back(std::ldexp(0x1.fffffep0, 127) + std::ldexp(1.0, 103));  // FLT_MAX + ulp/2
  return v;
}

// Every edge magnitude, both signs, and its float neighbours; then NaN patterns.
inline std::vector<uint32_t> f32_edges() {
  std::vector<uint32_t> out;
  for (double m : edge_magnitudes())
    for (double s : {1.0, -1.0}) {
      float f = static_cast<float>(s * m);
      out.push_back(f32_bits(f));
      out.push_back(f32_bits(std::nextafter(f, 0.0f)));
      out.push_back(f32_bits(std::nextafter(f, s * INFINITY)));
    }
  for (uint32_t u : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fffffffu,
                     0xffffffffu, 0x7fa00000u, 0x00000001u, 0x807fffffu, 0x00800000u})
    out.push_back(u);
  return out;
}

inline std::vector<uint64_t> f64_edges() {
  std::vector<uint64_t> out;
  for (double m : edge_magnitudes())
    for (double s : {1.0, -1.0}) {
      double d = s * m;
      out.push_back(f64_bits(d));
      out.push_back(f64_bits(std::nextafter(d, 0.0)));
      out.push_back(f64_bits(std::nextafter(d, s * INFINITY)));
      out.push_back(f64_bits(static_cast<double>(static_cast<float>(d))));
    }
  for (uint64_t u : {0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                     0xfff8000000000000ull, 0x7ff0000000000001ull, 0x7fffffffffffffffull,
                     0xffffffffffffffffull, 0x0000000000000001ull})
    out.push_back(u);
  return out;
}

// Low-bit tails that sit on or next to a rounding tie for 13 (f16, tf32), 16 (bf16),
// 20 (e4m3) and 21 (e5m2) discarded f32 mantissa bits.
inline uint32_t f32_tail(uint64_t r) {
  static const uint32_t t[] = {0x0, 0x1000, 0x0fff, 0x1001, 0x8000, 0x7fff, 0x8001, 0x80000,
                               0x7ffff, 0x80001, 0x100000, 0xfffff, 0x100001, 0x1fff, 0xffff};
  return t[r % (sizeof t / sizeof t[0])];
}

// f32 inputs: edges, then n patterns from splitmix64(seed), a quarter each of: raw bits;
// exponents 2^-30..2^20 with random mantissa; the same with a tie tail; small exponents
// (2^-37..2^-7 and the f32 subnormal end).
inline std::vector<uint32_t> f32_inputs(uint64_t seed, size_t n) {
  std::vector<uint32_t> out = f32_edges();
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = splitmix64(s);
    const uint32_t raw = static_cast<uint32_t>(r >> 32);
    const uint32_t sign = raw & 0x80000000u, man = raw & 0x7fffffu;
    const uint32_t kind = r & 3, pick = static_cast<uint32_t>(r >> 2);
    uint32_t e = 97 + pick % 51;
    uint32_t m = man;
    if (kind == 2) m = (man & ~0x1fffffu) | f32_tail(pick >> 8);
    if (kind == 3) e = (pick & 256) ? 90 + pick % 31 : pick % 4;
    out.push_back(kind == 0 ? raw : sign | e << 23 | m);
  }
  return out;
}

// f64 inputs: edges, then n patterns: raw bits; exponents 2^-160..2^130 (the f32 range
// and beyond); the same with tails on f32/f16/bf16 ties (29, 42, 45 discarded bits);
// exponents 2^-30..2^66 (integer conversions).
inline std::vector<uint64_t> f64_inputs(uint64_t seed, size_t n) {
  std::vector<uint64_t> out = f64_edges();
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = splitmix64(s), r2 = splitmix64(s);
    const uint64_t sign = r2 & (1ull << 63), man = r2 & ((1ull << 52) - 1);
    const uint64_t kind = r & 3, pick = r >> 2;
    uint64_t e = 1023 - 160 + pick % 291, m = man;
    if (kind == 2) {
      static const int tie[] = {29, 42, 45};
      const int t = tie[pick % 3];
      const uint64_t low = (1ull << t) - 1, half = 1ull << (t - 1);
      const uint64_t tails[] = {half, half - 1, half + 1, 0, low};
      m = (man & ~low) | tails[(pick >> 4) % 5];
    }
    if (kind == 3) e = 1023 - 30 + pick % 97;
    out.push_back(kind == 0 ? r2 : sign | e << 52 | m);
  }
  return out;
}

// 64-bit integer inputs (the low 32 bits serve 32-bit sources): small values, values near
// powers of two, values whose low bits sit on f32/f64 rounding ties, raw bits.
inline std::vector<uint64_t> int_inputs(uint64_t seed, size_t n) {
  std::vector<uint64_t> out;
  for (int k = 0; k < 64; ++k)
    for (int64_t d : {-1, 0, 1}) {
      out.push_back((1ull << k) + d);
      out.push_back(0 - ((1ull << k) + d));
      out.push_back(((1ull << k) + d) & 0xffffffffu);
    }
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = splitmix64(s), r2 = splitmix64(s);
    const uint64_t kind = r & 3, k = (r >> 2) % 64, neg = (r >> 8) & 1;
    uint64_t v = r2;
    if (kind == 1) v = r2 & 0xfff;
    if (kind == 2) v = (1ull << k) + (r2 & 0xff) - 0x80;
    if (kind == 3 && k > 1) v = (r2 & ~((1ull << (k - 1)) - 1)) | (1ull << (k - 2));
    out.push_back(neg ? 0 - v : v);
  }
  return out;
}

// 16-bit sources are exhaustive: 0..65535. Packed 32-bit sources take pattern i in the
// high half and a permutation of it in the low half, so both halves see every pattern.
inline uint32_t pair16(uint32_t i) { return i << 16 | ((i * 40503u + 12345u) & 0xffffu); }

}  // namespace ptxvm_hw
