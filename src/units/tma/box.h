// The box of one tensor copy (PTX §5.5, 001_23fdd5978b24a3ed.txt): which elements of the tensor
// it moves and where each lies in shared memory. A box is a list of rows, each a run of elements
// along dimension 0 (in the im2col modes a pixel's channels) from the instruction's first
// coordinate on, laid out one after another in shared memory from the box's address, each
// element's shared address swizzled as the map says. Elements outside the tensor (§5.5.3.3) load
// as zero, or as a NaN with the NaN fill, and are not stored.
//
// An interleaved map (§5.5.6, NC/8HWC8 and NC/16HWC16) moves what an H100 moves
// (tests/hw/tma/probes and interleave.bin.xz, 292 copies, every byte): dimension 0 counts 16-byte (32-byte)
// chunks, not elements — its coordinate, extent, box and traversal stride all — and the dimension
// before the last is not traversed: its coordinate places the box and must lie inside the tensor,
// its box size and traversal stride are ignored. The chunks of each row lie one after another in
// shared memory, swizzled as a tile's. An .im2col copy walks its pixels, a chunk each, through
// the dimensions left (im2col.cpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "numeric/atomic_ops.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::exec {
class Warp;
}

namespace ptxvm::units::tma {

// The instruction's .load_mode (§9.7.9.25.5.2); Rows4 is .tile::gather4 in a load or prefetch
// and .tile::scatter4 in a store.
enum class Mode : uint8_t { Tile, Rows4, Im2col, Im2colW, Im2colW128 };

struct Box {
  TensorMap map;
  Mode mode = Mode::Tile;
  int64_t coords[5] = {};  // tensorCoords: one per dimension; {col, row0, row1, row2, row3} in Rows4
  int64_t info[3] = {};    // im2colInfo: .im2col's offsets (W, H, D); .im2col::w's {wHalo, wOffset}
  uint64_t shared = 0;     // the box's shared::cluster address
  exec::Warp* warp = nullptr;
  int lane = 0;
  bool load = true;
  numeric::Combine combine = nullptr;  // cp.reduce.async.bulk.tensor: each element combined as atom does

  // A row: the global address of its dimension-0 coordinate 0, and whether the row lies inside
  // the tensor (its dimension-0 extent aside).
  struct Row {
    uint64_t global;
    bool inside;
  };

  uint64_t row_count() const;
  uint64_t row_elements() const;  // in units()
  uint64_t bytes() const;         // the box in shared memory
  // A load's tx-count: the box's bytes as its tensor packs them, which 16u4_align16b and
  // 16u6_align16b pad in shared memory. Triton's Blackwell kernels for e2m1 operands of
  // .kind::mxf8f6f4 expect the packed count for a padded box (tutorial 10, "mixed"): the
  // count B200s complete, since those kernels run there.
  uint64_t tx_bytes() const;
  // Moves the box: global -> shared (load) or shared -> global (store).
  void apply() const;
  // The global bytes the box covers inside the tensor: [address, address + bytes) per row.
  std::vector<std::pair<uint64_t, uint64_t>> global_extents() const;

private:
  // What dimension 0 counts: elements of the map's type (packing()), or an interleaved map's chunks.
  Packing unit() const;
  uint32_t count(unsigned d) const;      // .tile: ceil(box[d] / elementStrides[d]) indices of dimension d
  std::vector<Row> rows() const;         // in shared-memory order
  std::vector<Row> im2col_rows() const;  // the im2col modes (im2col.cpp)
  uint64_t swizzled(uint64_t address) const;
  template <typename Visit>
  void each_element(Visit visit) const;  // visit(at, global, inside) per element (box.cpp)
  void move(uint64_t at, uint64_t global, bool inside) const;
};

}  // namespace ptxvm::units::tma
