// testp and copysign. PTX §9.7.3.1 testp, §9.7.3.2 copysign (001_23fdd5978b24a3ed.txt).
#pragma once

#include <cstdint>

#include "numeric/decode.h"
#include "numeric/format.h"

namespace ptxvm::numeric {

enum class TestOp : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };

// "As a special case, positive and negative zero are considered normal numbers."
constexpr bool testp(TestOp op, const Format& f, uint64_t bits) {
  const Class c = decode(f, bits).cls;
  switch (op) {
    case TestOp::Finite: return c != Class::Inf && c != Class::NaN;
    case TestOp::Infinite: return c == Class::Inf;
    case TestOp::Number: return c != Class::NaN;
    case TestOp::NotANumber: return c == Class::NaN;
    case TestOp::Normal: return c == Class::Normal || c == Class::Zero;
    case TestOp::Subnormal: return c == Class::Subnormal;
  }
  return false;
}

// copysign.{f32,f64} d, a, b: the sign of a on the value of b.
constexpr uint64_t copysign(const Format& f, uint64_t a, uint64_t b) {
  const uint64_t s = f.sign_bit();
  return (a & s) | (b & ~s);
}

}  // namespace ptxvm::numeric
