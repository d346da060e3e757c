// IEEE arithmetic on bit patterns as sm_90 computes it: add sub mul fma div rcp sqrt of PTX
// §9.7.3 and §9.7.4-9.7.5 (001_23fdd5978b24a3ed.txt). The exact result, found with integer
// arithmetic, is rounded once through the encoder (encode.h): no host floating-point environment
// is involved.
#pragma once

#include <cstdint>

#include "numeric/format.h"

namespace ptxvm::numeric {

enum class ArithOp : uint8_t { Add, Sub, Mul, Fma, Div, Sqrt };

// f64's quiet-NaN bit: an f64 NaN operand comes back with it set (sm_90).
constexpr uint64_t kQuiet64 = uint64_t{1} << 51;

// a op b (op c for Fma; a alone for Sqrt) in format f (f64, f32, f16, bf16), with the modifier
// word `flags` (modifiers.h: rounding, .ftz, .sat, .relu). NaN results: the canonical NaN
// (f.nan_bits), +0 under .sat; f64 propagates a NaN operand quieted, else 0xfff8000000000000.
uint64_t arith(const Format& f, ArithOp op, uint64_t a, uint64_t b, uint64_t c, uint64_t flags);

}  // namespace ptxvm::numeric
