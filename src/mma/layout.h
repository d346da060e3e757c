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

// The wgmma.mma_async fragment of matrix `f` (A from registers, or C/D) over the 128 threads of a
// warpgroup (§9.7.15.5.1.1): warp w of the warpgroup holds rows 16w..16w+15, laid out as the
// mma.sync m16n8 fragment of the same K, repeated every 8 columns for the N/8 column blocks of D.
Layout wgmma_layout(Shape s, Frag f, unsigned width);

// The wmma fragment of matrix `f` for a wmma shape (§9.7.14.4.1) with elements of `width` bits
// and `regs` registers per lane (isa::fragment_sizes). The ISA leaves these layouts unspecified;
// the table in layout.cpp gives the sm_80+ reading.
Layout wmma_layout(Shape s, Frag f, unsigned width, unsigned regs);

// The 8-bit ldmatrix/stmatrix forms of sm_100a/sm_120a (§9.7.14.5.15-16): each matrix is a set
// of rows in shared memory, 16 bytes (16 elements, after any unpacking) each, whose addresses
// lanes `rows` * q .. `rows` * q + `rows` - 1 give for matrix q. For byte i of a lane's registers
// (register i / 4, byte i % 4), the Coord is (matrix, row = which of the matrix's rows, col = the
// byte in that row). `shape` is ".m16n16" (ldmatrix, always .trans), ".m8n16" (ldmatrix) or
// ".m16n8" (stmatrix, always .trans); `num` the matrices (.x1, .x2, .x4).
Layout byte_matrix_layout(const std::string& shape, unsigned num);

// Block scaling (§9.7.14.3, mma .kind::mxf8f6f4/.kind::mxf4/.kind::mxf4nvf4 .m16n8): the lane and
// byte of scale-a-data (scale-b-data) that give the scale factor of row `row` of A (column `col`
// of B) for k-block `block`, with the instruction's {byte-id, thread-id} selector.
struct ScaleSource {
  unsigned lane, byte;
};
ScaleSource scale_a_source(unsigned row, unsigned block, unsigned byte_id, unsigned thread_id);
ScaleSource scale_b_source(unsigned col, unsigned block, unsigned byte_id, unsigned thread_id);

} // namespace ptxvm::mma
