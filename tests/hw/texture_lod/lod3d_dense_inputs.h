// The gradient pairs of lod3d_dense.cu (issue 21), shared by the probe that recorded them on an H200
// and by the replay: ddx, ddy in texels of a 128^3 texture of 8 levels, isotropic filtering.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace lod3d_dense {

struct Lookup {
  float ddx[3], ddy[3];
  uint32_t set;
};

// The sets, in the order they are recorded:
//  0 one gradient (p, q, r)/32, p, q = 0..63, r in {0, 8, 16, 24, 32, 48};
//  1 a 2D sum in the volume: ddx = (floor(p/2), floor(q/2), 0)/32, ddy = (ceil(p/2), ceil(q/2), 0)/32,
//    p, q = 0..255;
//  2 the sum with a third component: as set 1 for p, q = 0..127 with r in {16, 32, 48, 64, 96, 127};
//  3 the difference: ddx = (ceil(p/2), ceil(q/2), ceil(r/2))/32, ddy = -(floor(...))/32, as set 2;
//  4 65,536 random pairs (components ±2^(5u) v, u and v uniform).
inline std::vector<Lookup> lookups() {
  std::vector<Lookup> v;
  for (int r : {0, 8, 16, 24, 32, 48})
    for (int q = 0; q < 64; ++q)
      for (int p = 0; p < 64; ++p) v.push_back({{p / 32.0f, q / 32.0f, r / 32.0f}, {0, 0, 0}, 0});
  for (int q = 0; q < 256; ++q)
    for (int p = 0; p < 256; ++p)
      v.push_back({{(p / 2) / 32.0f, (q / 2) / 32.0f, 0}, {((p + 1) / 2) / 32.0f, ((q + 1) / 2) / 32.0f, 0}, 1});
  for (int set : {2, 3})
    for (int r : {16, 32, 48, 64, 96, 127})
      for (int q = 0; q < 128; ++q)
        for (int p = 0; p < 128; ++p) {
          const float lo[3] = {(p / 2) / 32.0f, (q / 2) / 32.0f, (r / 2) / 32.0f};
          const float hi[3] = {((p + 1) / 2) / 32.0f, ((q + 1) / 2) / 32.0f, ((r + 1) / 2) / 32.0f};
          if (set == 2) v.push_back({{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}, 2});
          else v.push_back({{hi[0], hi[1], hi[2]}, {-lo[0], -lo[1], -lo[2]}, 3});
        }
  uint64_t state = 0x853c49e6748fea9bull;
  auto uniform = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return float(state >> 40) / 16777216.0f;
  };
  auto component = [&] {
    const float scale = std::exp2(5 * uniform());
    return (uniform() < 0.5f ? -scale : scale) * uniform();
  };
  for (int i = 0; i < 65536; ++i) {
    Lookup l{{component(), component(), component()}, {component(), component(), component()}, 4};
    v.push_back(l);
  }
  return v;
}

}  // namespace lod3d_dense
