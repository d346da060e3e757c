// The interleaved-TMA probes of probes.inc (written by probes.py): shared by probe.cu, which
// records them on a GPU, and tests/units/tma_interleave_hw_test.cpp, which replays them.
#pragma once

struct Probe {
  const char* name;
  char dir;  // 'L' load, 'S' store, 'R' .add reduction
  unsigned type, elem_bytes, interleave, swizzle, oob, rank;  // CUtensorMap* enumerations by value
  unsigned long long dims[5], strides[4];
  unsigned box[5], estr[5];
  unsigned sets;
  int coords[4][5];
};

inline constexpr Probe kProbes[] = {
#include "probes.inc"
};
