// The modifiers of an IEEE operation (ieee_arith.h, minmax.h) as one word, the form semantics
// keeps them in (program::Op::aux): bits 0-2 the numeric::Round, then one bit per modifier.
#pragma once

#include <cstdint>

namespace ptxvm::numeric {

constexpr uint64_t kFtz = 8, kSat = 16, kNan = 32, kXorsignAbs = 64, kRelu = 128;

}  // namespace ptxvm::numeric
