// An add or sub that ptxas fuses with the multiplication producing one of its operands
// (lower/contraction.h, program::Op::fused): d = a*b + c with one rounding, as FFMA, DFMA and
// HFMA2 compute it, with the add's .ftz and .sat; a*b is negated for c - a*b, c for a*b - c. For
// div.approx/div.full .f32 the product is the division's last multiply: its operand a and the
// reciprocal of b, both scaled as the division scales them (sem/float.cpp div_approx).
#pragma once

#include <string>

#include "program/program.h"

namespace ptxvm::sem {

// The handler of the fused op of type `type` (".f32", ".f64", ".f16", ".f16x2", ".bf16",
// ".bf16x2"), its op.aux already the add's rounding (.rn) and modifier bits.
bool select_fused(const std::string& type, program::Op& op, std::string& why);

}  // namespace ptxvm::sem
