// Any format's bits -> exact value (sign, class, sig * 2^exp). PTX §5.2 (001_23fdd5978b24a3ed.txt).
#pragma once

#include <cstdint>

#include "numeric/format.h"

namespace ptxvm::numeric {

enum class Class : uint8_t { Zero, Subnormal, Normal, Inf, NaN };

struct Unpacked {
  bool negative = false;
  Class cls = Class::Zero;
  uint64_t sig = 0;  // value = sig * 2^exp for Subnormal and Normal; NaN: the mantissa field
  int exp = 0;
  constexpr bool finite_nonzero() const { return cls == Class::Subnormal || cls == Class::Normal; }
};

constexpr Unpacked decode(const Format& f, uint64_t bits) {
  bits >>= f.pad_bits;
  const uint64_t man_mask = (uint64_t{1} << f.man_bits) - 1;
  const uint64_t exp_max = (uint64_t{1} << f.exp_bits) - 1;
  const uint64_t man = bits & man_mask;
  const uint64_t field = (bits >> f.man_bits) & exp_max;
  Unpacked u;
  u.negative = (bits & f.sign_bit()) != 0;
  const bool top = field == exp_max;
  if (f.specials == Specials::Ieee && top) {
    u.cls = man ? Class::NaN : Class::Inf;
    u.sig = man;  // NaN payload
    return u;
  }
  if ((f.specials == Specials::NanAllOnes && top && man == man_mask) ||
      (f.specials == Specials::NanMaxExp && top)) {
    u.cls = Class::NaN;
    return u;
  }
  if (!f.has_subnormals) {  // ue8m0: field 0 is 2^-bias
    u.cls = Class::Normal;
    u.sig = (uint64_t{1} << f.man_bits) | man;
    u.exp = static_cast<int>(field) - f.bias - f.man_bits;
    return u;
  }
  if (field == 0) {
    u.cls = man ? Class::Subnormal : Class::Zero;
    u.sig = man;
    u.exp = f.min_quantum();
    return u;
  }
  u.cls = Class::Normal;
  u.sig = (uint64_t{1} << f.man_bits) | man;
  u.exp = static_cast<int>(field) - f.bias - f.man_bits;
  return u;
}

}  // namespace ptxvm::numeric
