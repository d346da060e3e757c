// The two conversions half-precision kernels run most (Triton's fp16 loads and stores), written
// directly on the bits: cvt.f32.f16 and cvt.rn.f16.f32 (PTX §9.7.9.21, 001_23fdd5978b24a3ed.txt),
// with the bits cvt_float gives (tests/numeric: every f16, and f32 inputs at every rounding
// position) at a fraction of its decode/encode cost.
#pragma once

#include <bit>
#include <cstdint>

namespace ptxvm::numeric {

// cvt.f32.f16: exact; a NaN becomes f32's canonical NaN, as sm_90 writes it.
constexpr uint32_t f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16, exp = h >> 10 & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) return man ? 0x7fffffffu : sign | 0x7f800000u;
  if (exp) return sign | (exp + 112) << 23 | man << 13;
  if (!man) return sign;
  const int top = 31 - std::countl_zero(man);  // a subnormal: man * 2^-24 = 1.f * 2^(top - 24)
  return sign | uint32_t(top + 103) << 23 | (man << (23 - top) & 0x7fffff);
}

// cvt.rn.f16.f32: to nearest, ties to even; beyond the largest f16 to infinity; a NaN becomes
// f16's canonical NaN (0x7fff), as sm_90 writes it.
constexpr uint16_t f32_to_f16_rn(uint32_t f) {
  const uint16_t sign = f >> 16 & 0x8000;
  const uint32_t abs = f & 0x7fffffff;
  if (abs > 0x7f800000) return 0x7fff;
  if (abs >= 0x477ff000) return sign | 0x7c00;  // 65520 and up round to infinity
  if (abs >= 0x38800000) {                       // 2^-14 and up: a normal f16
    const uint32_t r = abs - (112u << 23);       // the exponent rebiased from 127 to 15
    return sign | uint16_t((r + 0xfff + (r >> 13 & 1)) >> 13);
  }
  if (abs < 0x33000000) return sign;  // below 2^-25: zero (2^-25 itself ties to even zero)
  const uint32_t m = (abs & 0x7fffff) | 0x800000;
  const int shift = 126 - int(abs >> 23);  // m * 2^(e - 150) in units of 2^-24, e >= 102
  const uint32_t q = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  return sign | uint16_t(q + (rest > half || (rest == half && (q & 1))));
}

}  // namespace ptxvm::numeric
