// Structured sparsity of tcgen05.mma.sp (PTX §9.7.16.10.8, 000_70a4b524dfe259fa.txt): A holds K/2
// of each row's K elements, and a metadata matrix in Tensor Memory says where they go.
//
// Granularity (§9.7.16.10.8): .kind::tf32 keeps 1 of each 2 elements, .kind::f16, f8f6f4,
// mxf8f6f4 and i8 2 of 4, .kind::mxf4 and mxf4nvf4 2 pairs of 4. Each chunk has a 4-bit nibble of
// two 2-bit positions, the first kept element's in bits 1..0 and the second's in bits 3..2
// (positions of elements; of pairs for mxf4*; of 16-bit halves for tf32, whose only nibbles are
// 0b0100, element 0, and 0b1110, element 1). The ISA lists the meaningful nibbles; the others
// are undefined.
//
// Where nibble g of row i lies, relative to [sp-meta-tmem] (§9.7.16.10.8.4 draws it only in
// figures; this is CUTLASS's tmem_e_frg, include/cute/atom/mma_traits_sm100_frag.hpp, for the
// 128 rows of a full data path):
//   .kind::tf32, .kind::f16   lane (i & 7) + 16 (i >> 4) + 8 (g >> 2), column sel, bit 16 ((i >> 3) & 1) + 4 (g & 3)
//   every other kind          lane i, column g >> 3, bit 4 (g & 7)
// where sel is the sparsity selector (idesc bits 0-1, a column offset: CUTLASS passes an odd
// metadata column as the even one plus selector 1; it is 0 for the other kinds).
#pragma once

#include <cstdint>

namespace ptxvm::units::tcgen05 {

enum class Granularity : uint8_t { OneOfTwo, TwoOfFour, PairsOfEight };

// Elements of the dense row one nibble covers.
inline unsigned chunk_elements(Granularity g) { return g == Granularity::OneOfTwo ? 2 : g == Granularity::TwoOfFour ? 4 : 8; }

struct NibblePlace {
  unsigned lane, column, bit;
};
// `wide`: the tf32/f16 layout; `selector`: the sparsity selector.
NibblePlace nibble_place(bool wide, unsigned selector, unsigned i, unsigned g);

// Whether `nibble` is one the ISA gives a meaning for this granularity.
bool valid_nibble(Granularity g, unsigned nibble);

// Row `kept` (dense_k / 2 elements) into `dense` (dense_k elements, the others zero bits) by the
// row's nibbles (nibble(g) for chunk g), all valid.
template <typename Nibble>
void expand_row(Granularity g, const uint64_t* kept, unsigned dense_k, Nibble nibble, uint64_t* dense) {
  const unsigned c = chunk_elements(g);
  for (unsigned k = 0; k < dense_k; ++k) dense[k] = 0;
  for (unsigned chunk = 0; chunk < dense_k / c; ++chunk) {
    const unsigned x = nibble(chunk), p0 = x & 3, p1 = x >> 2;
    const uint64_t* in = kept + chunk * c / 2;
    uint64_t* out = dense + chunk * c;
    switch (g) {
    case Granularity::OneOfTwo: out[p0 / 2] = in[0]; break;
    case Granularity::TwoOfFour: out[p0] = in[0], out[p1] = in[1]; break;
    case Granularity::PairsOfEight:
      out[2 * p0] = in[0], out[2 * p0 + 1] = in[1], out[2 * p1] = in[2], out[2 * p1 + 1] = in[3];
      break;
    }
  }
}

}  // namespace ptxvm::units::tcgen05
