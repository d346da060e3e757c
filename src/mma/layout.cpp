// Fragment layouts of mma and wmma; see layout.h.
#include "mma/layout.h"

#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace ptxvm::mma {

namespace {

unsigned per_register(unsigned width) {
  return width == 64 ? 1 : 32 / width;
}

Layout empty(unsigned rows, unsigned cols, unsigned width, unsigned elems, unsigned threads = 32) {
  Layout l;
  l.rows = rows, l.cols = cols, l.width = width, l.per_reg = per_register(width), l.elems = elems;
  l.at.resize(threads * elems);
  return l;
}

// The formulas of §9.7.14.5.2-13, one pattern for every shape but m8n8k4 .f16, with
// groupID = laneid >> 2, threadID_in_group = laneid % 4, e elements per register, element i in
// register r = i / e at position j = i % e:
//   A: row = groupID + 8 * (r % 2) (M = 16) or groupID (M = 8),
//      col = threadID_in_group * e + j + 4e * (r / 2) (M = 16) or + 4e * r (M = 8)
//   B: row = threadID_in_group * e + j + 4e * r, col = groupID
//   C: row = groupID + 8 * (i / 2), col = threadID_in_group * 2 + i % 2
// The .f64 m16n8k16 A formula reads "col = (i * 2) - 2 + (threadID_in_group" for odd i, a
// parenthesis short; with it closed, (i * 2) + tig for even i and (i * 2) - 2 + tig for odd i
// are both 4 * (i / 2) + tig, the pattern above (as for .f64 m16n8k8).
Coord general(Shape s, Frag f, unsigned e, unsigned lane, unsigned i) {
  unsigned g = lane >> 2, t = lane % 4, r = i / e, j = i % e;
  switch (f) {
  case Frag::A:
    if (s.m == 16)
      return {0, static_cast<uint16_t>(g + 8 * (r % 2)),
              static_cast<uint16_t>(t * e + j + 4 * e * (r / 2))};
    return {0, static_cast<uint16_t>(g), static_cast<uint16_t>(t * e + j + 4 * e * r)};
  case Frag::B:
    return {0, static_cast<uint16_t>(t * e + j + 4 * e * r), static_cast<uint16_t>(g)};
  default:
    return {0, static_cast<uint16_t>(g + 8 * (i / 2)), static_cast<uint16_t>(t * 2 + i % 2)};
  }
}

// mma.m8n8k4 .f16 (§9.7.14.5.1): four 8x8x4 products, product q by the quad pair of lanes
// 4q..4q+3 (low group) and 4q+16..4q+19 (high group).
Coord quad_pair(Frag f, bool row_major, bool f16_acc, unsigned lane, unsigned i) {
  uint8_t q = static_cast<uint8_t>((lane >> 2) & 3);
  unsigned hi = lane < 16 ? 0 : 4, l4 = lane % 4;
  auto c = [&](unsigned row, unsigned col) {
    return Coord{q, static_cast<uint16_t>(row), static_cast<uint16_t>(col)};
  };
  switch (f) {
  case Frag::A:
    return row_major ? c(l4 + hi, i) : c(i % 4 + hi, l4);
  case Frag::B:
    return row_major ? c(l4, i + hi) : c(i, l4 + hi);
  default:
    if (f16_acc) return c(l4 + hi, i);
    return c((lane & 1) + (i & 2) + hi, (i & 4) + (lane & 2) + (i & 1));
  }
}

// wmma fragments (§9.7.14.4.1 leaves them unspecified), as an H200 lays them out
// (tests/hw/mma layouts.bin: wmma.load/store of every shape and type): a wmma fragment is the
// fragments of mma.sync tiles of its matrix, one after another in the lane's elements. A tile is
// the `f` fragment of an mma of shape `mma` at (row0, col0), `transposed` where the hardware
// computes the wmma shape as its transpose (m8n32k16 as (m32n8k16)^T: B holds B^T as an A
// fragment, C holds C^T as a C fragment). Where the registers outnumber the tiles' elements (the
// .f16 A and B fragments, sized for sm_70) the tiles repeat: each element is held again.
struct Tile {
  Shape mma;
  Frag f;
  bool transposed;
  uint16_t row0, col0;
};
struct WmmaRow {
  Shape wmma;
  Frag f;
  std::vector<Tile> tiles;
};

const std::vector<WmmaRow>& wmma_table() {
  constexpr Shape k16{16, 8, 16}, k8{16, 8, 8};
  static const std::vector<WmmaRow> table = {
      {{16, 16, 16}, Frag::A, {{k16, Frag::A, false, 0, 0}}},
      {{16, 16, 16}, Frag::B, {{k16, Frag::B, false, 0, 0}, {k16, Frag::B, false, 0, 8}}},
      {{16, 16, 16}, Frag::C, {{k16, Frag::C, false, 0, 0}, {k16, Frag::C, false, 0, 8}}},
      {{32, 8, 16}, Frag::A, {{k16, Frag::A, false, 0, 0}, {k16, Frag::A, false, 16, 0}}},
      {{32, 8, 16}, Frag::B, {{k16, Frag::B, false, 0, 0}}},
      {{32, 8, 16}, Frag::C, {{k16, Frag::C, false, 0, 0}, {k16, Frag::C, false, 16, 0}}},
      {{8, 32, 16}, Frag::A, {{{16, 8, 16}, Frag::B, true, 0, 0}}},
      {{8, 32, 16}, Frag::B, {{k16, Frag::A, true, 0, 0}, {k16, Frag::A, true, 0, 16}}},
      {{8, 32, 16}, Frag::C, {{k16, Frag::C, true, 0, 0}, {k16, Frag::C, true, 0, 16}}},
      {{16, 16, 8}, Frag::A, {{k8, Frag::A, false, 0, 0}}},
      {{16, 16, 8}, Frag::B, {{k8, Frag::B, false, 0, 0}, {k8, Frag::B, false, 0, 8}}},
      {{16, 16, 8}, Frag::C, {{k8, Frag::C, false, 0, 0}, {k8, Frag::C, false, 0, 8}}},
      {{8, 8, 4}, Frag::A, {{{8, 8, 4}, Frag::A, false, 0, 0}}},
      {{8, 8, 4}, Frag::B, {{{8, 8, 4}, Frag::B, false, 0, 0}}},
      {{8, 8, 4}, Frag::C, {{{8, 8, 4}, Frag::C, false, 0, 0}}},
      {{8, 8, 32}, Frag::A, {{{8, 8, 32}, Frag::A, false, 0, 0}}},
      {{8, 8, 32}, Frag::B, {{{8, 8, 32}, Frag::B, false, 0, 0}}},
      {{8, 8, 32}, Frag::C, {{{8, 8, 32}, Frag::C, false, 0, 0}}},
      {{8, 8, 128}, Frag::A, {{{8, 8, 128}, Frag::A, false, 0, 0}}},
      {{8, 8, 128}, Frag::B, {{{8, 8, 128}, Frag::B, false, 0, 0}}},
      {{8, 8, 128}, Frag::C, {{{8, 8, 128}, Frag::C, false, 0, 0}}},
  };
  return table;
}

unsigned tile_elems(Shape s, Frag f) {
  return (f == Frag::A ? s.m * s.k : f == Frag::B ? s.k * s.n : s.m * s.n) / 32;
}

} // namespace

