// The rows (pixels) of the im2col boxes (PTX §5.5.4, §5.5.5; 001_23fdd5978b24a3ed.txt): each pixel
// is `channels` elements from the C coordinate on (with an interleaved map, one chunk), the pixels
// one after another in shared memory.
#include "units/tma/box.h"

namespace ptxvm::units::tma {

std::vector<Box::Row> Box::im2col_rows() const {
  const unsigned n_dim = map.rank - 1;
  const bool interleaved = map.interleave != Interleave::None;
  auto inside = [&](unsigned d, int64_t g) { return g >= 0 && static_cast<uint64_t>(g) < map.dims[d]; };
  // dimension 0 of an interleaved map counts chunks
  auto step = [&](unsigned d, int64_t g) {
    return static_cast<uint64_t>(g) * (d ? map.strides[d - 1] : unit().global_bytes);
  };
  int64_t n = coords[n_dim];
  std::vector<Row> rows;
  if (mode == Mode::Im2col) {
    // .im2col (§5.5.4): the pixels are filter bases in the bounding box [lower, dim - 1 + upper]
    // of each spatial dimension, from the coordinates on, W fastest, then H, D and the image N,
    // each stepped by its traversal stride; a pixel reads the element at its base plus the
    // instruction's offsets. Through an interleaved map (tests/hw/tma/probes, 40 copies, every
    // byte) the spatial dimensions shift down by one, as a tiled copy's do: they are 0 .. rank-3,
    // dimension 0 in chunks, and the dimension before the last stays at its coordinate; a pixel
    // is one chunk, whatever channelsPerPixel says.
    const unsigned spatial = map.rank - 2, first = interleaved ? 0 : 1, fixed = map.rank - 2;
    Row start{map.address, true};
    if (interleaved) start = {map.address + step(fixed, coords[fixed]), inside(fixed, coords[fixed])};
    int64_t base[3] = {};
    for (unsigned i = 0; i < spatial; ++i) base[i] = coords[first + i];
    for (uint32_t p = 0; p < map.pixels; ++p) {
      Row row{start.global + step(n_dim, n), start.inside && inside(n_dim, n)};
      for (unsigned i = 0; i < spatial; ++i) {
        const int64_t g = base[i] + info[i];
        row.inside = row.inside && inside(first + i, g);
        row.global += step(first + i, g);
      }
      rows.push_back(row);
      unsigned i = 0;  // the next base: W first, carrying into H, D, then N
      for (; i < spatial; ++i) {
        base[i] += map.element_strides[first + i];
        if (base[i] <= static_cast<int64_t>(map.dims[first + i]) - 1 + map.upper[i]) break;
        base[i] = map.lower[i];
      }
      if (i == spatial) n += map.element_strides[n_dim];
    }
    return rows;
  }
  // .im2col::w and .im2col::w::128 (§5.5.5): the pixels of one row of W, H and D fixed at their
  // coordinates. W runs from its coordinate (which may lie left of the bounding box, §5.5.5.1) by
  // its traversal stride through the box [lowerW, W - 1 + upperW], wOffset added to all three
  // (§5.5.5.4); past the box it carries into the next image, N stepped by its traversal stride
  // (ptxvm's reading: as .im2col carries from W, the dimensions between held). .im2col::w loads
  // pixelsPerColumn pixels and then the wHalo pixels that follow them; .im2col::w::128 loads 128
  // pixels in four groups of 32, each followed by the wHalo pixels that follow it (§5.5.5.3: the
  // halo "next to the main row pixels" in shared memory).
  const int64_t halo = info[0], offset = info[1];
  const int64_t lo = map.lower[0] + offset, hi = static_cast<int64_t>(map.dims[1]) - 1 + map.upper[0] + offset;
  Row fixed{map.address, true};  // H and D
  for (unsigned d = 2; d < n_dim; ++d) {
    fixed.inside = fixed.inside && inside(d, coords[d]);
    fixed.global += step(d, coords[d]);
  }
  std::vector<Row> line;  // the pixels in traversal order
  const int64_t count = (mode == Mode::Im2colW128 ? 128 : map.pixels) + halo;
  for (int64_t w = coords[1] + offset, k = 0; k < count; ++k) {
    line.push_back({fixed.global + step(1, w) + step(n_dim, n), fixed.inside && inside(1, w) && inside(n_dim, n)});
    if ((w += map.element_strides[1]) > hi) w = lo, n += map.element_strides[n_dim];
  }
  if (mode == Mode::Im2colW) return line;
  for (unsigned group = 0; group < 4; ++group)
    rows.insert(rows.end(), line.begin() + 32 * group, line.begin() + 32 * (group + 1) + halo);
  return rows;
}

}  // namespace ptxvm::units::tma
