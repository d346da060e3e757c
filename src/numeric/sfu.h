// The H200's special-function unit for rcp, rsqrt, sqrt, lg2, ex2, tanh, sin and cos .approx on f32 (PTX
// §9.7.3.13, §9.7.3.15-16, §9.7.3.19-20, §9.7.3.22; 001_23fdd5978b24a3ed.txt), bit for bit. Its result's mantissa depends on
// the input's mantissa only (rsqrt and sqrt: and the exponent's parity), and the exponent is
// exact (tests/hw/sfu/README.md). So one table per function and parity, recorded on an H200 over
// every mantissa as deltas from a reference (sfu_reference.h), gives every result: the tables
// live in sfu/*.delta.xz, embedded in the library and decompressed on first use.
#pragma once

#include <cstdint>

#include "numeric/sfu_reference.h"

namespace ptxvm::numeric {

// fn(x) for a finite, non-zero x (normal or subnormal; for rsqrt and sqrt positive) as the unit
// computes it: f32 bits, with results beyond the normal range as the non-.ftz forms give them
// (above: +Inf; below: rounded to nearest even into the subnormals). Signs, zeros, infinities,
// NaN and .ftz flushing are the caller's.
uint32_t sfu_approx(SfuFn fn, uint32_t x_bits);

// ex2.approx of a finite x (§9.7.3.20): the unit takes |x| in fixed point truncated to 23
// fraction bits, n + f, and gives 2^n * T+(f) for positive x, 2^-n * T-(f) for negative x, from
// two recorded tables over f (sfu/ex2_{pos,neg}.diff.xz). Results beyond the normal range as
// sfu_approx gives them (subnormal results may differ from the unit's by one unit); .ftz
// flushing is the caller's.
uint32_t sfu_ex2(uint32_t x_bits);

// lg2.approx of a positive normal x = 1.m x 2^e (§9.7.3.19): e + L1(m) for e >= 0 and
// (e + 1) + L½(m) for e < 0, truncated toward zero into f32, from the unit's results over [1, 2)
// and [0.5, 1) (sfu/lg2_{one,half}.diff32.xz).
uint32_t sfu_lg2(uint32_t x_bits);

// tanh.approx.f32 of a non-NaN x (§9.7.3.22): odd; x itself below 2^-9, ±1 from 2^3 on; between,
// the unit's result for x's exponent and the top 23 - k mantissa bits (k = 0..6 by exponent;
// sfu/tanh_e<E>_k<k>.diff32.xz).
uint32_t sfu_tanh(uint32_t x_bits);

// sin/cos.approx of a finite x (§9.7.3.18-19): ptxas scales x to turns t = RZ(x * f32(1/(2 pi)));
// the unit takes |t| mod 1 in fixed point with 25 fraction bits, truncated. sin is odd, cos even,
// and both change sign over half a period exactly, so one table over [0, 1/2) each gives every
// result (sfu/{sin,cos}_half.d2.xz; tests/hw/sfu/record_trig.cu checked the model on 18.9 M random
// inputs of every magnitude). Subnormal flushing is the caller's.
uint32_t sfu_sin(uint32_t x_bits);
uint32_t sfu_cos(uint32_t x_bits);

// rcp/rsqrt.approx.ftz.f64 of a normal x (positive for rsqrt) (§9.7.3.14, §9.7.3.17): the unit
// reads the upper word of x and writes the upper word of the result (lower word zero), whose
// mantissa depends on the upper 20 mantissa bits (and, for rsqrt, the exponent's parity) only:
// sfu/rcp64_e0.delta.xz, sfu/rsqrt64_e{0,1}.delta.xz over them. Results below the normal range
// flush to zero.
uint64_t sfu_approx64(SfuFn fn, uint64_t x_bits);

}  // namespace ptxvm::numeric
