// The gradient pairs of aniso_area.cu (issue 21), shared by the probe that recorded them on an H200
// and by the replay: ddx has a length of exactly 8 texels as the H200 measures one gradient
// (max + 11/32 min, level_of_detail.cpp), so that log2 of the major axis is 3 and the level an
// anisotropic lookup reads is log2(area) - 3: the area alone decides it.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace aniso_area {

struct Lookup {
  float ddx[2], ddy[2];
};

// The 55 (max, min) pairs with max + 11/32 min = 8 exactly, min a multiple of 1/64 below 6, both
// of 10 significant bits; each taken as (max, min), (max, -min) and (min, max), and for each 2,000
// ddy = (c, e)/64 (c, e in [-192, 192], drawn by an LCG) whose cross product with ddx lies in
// [8, 24], so that the minor axis is 1 to 3 texels.
inline std::vector<Lookup> lookups() {
  auto significant = [](double x) {
    int e;
    const double m = std::frexp(x, &e);
    return std::ldexp(std::floor(m * 1024) / 1024, e);
  };
  std::vector<Lookup> v;
  uint64_t state = 0x2545f4914f6cdd1dull;
  auto next = [&state](int span) {  // 0 .. span-1
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return int((state >> 33) % uint64_t(span));
  };
  for (int k = 1; k < 6 * 64; ++k) {
    const double min = k / 64.0, step = std::ldexp(1.0, std::ilogb(min) - 11);
    const double max = 8 - std::floor(11.0 / 32 * min / step + 0.5) * step;
    if (max < min || significant(max) != max || significant(min) != min) continue;
    const float forms[3][2] = {{float(max), float(min)}, {float(max), float(-min)}, {float(min), float(max)}};
    for (const auto& dx : forms)
      for (int n = 0; n < 2000;) {
        const float c = float(next(385) - 192) / 64, e = float(next(385) - 192) / 64;
        const double area = std::fabs(double(dx[0]) * e - double(dx[1]) * c);
        if (area < 8 || area > 24) continue;
        v.push_back({{dx[0], dx[1]}, {c, e}});
        ++n;
      }
  }
  return v;
}

}  // namespace aniso_area
