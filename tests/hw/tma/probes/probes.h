// The TMA probes of probes.inc (written by probes.py): shared by probe.cu, which
// records them on a GPU, and tests/units/tma_probes_hw_test.cpp, which replays them.
#pragma once

struct Probe {
  const char* name;
  char dir;  // 'L' load, 'I' im2col load, 'S' store, 'R' .add reduction, 'J' .im2col_no_offs store,
             // 'K' .im2col_no_offs .add reduction
  unsigned type, elem_bytes, interleave, swizzle, oob, rank;  // CUtensorMap* enumerations by value
  unsigned long long dims[5], strides[4];
  unsigned box[5], estr[5];
  unsigned sets;
  int coords[4][5];
  int lower[3], upper[3];  // an im2col map's bounding box (cuTensorMapEncodeIm2col),
  unsigned channels, pixels;
  int offsets[4][3];       // and each coordinate set's im2col offsets
};

inline constexpr Probe kProbes[] = {
#include "probes.inc"
};
