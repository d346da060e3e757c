// Fragment layouts of the warp-level matrix instructions as data (PTX §9.7.14.5.1-13 mma,
// §9.7.14.4.1 wmma; 001_23fdd5978b24a3ed.txt): for each lane and each element of the lane's
// fragment, the matrix element it holds. Elements pack into the fragment's registers low bits
// first, `per_reg` to a register of `width` bits each (f16x2: two 16-bit halves; 8-bit types four
// to a .b32; .s4/.u4 eight; .b1 32; .f64 one 64-bit register).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxvm::mma {

enum class Frag : uint8_t { A, B, C }; // C also describes D

// One element of a fragment: matrix `set` (the independent products of m8n8k4 .f16, else 0),
// row and column of that matrix.
struct Coord {
  uint8_t set = 0;
  uint16_t row = 0, col = 0;
};

struct Layout {
  unsigned rows = 0, cols = 0; // the matrix: M x K (A), K x N (B), M x N (C, D)
  unsigned sets = 1;
  unsigned elems = 0;    // elements per lane
  unsigned width = 0;    // bits of one element in its register
  unsigned per_reg = 1;  // elements per register
  std::vector<Coord> at; // [lane * elems + i]
  const Coord& where(unsigned lane, unsigned i) const { return at[lane * elems + i]; }
  unsigned regs() const { return elems / per_reg; }
};

struct Shape {
  unsigned m, n, k;
};
Shape parse_shape(const std::string& qualifier); // ".m16n8k16" -> {16, 8, 16}

// The mma.sync fragment of matrix `f` (§9.7.14.5.2-13) with elements of `width` bits. The
// m8n8k4 .f16 forms (§9.7.14.5.1) take their own layouts: `row_major` is .alayout/.blayout for
// A and B; C's layout depends on whether the accumulator is .f16 (width 16) or .f32.
Layout mma_layout(Shape s, Frag f, unsigned width, bool row_major = true);

// The wmma fragment of matrix `f` for a wmma shape (§9.7.14.4.1) with elements of `width` bits
// and `regs` registers per lane (isa::fragment_sizes). The ISA leaves these layouts unspecified;
// the table in layout.cpp gives the sm_80+ reading.
Layout wmma_layout(Shape s, Frag f, unsigned width, unsigned regs);

} // namespace ptxvm::mma