Shape parse_shape(const std::string& q) {
  auto num = [&](char c) {
    size_t p = q.find(c, 1);
    return p == std::string::npos ? 0u : static_cast<unsigned>(std::atoi(q.c_str() + p + 1));
  };
  return {num('m'), num('n'), num('k')};
}

Layout mma_layout(Shape s, Frag f, unsigned width, bool row_major) {
  unsigned rows = f == Frag::B ? s.k : s.m, cols = f == Frag::A ? s.k : s.n;
  bool quad = s.m == 8 && s.n == 8 && s.k == 4 && width == 16 && f != Frag::C;
  bool quad_c = s.m == 8 && s.n == 8 && s.k == 4 && f == Frag::C && width <= 32; // .f16/.f32 C
  if (quad || quad_c) {
    Layout l = empty(rows, cols, width, f == Frag::C ? 8 : 4);
    l.sets = 4;
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned i = 0; i < l.elems; ++i)
        l.at[lane * l.elems + i] = quad_pair(f, row_major, width == 16, lane, i);
    return l;
  }
  Layout l = empty(rows, cols, width, tile_elems(s, f));
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < l.elems; ++i)
      l.at[lane * l.elems + i] = general(s, f, l.per_reg, lane, i);
  return l;
}

Layout wgmma_layout(Shape s, Frag f, unsigned width) {
  const Layout tile = mma_layout({16, 8, s.k}, f, width);
  const unsigned blocks = f == Frag::A ? 1 : s.n / 8;
  Layout l = empty(s.m, f == Frag::A ? s.k : s.n, width, tile.elems * blocks, 128);
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned i = 0; i < l.elems; ++i) {
      const Coord& c = tile.where(t % 32, i % tile.elems);
      l.at[t * l.elems + i] = {0, static_cast<uint16_t>(c.row + 16 * (t / 32)),
                               static_cast<uint16_t>(c.col + 8 * (i / tile.elems))};
    }
  return l;
}

