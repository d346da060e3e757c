// tex.grad's level of detail (level_of_detail.h), from the H200's lookups recorded in
// tests/hw/texture_lod (lod.txt in 2D, lod3d.txt in 3D):
//  - each gradient component keeps 10 significant bits (truncated);
//  - a vector's length is max + 1409/4096 mid + 1/4 min of its components' magnitudes (in 2D, max
//    + 1409/4096 min);
//  - the footprint is the longer of the two gradients' lengths and 11/16 of the longer of their
//    sum's and difference's (so parallel gradients lengthen it, perpendicular ones do not), the
//    sum and difference of the components cut to 10 bits (lod.txt: 57 of 1,391 two-gradient
//    lookups missed, against 72 summing the components whole; cube_grad.bin.xz: 89 of 4,320
//    against 152);
//  - its logarithm takes the exponent and a table of the first 8 fraction bits, in 1/256 steps.
#include "texture/level_of_detail.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ptxvm::texture {
namespace {

// 256 log2(1 + f/256), as the H200 answers for f = 0..255 (the sweep of one axis-aligned gradient
// from 1 to 2 texels in tests/hw/texture_lod/lod.txt): within one step of the exact value rounded up.
constexpr uint16_t kLog2[256] = {
    0, 2, 4, 5, 6, 8, 9, 11, 12, 13, 15, 16, 18, 19, 20, 22,
    23, 24, 26, 27, 28, 30, 31, 32, 34, 35, 36, 38, 39, 40, 42, 43,
    44, 45, 47, 48, 49, 50, 52, 53, 54, 55, 57, 58, 59, 60, 62, 63,
    64, 65, 66, 68, 69, 70, 71, 72, 74, 75, 76, 77, 78, 79, 81, 82,
    83, 84, 85, 86, 88, 89, 90, 91, 92, 93, 94, 95, 97, 98, 99, 100,
    101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117,
    118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133,
    135, 136, 137, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
    150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
    165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179,
    180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193,
    194, 195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206,
    207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219,
    220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232,
    233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
    245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255,
};

}  // namespace

float significant(float x) {
  int e;
  const float m = std::frexp(std::fabs(x), &e);
  return std::ldexp(std::floor(m * 1024) / 1024, e);
}

float grad_length(const float (&v)[3]) {
  float c[3] = {significant(v[0]), significant(v[1]), significant(v[2])};
  std::sort(c, c + 3);
  return c[2] + c[1] * (1409.0f / 4096) + c[0] * 0.25f;
}

int32_t log2_steps(float length) {
  int e;
  const float m = std::frexp(length, &e);  // length = 2^(e-1) (1 + f/256 + ...)
  const unsigned f = std::min(255u, static_cast<unsigned>((m * 2 - 1) * 256));
  return 256 * (e - 1) + int32_t(kLog2[f]);
}

MajorAxis major_axis(const float (&ddx)[3], const float (&ddy)[3], bool across) {
  const float lx = grad_length(ddx), ly = grad_length(ddy);
  MajorAxis m{std::max(lx, ly), {}};
  std::copy_n(lx >= ly ? ddx : ddy, 3, m.v);
  if (!across) return m;
  float sum[3], difference[3];
  for (int i = 0; i < 3; ++i) {
    const float x = std::copysign(significant(ddx[i]), ddx[i]), y = std::copysign(significant(ddy[i]), ddy[i]);
    // the difference points from the shorter gradient to the longer (the way an anisotropic
    // footprint steps: tests/hw/texture/filter part 29, all 48 angles)
    sum[i] = x + y, difference[i] = lx >= ly ? x - y : y - x;
  }
  const float ls = grad_length(sum), ld = grad_length(difference), l = std::max(ls, ld) * (11.0f / 16);
  if (l > m.length) {
    m.length = l;
    for (int i = 0; i < 3; ++i) m.v[i] = (ls >= ld ? sum : difference)[i] * (11.0f / 16);
  }
  return m;
}

float grad_level(const float (&ddx)[3], const float (&ddy)[3], bool across) {
  const float footprint = major_axis(ddx, ddy, across).length;
  if (!(footprint > 0)) return -std::numeric_limits<float>::infinity();
  if (std::isinf(footprint) || std::isnan(footprint)) return footprint;
  return float(log2_steps(footprint)) / 256;
}

}  // namespace ptxvm::texture
