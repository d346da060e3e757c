// The TMA texts of texts.inc as a table and their inputs: shared by record_tma.cu and
// tests/units/tma_hw_test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw_tma {

struct Text {
  const char* kernel;  // in tma_kernels.ptx
  const char* name;
  char dir;            // 'L' load (global -> shared), 'S' store (shared -> global), 'R' reduction,
                       // 'I' im2col load
  const char* op;      // a reduction's operation ("add", "min", ...)
  unsigned type;       // CUtensorMapDataType
  unsigned elem_bytes, rank;
  uint64_t dims[5], strides[4];
  unsigned box[5], element_strides[5];
  unsigned swizzle, oob, interleave;  // CUtensorMapSwizzle, CUtensorMapFloatOOBfill, CUtensorMapInterleave
  unsigned coordinate_sets;
  int coords[4][5];
  unsigned buffer_bytes, box_bytes, region_bytes;  // the global tensor, the box, the shared buffer
  int lower[3], upper[3];                          // 'I' (im2col): the bounding box's corners,
  unsigned channels, pixels;                       // channels per pixel, pixels per column,
  int offsets[4][3];                               // and the im2col offsets of each set
};

inline constexpr Text kTexts[] = {
#include "texts.inc"
};

inline uint64_t seed_of(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char ch : name) h = (h ^ uint8_t(ch)) * 0x100000001b3ull;
  return h;
}

// Random bytes, n rounded up to whole words.
inline std::vector<uint32_t> words(uint64_t seed, size_t bytes) {
  std::vector<uint32_t> w((bytes + 3) / 4);
  uint64_t s = seed;
  for (uint32_t& x : w) x = uint32_t(ptxvm_hw_seed::splitmix64(s));
  return w;
}

// The tensor's global image before the launch, and a store's shared-buffer contents.
inline std::vector<uint32_t> tensor_image(const Text& t) { return words(seed_of(t.name), t.buffer_bytes); }
inline std::vector<uint32_t> shared_source(const Text& t) { return words(seed_of(t.name) ^ 0x5555, t.region_bytes); }

// Words a launch records: a load's shared buffer and completion flag, a store's tensor image.
inline bool loads(const Text& t) { return t.dir == 'L' || t.dir == 'I'; }
// A load's words: the shared buffer, the completion flag and, for an interleaved map, the raw mbarrier
// word (hardware's own encoding, for reading its pending transaction count; not replayed).
inline size_t compared_words(const Text& t) { return loads(t) ? t.region_bytes / 4 + 1 : (t.buffer_bytes + 3) / 4; }
inline size_t out_words(const Text& t) { return compared_words(t) + (loads(t) && t.interleave ? 2 : 0); }

}  // namespace ptxvm_hw_tma