Layout wmma_layout(Shape s, Frag f, unsigned width, unsigned regs) {
  for (const WmmaRow& row : wmma_table()) {
    if (row.wmma.m != s.m || row.wmma.n != s.n || row.wmma.k != s.k || row.f != f) continue;
    unsigned rows = f == Frag::B ? s.k : s.m, cols = f == Frag::A ? s.k : s.n;
    Layout l = empty(rows, cols, width, regs * per_register(width));
    std::vector<Layout> tiles;
    for (const Tile& t : row.tiles) tiles.push_back(mma_layout(t.mma, t.f, width));
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned i = 0;
      while (i < l.elems) // the tiles in order, repeated until the registers are full
        for (size_t t = 0; t < tiles.size() && i < l.elems; ++t)
          for (unsigned e = 0; e < tiles[t].elems && i < l.elems; ++e, ++i) {
            Coord c = tiles[t].where(lane, e);
            if (row.tiles[t].transposed) std::swap(c.row, c.col);
            l.at[lane * l.elems + i] = {0, static_cast<uint16_t>(c.row + row.tiles[t].row0),
                                        static_cast<uint16_t>(c.col + row.tiles[t].col0)};
          }
    }
    return l;
  }
  throw std::invalid_argument("no wmma layout for this shape");
}

// PTX §9.7.14.5.15-16 (001_23fdd5978b24a3ed.txt) draws these only in Figures 104 (ldmatrix
// .m16n16), 105 (.m8n16) and 107 (stmatrix .m16n8), missing from our copy; the text gives "four
// consecutive columns spanning two rows" (.m16n16), "four consecutive columns" (.m8n16) per lane,
// and for stmatrix "four 8-bit elements e0..e3 per .b32, e0 in the LSB". Layouts as in those figures,
// confirmed against CUTLASS include/cute/atom/copy_traits_sm100.hpp (SM100_U8x8_LDSM_T,
// SM100_U8x16_LDSM_T with the register permutation undone that include/cute/arch/copy_sm100.hpp
// applies after the instruction; SM100_SU4/SU6_DU8x16_x{1,2,4}_LDSM_N; SM100_U8x{4,8,16}_STSM_T),
// with t = laneid, g = t / 4, tig = t % 4:
//   .m16n16 (.trans): 16 rows a matrix, registers 2q, 2q + 1 for matrix q; byte b of register
//                     2q + h is row 4 tig + b, byte g + 8h: the lane holds the transposed matrix's
//                     rows g and g + 8, columns 4 tig .. 4 tig + 3 (mma's 8-bit A fragment).
//   .m8n16:           8 rows, register q; byte b is row g, byte 4 tig + b.
//   .m16n8 (.trans):  8 rows, register q; byte j is row 2 tig + j % 2, byte g + 8 (j / 2): the
//                     registers hold the 16x8 matrix as mma's C fragment holds 16x8 (rows g and
//                     g + 8, columns 2 tig, 2 tig + 1), stored transposed.
Layout byte_matrix_layout(const std::string& shape, unsigned num) {
  unsigned rows = shape == ".m16n16" ? 16 : 8, regs = shape == ".m16n16" ? 2 * num : num;
  Layout l = empty(rows, 16, 8, regs * 4);
  l.sets = num;
  for (unsigned t = 0; t < 32; ++t)
    for (unsigned i = 0; i < l.elems; ++i) {
      unsigned reg = i / 4, b = i % 4, g = t / 4, tig = t % 4;
      Coord c;
      if (shape == ".m16n16")
        c = {static_cast<uint8_t>(reg / 2), static_cast<uint16_t>(4 * tig + b),
             static_cast<uint16_t>(g + 8 * (reg % 2))};
      else if (shape == ".m8n16")
        c = {static_cast<uint8_t>(reg), static_cast<uint16_t>(g), static_cast<uint16_t>(4 * tig + b)};
      else
        c = {static_cast<uint8_t>(reg), static_cast<uint16_t>(2 * tig + b % 2),
             static_cast<uint16_t>(g + 8 * (b / 2))};
      l.at[t * l.elems + i] = c;
    }
  return l;
}

// §9.7.14.3: thread-id-a picks the lane pair of each quad (laneid % 4 in {0, 1} for 0, {2, 3} for
// 1) that gives SF_A, thread-id-b the one lane of each quad (laneid % 4 == thread-id-b) that gives
// SF_B; byte-id picks the byte (1X), the first of two bytes (2X: 0 or 2), or is 0 (4X), and k-block
// `block` takes the byte after it by `block`. Which rows and columns the quads give is drawn in
// figures 42-44, missing from our copy; as in those figures, confirmed against CUTLASS
// include/cute/atom/mma_traits_sm120.hpp (SFALayout: lane t gives row t / 4 + 8 (t % 2), any
// t / 2 % 2; SFBLayout: lane t gives column t / 4, any t % 4; mma_traits_sm120_sparse.hpp: the
// same for mma.sp, over the dense K):
//   SF_A of row r: lane 4 (r % 8) + 2 thread-id-a + r / 8;  SF_B of column n: lane 4n + thread-id-b.
ScaleSource scale_a_source(unsigned row, unsigned block, unsigned byte_id, unsigned thread_id) {
  return {4 * (row % 8) + 2 * thread_id + row / 8, byte_id + block};
}
ScaleSource scale_b_source(unsigned col, unsigned block, unsigned byte_id, unsigned thread_id) {
  return {4 * col + thread_id, byte_id + block};
}

} // namespace ptxvm::mma
