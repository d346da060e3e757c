// The element types of the matrix instructions by name, and the bits an element takes in its
// register (§9.7.14.2, §9.7.15.3, 001_23fdd5978b24a3ed.txt): shared by mma, wmma and wgmma.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "mma/arith.h"

namespace ptxvm::mma {

// The type a qualifier names (".f16" -> F16); false for a name that is no matrix element type.
bool type_named(std::string_view qualifier, Type& out);

// Bits an element occupies in its register: fp8/fp6/fp4 operands sit in 8-bit containers
// (§9.7.14.5.14).
unsigned register_bits(Type t);

// A 16-byte row of shared memory as 16 bytes, as ldmatrix .b8x16 and tcgen05.cp .b8x16 unpack
// it. .b6x16_p32 / .b4x16_p64 (§9.7.14.5.15): sixteen unsigned 6-bit (4-bit) elements and 32 (64) bits of padding make the 16-byte row; each element becomes a
// byte, zero-extended: its bits in bits 5..0 (3..0) of the byte. The ISA draws the unpacking only
// in figures (§9.7.16.9.1, tcgen05.cp's "decompression", Figures 194-198); CUTLASS
// include/cute/atom/mma_traits_sm120.hpp (fp4_shift_A) says it: "ld.matrix b4x16_p64 places FP4
// data at the first four bits in each eight-bit container" and FP6 needs no shift. Element i
// occupies bits n*i .. n*i + n - 1 of the row read as a little-endian number, the padding last
// (our choice: the order of packed sub-byte elements everywhere in CUTLASS and PTX memory).
std::array<uint8_t, 16> unpack_b8x16(const uint8_t* row, unsigned bits);

}  // namespace ptxvm::mma
