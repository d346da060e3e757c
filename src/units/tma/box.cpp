// The rows of .tile and .tile::gather4/scatter4 boxes (PTX §5.5.3), the swizzles (§5.5.7) and the
// movement of a box's elements, packed sub-byte types included (§5.5.1.1.1).
#include "units/tma/box.h"

#include <algorithm>
#include <cstring>

#include "exec/warp.h"

namespace ptxvm::units::tma {

using mem::Space;

uint64_t Box::row_count() const {
  switch (mode) {
  case Mode::Rows4: return 4;
  case Mode::Im2col: return map.pixels;
  case Mode::Im2colW: return map.pixels + info[0];    // and wHalo pixels after them (§5.5.5.3)
  case Mode::Im2colW128: return 4 * (32 + info[0]);  // 32 pixels, then wHalo, four times
  case Mode::Tile: break;
  }
  uint64_t n = 1;
  for (unsigned d = 1; d < map.rank; ++d) n *= count(d);
  return n;
}

Packing Box::unit() const {
  if (map.interleave == Interleave::None) return packing(map.type);
  const unsigned chunk = map.interleave == Interleave::B16 ? 16 : 32;
  return {1, chunk, chunk};
}

uint32_t Box::count(unsigned d) const {
  if (map.interleave != Interleave::None && d == map.rank - 2) return 1;
  return (map.box[d] + map.element_strides[d] - 1) / map.element_strides[d];
}

uint64_t Box::row_elements() const {
  if (mode >= Mode::Im2col) return map.interleave != Interleave::None ? 1 : map.channels / unit().values;
  return map.interleave != Interleave::None ? count(0) : map.box[0] / unit().values;
}

uint64_t Box::bytes() const { return row_count() * row_elements() * unit().shared_bytes; }
uint64_t Box::tx_bytes() const { return row_count() * row_elements() * unit().global_bytes; }

// .tile: the rows of dimensions 1 .. rank-1, dimension 1 fastest, each index stepped by its
// traversal stride (§5.5.3.2). .tile::gather4/scatter4 (§5.5.3.4): four boxes of one row each,
// rows row0 .. row3 of the 2-D tensor, one after another in shared memory — as a .tile box of
// four consecutive rows would lie, so swizzling and the rules of .tile carry over unchanged.
std::vector<Box::Row> Box::rows() const {
  if (mode >= Mode::Im2col) return im2col_rows();
  std::vector<Row> rows;
  if (mode == Mode::Rows4) {
    for (unsigned r = 0; r < 4; ++r) {
      const int64_t g = coords[1 + r];
      const bool inside = g >= 0 && static_cast<uint64_t>(g) < map.dims[1];
      rows.push_back({map.address + static_cast<uint64_t>(g) * map.strides[0], inside});
    }
    return rows;
  }
  uint64_t index[5] = {};
  for (uint64_t r = 0, n = row_count(); r < n; ++r) {
    Row row{map.address, true};
    for (unsigned d = 1; d < map.rank; ++d) {
      const int64_t g = coords[d] + static_cast<int64_t>(index[d] * map.element_strides[d]);
      row.inside = row.inside && g >= 0 && static_cast<uint64_t>(g) < map.dims[d];
      row.global += static_cast<uint64_t>(g) * map.strides[d - 1];
    }
    rows.push_back(row);
    for (unsigned d = 1; d < map.rank && ++index[d] == count(d); ++d) index[d] = 0;
  }
  return rows;
}

// The swizzle of a shared address (§5.5.7), on the absolute address (the base offset of a box not
// at a pattern boundary follows from it), as wgmma and tcgen05 read it (mma/descriptor.h):
// 16-byte atoms are Swizzle<B,4,3> (B = 1, 2, 3 for 32B, 64B, 128B), address bits 4.. XOR bits
// 7..; the 128B mode's 32-byte atoms are Swizzle<2,5,2> (bits 5-6 XOR bits 7-8: the section's
// pattern 0 1 2 3 / 1 0 3 2 / 2 3 0 1 / 3 2 1 0 of 32-byte units, tcgen05's 128B-with-32B mode,
// CUTLASS's SWIZZLE_128B_BASE32B), 64-byte atoms Swizzle<1,6,1> (bit 6 XOR bit 7: 0 1 / 1 0). The
// 8-byte flip (cuda.h: "swap lower 8B with upper 8B within each 16B for every alternate row")
// is ptxvm's model, no figure being in the text: the 32-byte-atom swizzle, then bit 3 XOR bit 7,
// the parity of the 128-byte row.
uint64_t Box::swizzled(uint64_t a) const {
  const uint64_t row = a >> 7;
  switch (map.swizzle) {
  case Swizzle::None: return a;
  case Swizzle::B32: return a ^ (row & 1) << 4;
  case Swizzle::B64: return a ^ (row & 3) << 4;
  case Swizzle::B128: return a ^ (row & 7) << 4;
  case Swizzle::B128Atom32: return a ^ (row & 3) << 5;
  case Swizzle::B128Atom32Flip8: return a ^ (row & 3) << 5 ^ (row & 1) << 3;
  case Swizzle::B128Atom64: return a ^ (row & 1) << 6;
  }
  return a;
}

// Calls visit(at, global, inside) for each element of the box (an interleaved map's chunk), in
// shared-memory order: its unswizzled shared address, its global address and whether it lies
// inside the tensor.
template <typename Visit>
void Box::each_element(Visit visit) const {
  const Packing p = unit();
  const int64_t first = coords[0] / p.values;  // a whole element: read_box checks the coordinate
  const uint64_t n = row_elements(), dim0 = map.dims[0] / p.values;
  // a traversal stride in dimension 0 exists for interleaved maps only (validate: 1 otherwise)
  const int64_t step = map.element_strides[0];
  // an interleaved .im2col copy's rows are whole chunks, dimension 0 walked by its pixels
  const bool placed = mode == Mode::Im2col && map.interleave != Interleave::None;
  uint64_t at = shared;
  for (const Row& row : rows())
    for (uint64_t k = 0; k < n; ++k, at += p.shared_bytes) {
      const int64_t c = placed ? 0 : first + static_cast<int64_t>(k) * step;
      const bool inside = row.inside && (placed || (c >= 0 && static_cast<uint64_t>(c) < dim0));
      visit(at, row.global + static_cast<uint64_t>(c) * p.global_bytes, inside);
    }
}

void Box::apply() const {
  each_element([&](uint64_t at, uint64_t global, bool inside) { move(at, global, inside); });
}

std::vector<std::pair<uint64_t, uint64_t>> Box::global_extents() const {
  const uint64_t size = unit().global_bytes;
  std::vector<std::pair<uint64_t, uint64_t>> extents;  // elements inside the tensor, neighbours joined
  each_element([&](uint64_t, uint64_t global, bool inside) {
    if (!inside) return;
    if (!extents.empty() && extents.back().first + extents.back().second == global) extents.back().second += size;
    else extents.push_back({global, size});
  });
  return extents;
}

// One element (an interleaved map's chunk), at unswizzled shared address `at` and global address
// `global`. It moves in pieces of at most 8 bytes at 8-byte boundaries, each contiguous under
// every swizzle (they change address bits 3 and up); an element of the padded types is its packed
// bytes, the padding after them in shared memory left as it was (§5.5.1.1.1: "un-initialized"). A
// 16u6_align16b store is the .b6p2x16 form: 16 shared bytes, the 6-bit values in their low bits,
// packed into 12 bytes.
void Box::move(uint64_t at, uint64_t global, bool inside) const {
  const Packing p = unit();
  auto pieces = [&](unsigned size, auto each) {
    for (unsigned j = 0; j < size; j += 8)
      each(warp->access(Space::Shared, swizzled(at + j), std::min(8u, size - j), lane, false), j, std::min(8u, size - j));
  };
  uint8_t bytes[32] = {};
  if (load) {
    if (inside) {
      std::memcpy(bytes, warp->access(Space::Global, global, p.global_bytes, lane, false), p.global_bytes);
      // a .tf32 tensor's f32 values load rounded to tf32: to nearest, ties away from zero, as
      // cvt.rna.tf32.f32 (§9.7.9.21), Inf and NaN unchanged (H100, tests/hw/tma and interleave)
      if (map.type == DataType::TF32 || map.type == DataType::TF32Ftz)
        for (unsigned j = 0; j < p.global_bytes; j += 4) {
          uint32_t v;
          std::memcpy(&v, bytes + j, 4);
          if ((v & 0x7f800000u) != 0x7f800000u) v = (v + 0x1000u) & ~0x1fffu;
          std::memcpy(bytes + j, &v, 4);
        }
    } else if (map.oob == OobFill::NanRequestZeroFma) {
      // the OOB-NaN (§5.5.3.3), which an H100 writes as 0x7ff7 in every 16 bits of the element (a
      // NaN of f16, bf16, f32 and f64)
      for (unsigned j = 0; j < sizeof bytes; j += 2) bytes[j] = 0xf7, bytes[j + 1] = 0x7f;
    }
    pieces(p.global_bytes, [&](uint8_t* s, unsigned j, unsigned n) { std::memcpy(s, bytes + j, n); });
    return;
  }
  if (!inside) return;
  uint8_t* gmem = warp->access(Space::Global, global, p.global_bytes, lane, false);
  // element by element of the map's type (an interleaved chunk holds several), with the bulk
  // reductions' arithmetic (numeric::combine_for)
  if (combine) {
    const unsigned size = packing(map.type).shared_bytes;
    for (unsigned j = 0; j < p.shared_bytes; j += size)
      numeric::combine_atomically(combine, gmem + j, warp->access(Space::Shared, swizzled(at + j), size, lane, false), size, true);
    return;
  }
  pieces(p.shared_bytes, [&](const uint8_t* s, unsigned j, unsigned n) { std::memcpy(bytes + j, s, n); });
  if (map.type == DataType::U6x16Align16) {  // value i in bits 6i .. 6i + 5 of the 12 bytes
    uint8_t packed[12] = {};
    for (unsigned bit = 0; bit < 96; ++bit) packed[bit / 8] |= (bytes[bit / 6] >> bit % 6 & 1) << bit % 8;
    std::memcpy(bytes, packed, sizeof packed);
  }
  std::memcpy(gmem, bytes, p.global_bytes);
}

}  // namespace ptxvm::units::tma
