// Tensor-core arithmetic: one output element of D = A·B + C for every mma/wmma class
// (PTX §9.7.14.5.14, 001_23fdd5978b24a3ed.txt; §9.7.14.4.5, 004_8b65a6cd58917981.txt), shared by
// mma.sync, mma.sp and wmma, and later by wgmma and tcgen05.
//
// The ISA leaves the accumulation order and rounding of the floating-point classes open
// ("未指定"); a `Model` fixes them. `Exact` sums exactly and rounds once (IEEE, to nearest even,
// or the .rnd of the f64 forms); `Sm90` reproduces the Hopper tensor cores bit for bit, with its
// parameters as data (model.cpp), fitted and confirmed on vectors recorded on an H200
// (tests/hw/mma/).
#pragma once

#include <cstdint>

#include "numeric/round.h"

namespace ptxvm::mma {

// Element types of the matrix operands (§9.7.14.2).
// UE8M0 and UE4M3 are the scale-factor types of block scaling (§9.7.14.3).
enum class Type : uint8_t { F16, BF16, TF32, F32, F64, E4M3, E5M2, E3M2, E2M3, E2M1, S8, U8, S4, U4, B1, S32, UE8M0, UE4M3 };

enum class Model : uint8_t { Sm90, Exact };

// One floating-point class: the element types of A, B, C, D, the dot length K, for f64 the
// rounding modifier (.rn when absent), and whether wmma.mma (not mma) asked for it: ptxas may
// compile the two differently.
struct FloatClass {
  Type a, b, c, d;
  unsigned k;
  numeric::Round rnd = numeric::Round::RN;
  bool wmma = false;
  bool f8f6f4 = false;  // mma .kind::f8f6f4 (sm_120a): no Hopper runs it, so `Sm90` sums it exactly
  bool wgmma = false;   // wgmma.mma_async (§9.7.15): the warpgroup datapath, not mma.sync's
  bool tcgen05 = false; // tcgen05.mma (§9.7.16.10): the Blackwell datapath, modelled (arith.cpp)
  unsigned c_scale = 0; // C enters as C * 2^-c_scale (tcgen05.mma's scale-input-d)
  bool mxf4 = false;    // tcgen05.mma .kind::mxf4 / .kind::mxf4nvf4 (block-scaled e2m1)
};

// D[i][j] for one (i, j): a[0..k) is row i of A, b[0..k) column j of B, as element bits
// right-aligned in each uint64_t (an e2m1 as its 4 bits, a tf32 as the 32-bit container, an f16 as
// 16 bits); c the bits of C[i][j]; returns the bits of D[i][j] in cls.d.
uint64_t dot(Model m, const FloatClass& cls, const uint64_t* a, const uint64_t* b, uint64_t c);

// A whole tile: D = A·B + C with a (rows x k), b (k x cols), c and d (rows x cols), all
// row-major; the same bits as dot() per element, with each element of A and B decoded once.
void gemm(Model m, const FloatClass& cls, unsigned rows, unsigned cols, const uint64_t* a,
          const uint64_t* b, const uint64_t* c, uint64_t* d);

// Block-scaled D[i][j] (§9.7.14.3: D = (A * scale_A) * (B * scale_B) + C): a[0..k) and b[0..k) as
// for dot(); sa[k] and sb[k] the bits of the scale factors (of type `scale`) that a[k] and b[k]
// take: those of row i of A and column j of B for the k-block of product k (a .ue4m3 factor is its
// low 7 bits: the format has no sign, and we ignore bit 7). `Exact` sums exactly and rounds once
// to nearest even; so does `Sm90` for mma.sync (sm_120a, never recorded), while for tcgen05 it
// is the modelled sm100 datapath (arith.cpp).
uint64_t dot_scaled(Model m, const FloatClass& cls, Type scale, const uint64_t* a, const uint64_t* b,
                    const uint8_t* sa, const uint8_t* sb, uint64_t c);

// dot_scaled for a whole tile, as gemm lays it out: a (rows x k), b (k x cols), c and d (rows x
// cols); the k products fall into `blocks` equal k-blocks, sa[i * blocks + t] the factor of row i
// of A for block t and sb[j * blocks + t] that of column j of B. The same bits as dot_scaled per
// element: tcgen05's kinds on the vector tile where the columns come in eights, element by
// element otherwise.
void gemm_scaled(Model m, const FloatClass& cls, Type scale, unsigned rows, unsigned cols, unsigned blocks,
                 const uint64_t* a, const uint64_t* b, const uint8_t* sa, const uint8_t* sb, const uint64_t* c,
                 uint64_t* d);

// Integer classes (.s8/.u8/.s4/.u4): exact products summed into the s32 accumulator, wrapping,
// or clamped to [INT32_MIN, INT32_MAX] with .satfinite (§9.7.14.5.14).
int32_t dot_int(Type a, Type b, unsigned k, const uint64_t* av, const uint64_t* bv, int32_t c,
                bool satfinite);

// Single-bit classes: c + popc(a OP b) over k bits given as 32-bit words (k a multiple of 32),
// OP = xor or and (§9.7.14.5.14).
int32_t dot_b1(bool xor_op, unsigned k, const uint32_t* a, const uint32_t* b, int32_t c);

}  // namespace ptxvm::mma
