// Floating-point contraction as ptxas does it. "mul/add sequences with no rounding modifiers may be
// optimized to use fused-multiply-add instructions on the target device" (PTX §9.7.3.3-5,
// §9.7.4.1-3): the ISA leaves the choice to the code generator, so a GPU's bits depend on it.
// ptxas 13.0 for sm_90 fuses (tests/kernels/ptx/hand_contraction.ptx, recorded on an H200):
// - a mul, div.approx.f32 or div.full.f32 (whose last step multiplies by MUFU.RCP) whose result
//   is read once, by an add or sub in the same basic block;
// - of .f32, .f64, .f16, .f16x2, .bf16 or .bf16x2, the mul and the add written without a rounding
//   modifier, both with .ftz or neither, the mul without .sat (the add's .sat carries over);
// - a guarded add too; when both operands of the add qualify, the first;
// - a product of a register and an immediate in any block: ptxas moves it to its use (across
//   branches, into loops).
// It does not fuse a product read twice, a mul.rn or add.rn, nor a product of two registers with an
// add after a branch or after an instruction that ptxas expands behind a branch or a memory
// barrier (IEEE div/rcp/sqrt, integer div/rem but of .u32, rsqrt.approx.f64, membar, fence).
// Found by comparing NVIDIA's CUDA samples bit for bit with an H200 (BlackScholes, dxtc).
// None of this at ptxas -O0: a `.target debug` module, or one the driver JIT-compiles at
// optimization level 0 or with debug information (lower_module's `optimize`).
// Alike, a neg or abs .f32 (without .ftz) that only a selp reads in its block becomes the select's
// operand modifier: a NaN keeps its payload and gets the sign (libdevice's cbrtf of a negative
// subnormal is 0xffffffff on the H200), where alone it is an add that makes the NaN canonical.
// Not followed here (none of the 416 corpus modules has them): ptxas also fuses through a mov or
// neg of the product, and, on SSA values, when a source of the mul is written again before the add;
// it merges identical products first (so a product written twice may be read twice).
// Followed: the .f32 .approx functions but tanh of a constant (an immediate, or a register a mov
// of one writes once) are computed at compile time, correctly rounded (sem/float.cpp folded); a
// div.approx/div.full .f32 by a constant (an immediate, or a register a mov of one
// writes once, but for div.full.ftz) multiplies by the nearest float to 1/b where MUFU.RCP may be
// an ulp off (255: 0x3b808081, not 0x3b808080), and fuses with an add in any block.
#pragma once

#include <vector>

#include "program/program.h"

namespace ptxvm::lower {

// Fuses the pairs of function `f`: each such add or sub (and neg or abs) becomes a Fused op
// (program::Op::fused) re-selected by its family's selector. `unrounded[i]`: op i was written without a rounding
// modifier (lower.cpp). The multiplication stays; its result is read by nothing else.
void contract(program::Program& p, const program::Function& f, const std::vector<bool>& unrounded);

}  // namespace ptxvm::lower
