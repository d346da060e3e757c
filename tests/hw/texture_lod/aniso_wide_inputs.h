// The lookups of aniso_wide.cu (issue 21), shared by the probe that recorded them on an H200 and by
// the replay: random anisotropic tex.grad lookups at random places of a 256 x 256 f32 texture of 9
// levels of random texels, under six samplers, to catch what the structured probes miss.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "../splitmix64.h"

namespace aniso_wide {

constexpr int kSize = 256, kLevels = 9, kSamplers = 6, kPerSampler = 25000;
// Sampler s: max anisotropy kLimit[s], the trilinear optimization off where kExact[s].
constexpr int kLimit[kSamplers] = {2, 4, 8, 16, 4, 16};
constexpr bool kExact[kSamplers] = {false, false, false, false, true, true};

// Texel (x, y) of `level`: k / 2^20, k uniform in 0 .. 2^20 - 1.
inline float texel(int level, int x, int y) {
  uint64_t s = (uint64_t(level) << 40 | uint64_t(y) << 20 | uint64_t(x)) * 0x9e3779b97f4a7c15ull;
  return float(ptxvm_hw_seed::splitmix64(s) % (1u << 20)) / float(1u << 20);
}

struct Lookup {
  float x, y;              // normalized coordinates
  float ddx[2], ddy[2];    // in texels of level 0
  uint32_t sampler;
};

// Per sampler kPerSampler lookups: x, y = k / 65536; each gradient component ±m 2^e / 1024 texels,
// m uniform in 0 .. 1023, e in 0 .. 5 (up to 32 texels).
inline std::vector<Lookup> lookups() {
  std::vector<Lookup> v;
  uint64_t s = 21;
  auto next = [&s] { return ptxvm_hw_seed::splitmix64(s); };
  auto component = [&] {
    const uint64_t r = next();
    const float m = float(r % 1024) * float(1u << (r >> 10) % 6) / 1024.0f;
    return (r >> 20) & 1 ? -m : m;
  };
  for (uint32_t sampler = 0; sampler < kSamplers; ++sampler)
    for (int k = 0; k < kPerSampler; ++k) {
      Lookup l;
      l.x = float(next() % 65536) / 65536.0f, l.y = float(next() % 65536) / 65536.0f;
      l.ddx[0] = component(), l.ddx[1] = component(), l.ddy[0] = component(), l.ddy[1] = component();
      l.sampler = sampler;
      v.push_back(l);
    }
  return v;
}

}  // namespace aniso_wide
