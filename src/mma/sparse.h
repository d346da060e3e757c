// Structured-sparse A (PTX §9.7.14.6.1-2 mma.sp, 001_23fdd5978b24a3ed.txt; §9.7.15.6.1-2
// wgmma.mma_async.sp, 002_fd7b654cd2816116.txt): which column of the dense A, and so which row of
// B, each element of the compressed M x K/2 matrix stands for, as the metadata says.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mma/arith.h"

namespace ptxvm::mma {

// Each metadata nibble places the non-zero elements of one chunk of a row of A; its low two bits
// give the first element's index, its high two bits the second's.
//   Pairs:   .f16/.bf16, 8-bit types: 2:4, chunks of 4 elements, the two elements at the indices.
//   Tf32:    1:2, chunks of 2 elements; the indices count 16-bit halves (0b0100 element 0,
//            0b1110 element 1), so the element sits at the first index / 2 (the other values
//            are undefined; an H200 gives neither this nor a placement by halves for them).
//   Quads:   .s4/.u4 (and packed e2m1): 4:8 by pairs, chunks of 8; the indices place 2-element
//            sub-chunks.
enum class Sparsity : uint8_t { Dense, Pairs, Tf32, Quads };

// For the 16 rows of one warp's tile (rows 0-15 of mma.sp's m16; 16w..16w+15 of wgmma.sp's m64),
// the dense column of each element of the compressed 16 x k/2 matrix, row-major, from the
// metadata registers of the warp's 32 lanes and the sparsity selector. As an H200 reads the
// figures (tests/hw/mma mma_sp.bin, every recorded shape and type): quad q (lanes 4q..4q+3)
// describes rows q and q + 8; with C chunks per row, T = C/4 of its lanes contribute:
// lane%4 = selector (T = 1), 2 * selector + t (T = 2), t (T = 4). Each holds eight nibbles: for
// 16- and 32-bit types lane t holds chunks 4t..4t+3, of row q in nibbles 0-3 and of row q + 8 in
// nibbles 4-7; for 8- and 4-bit types lane t holds chunks 8(t/2)..8(t/2)+7 of row q + 8(t%2), in
// nibbles 0-7. Equal indices in one nibble (undefined) select one row twice.
std::vector<uint16_t> sparse_columns(Sparsity s, unsigned k, unsigned elem_bits, unsigned selector,
                                     const uint32_t (&metadata)[32]);

}  // namespace ptxvm::mma
