// The seeded generator every hardware-vector recorder (tests/hw/*/record_*.cu) and its replaying
// test share: splitmix64 (Steele, Lea, Flood 2014). Integer arithmetic only, so every host and
// the GPU machine regenerate the same operands from a seed.
#pragma once

#include <cstdint>

namespace ptxvm_hw_seed {

inline uint64_t splitmix64(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace ptxvm_hw_seed
