// Exact IEEE arithmetic on bit patterns, shared by float.cpp (§9.7.3) and half.cpp (§9.7.4,
// §9.7.5): one exact result rounded once through src/numeric, with sm_90's NaN rules.
#pragma once

#include <cstdint>

#include "numeric/format.h"

namespace ptxvm::sem::fp {

enum Kind : unsigned { Add, Sub, Mul, Fma, Div, Sqrt };

// Flags: bits 0-2 hold the numeric::Round; then the modifiers.
constexpr uint64_t kFtz = 8, kSat = 16, kNan = 32, kXorsignAbs = 64, kRelu = 128;

// a op b (op c for Fma) in format `f`.
uint64_t arith(const numeric::Format& f, unsigned kind, uint64_t a, uint64_t b, uint64_t c,
               uint64_t flags);
// min/max with .NaN and .xorsign.abs (§9.7.3.11-12, §9.7.4.7-8).
uint64_t minmax(const numeric::Format& f, bool is_max, uint64_t a, uint64_t b, uint64_t flags);
// A subnormal input flushed to sign-preserving zero when `ftz`.
uint64_t flush_input(const numeric::Format& f, uint64_t bits, bool ftz);

}  // namespace ptxvm::sem::fp
