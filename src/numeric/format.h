// Floating-point formats as data: one descriptor per PTX type, read by the one
// generic codec (decode.h / encode.h).
// PTX §5.2.1 (basic types), §5.2.3 (alternate formats) in 001_23fdd5978b24a3ed.txt.
#pragma once

#include <cstdint>

namespace ptxvm::numeric {

// How a format spends its all-ones exponent field.
enum class Specials : uint8_t {
  Ieee,          // exponent all ones: Inf (mantissa 0) or NaN (f64, f32, tf32, f16, bf16, e5m2)
  NanAllOnes,    // no Inf; only S.1111.111 is NaN (e4m3: 0x7f/0xff; ue4m3: 0x7f)
  NanMaxExp,     // no Inf, no mantissa; exponent all ones is NaN (ue8m0: 0xff)
  None,          // no Inf, no NaN: every code is finite (e2m1, e2m3, e3m2)
};

struct Format {
  uint8_t exp_bits;
  uint8_t man_bits;
  int16_t bias;
  bool is_signed;
  bool has_subnormals;  // false: exponent field 0 is the normal value 2^-bias (ue8m0, no zero)
  Specials specials;
  uint8_t pad_bits;     // low zero bits of the container (tf32 lives in the top 19 bits of a .b32)
  uint64_t nan_bits;    // canonical NaN this implementation writes (container bits)

  constexpr int width() const { return exp_bits + man_bits + (is_signed ? 1 : 0); }
  constexpr uint64_t sign_bit() const {
    return is_signed ? uint64_t{1} << (exp_bits + man_bits) : 0;
  }
  // Largest finite magnitude as a code (sign and padding excluded).
  constexpr uint64_t max_code() const {
    const uint64_t all = (uint64_t{1} << (exp_bits + man_bits)) - 1;
    switch (specials) {
      case Specials::Ieee: return all - (uint64_t{1} << man_bits);
      case Specials::NanAllOnes:
      case Specials::NanMaxExp: return all - 1;
      case Specials::None: return all;
    }
    return all;
  }
  // Smallest exponent of a unit in the last place (the quantum of subnormals).
  constexpr int min_quantum() const {
    return (has_subnormals ? 1 - bias : -bias) - man_bits;
  }
  constexpr bool operator==(const Format&) const = default;
};

// nan_bits: the canonical NaN sm_90 writes (tests/hw/cvt); e2m3/e3m2/e2m1 have none,
// ue4m3 has no cvt (only the ISA's single NaN code).
inline constexpr Format kF64{11, 52, 1023, true, true, Specials::Ieee, 0, 0x7fffffffffffffffull};
inline constexpr Format kF32{8, 23, 127, true, true, Specials::Ieee, 0, 0x7fffffffu};
// tf32: f32 range, 10 mantissa bits (§5.2.3); cvt writes it as an f32 pattern with the
// low 13 bits zero.
inline constexpr Format kTF32{8, 10, 127, true, true, Specials::Ieee, 13, 0x7fffe000u};
inline constexpr Format kF16{5, 10, 15, true, true, Specials::Ieee, 0, 0x7fff};
inline constexpr Format kBF16{8, 7, 127, true, true, Specials::Ieee, 0, 0x7fff};
inline constexpr Format kE4M3{4, 3, 7, true, true, Specials::NanAllOnes, 0, 0x7f};
inline constexpr Format kE5M2{5, 2, 15, true, true, Specials::Ieee, 0, 0x7f};
inline constexpr Format kE2M3{2, 3, 1, true, true, Specials::None, 0, 0};
inline constexpr Format kE3M2{3, 2, 3, true, true, Specials::None, 0, 0};
inline constexpr Format kE2M1{2, 1, 1, true, true, Specials::None, 0, 0};
inline constexpr Format kUE8M0{8, 0, 127, false, false, Specials::NanMaxExp, 0, 0xff};
inline constexpr Format kUE4M3{4, 3, 7, false, true, Specials::NanAllOnes, 0, 0x7f};

}  // namespace ptxvm::numeric
