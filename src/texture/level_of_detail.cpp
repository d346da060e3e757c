// tex.grad's level of detail (level_of_detail.h), from the H200's lookups recorded in
// tests/hw/texture_lod: lod_dense.bin.xz (1,048,576 lookups of one and two gradients in 2D, every one
// exact with this rule), lod.txt and lod3d.txt:
//  - each gradient component keeps 10 significant bits (truncated);
//  - a vector's length is max + 11/32 mid + 1/4 min of its components' magnitudes, the middle term
//    rounded half up to 11 bits below mid's leading one, the last cut to 9 bits below the exact
//    11/32 mid's leading one (in 2D, max + 11/32 min);
//  - the footprint is the longest of the two gradients and 11/16 of their sum and difference (so
//    parallel gradients lengthen it, perpendicular ones do not; major_axis compares them). Each
//    component of the sum adds the smaller operand cut towards zero to 10 bits below the larger's
//    leading one, then keeps 10 significant bits; 11/16 of its length is 11/16 max rounded half up
//    to 10 bits below max's leading one, plus the rest cut to 9 bits below that first part's
//    leading one: 121/512 mid and 11/64 min, each plus 1/16 of its operand's 10-bit unit, cut to 9
//    bits below the exact 121/512 mid's leading one (lod3d_dense.bin.xz and lod3d_rest.bin.xz:
//    every lookup in a volume; a helper read the 1/16 off the steps of a swept smallest component);
//  - its logarithm takes the exponent and a table of the first 8 fraction bits, in 1/256 steps
//    (lod_dense's 65,536 lengths from 1 to 2: the table alone decides).
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

// The unit `bits` below the leading one of `reference` (> 0).
double unit_below(double reference, int bits) { return std::ldexp(1.0, std::ilogb(reference) - bits); }

// v (>= 0) rounded half up to a multiple of the unit `bits` below `reference`'s leading one.
double round_half_up(double v, double reference, int bits) {
  if (!(reference > 0)) return 0;
  const double u = unit_below(reference, bits);
  return std::floor(v / u + 0.5) * u;
}

// One component of the sum (or, with b negated, the difference) of two gradients: the smaller
// operand cut towards zero to 10 bits below the larger's leading one.
float aligned_sum(float a, float b) {
  const float big = std::fabs(a) >= std::fabs(b) ? a : b, small = std::fabs(a) >= std::fabs(b) ? b : a;
  if (big == 0) return 0;
  const double u = unit_below(std::fabs(big), 10);
  return big + float(std::trunc(double(small) / u) * u);
}

// The magnitudes of a vector's components, significant(), largest first.
struct Sorted {
  double max, mid, min;
};
Sorted sorted(const float (&v)[3]) {
  float c[3] = {significant(v[0]), significant(v[1]), significant(v[2])};
  std::sort(c, c + 3);
  return {c[2], c[1], c[0]};
}

// 11/16 of the length of the sum or difference `v` of two gradients (see the top).
float scaled_length(const float (&v)[3]) {
  const Sorted c = sorted(v);
  const double major = round_half_up(11.0 / 16 * c.max, c.max, 10);
  const double mid = 121.0 / 512 * c.mid;
  auto term = [mid](double scaled, double operand) {  // plus 1/16 of the operand's 10-bit unit, cut
    return operand > 0 ? cut(scaled + unit_below(operand, 9) / 16, mid, 9) : 0.0;
  };
  const double rest = term(mid, c.mid) + term(11.0 / 64 * c.min, c.min);
  return float(major + cut(rest, major, 9));
}

}  // namespace

double cut(double v, double reference, int bits) {
  if (!(reference > 0)) return 0;
  const double u = unit_below(reference, bits);
  return std::floor(v / u) * u;
}

float significant(float x) {
  if (std::isnan(x)) return 0;  // a NaN component counts as 0 (tests/hw/texture's "grad 2d ... bias 1")
  int e;
  const float m = std::frexp(std::fabs(x), &e);
  return std::ldexp(std::floor(m * 1024) / 1024, e);
}

float grad_length(const float (&v)[3]) {
  const Sorted c = sorted(v);
  const double mid = 11.0 / 32 * c.mid;
  return float(c.max + round_half_up(mid, c.mid, 11) + cut(c.min / 4, mid, 9));
}

int32_t log2_steps(float length) {
  int e;
  const float m = std::frexp(length, &e);  // length = 2^(e-1) (1 + f/256 + ...)
  const unsigned f = std::min(255u, static_cast<unsigned>((m * 2 - 1) * 256));
  return 256 * (e - 1) + int32_t(kLog2[f]);
}

MajorAxis major_axis(const float (&ddx)[3], const float (&ddy)[3], bool across) {
  const float lx = grad_length(ddx), ly = grad_length(ddy);
  // The candidates in the order ddx, sum, ddy, difference: a later one is the major axis only where
  // its length, kept to 10 significant bits, is greater than the one before it (filter probe part
  // 32: the way each of 962 sums and differences that tie the longer gradient stepped; a helper's
  // search over the comparison's width, order and tie rule). So a sum that ties ddy wins and one
  // that ties ddx does not, and a difference never wins a tie.
  MajorAxis m{lx, {}};
  std::copy_n(ddx, 3, m.v);
  auto consider = [&m](float length, const float (&v)[3]) {
    if (significant(length) > significant(m.length)) m.length = length, std::copy_n(v, 3, m.v);
  };
  if (!across) {
    consider(ly, ddy);
    return m;
  }
  float sum[3], difference[3];
  for (int i = 0; i < 3; ++i) {
    const float x = std::copysign(significant(ddx[i]), ddx[i]), y = std::copysign(significant(ddy[i]), ddy[i]);
    // the difference points from the shorter gradient to the longer (the way an anisotropic
    // footprint steps: tests/hw/texture/filter part 29, all 48 angles)
    sum[i] = aligned_sum(x, y), difference[i] = lx >= ly ? aligned_sum(x, -y) : aligned_sum(y, -x);
  }
  // A sum or difference steps along itself scaled as its length is: each component 11/16 of its 10
  // significant bits, rounded half up to 10 bits below its own leading one (filter probes: every
  // direction of parts 23, 24, 29 and 31; cutting instead, or rounding at 11 bits, loses
  // footprints of parts 23, 24, 29 and 31).
  auto scaled = [](const float (&v)[3], float (&out)[3]) {
    for (int i = 0; i < 3; ++i) {
      const double c = 11.0 / 16 * significant(v[i]);
      out[i] = std::copysign(float(round_half_up(c, c, 10)), v[i]);
    }
  };
  float sum_axis[3], difference_axis[3];
  scaled(sum, sum_axis), scaled(difference, difference_axis);
  consider(scaled_length(sum), sum_axis);
  consider(ly, ddy);
  consider(scaled_length(difference), difference_axis);
  return m;
}

float grad_level(const float (&ddx)[3], const float (&ddy)[3], bool across) {
  const float footprint = major_axis(ddx, ddy, across).length;
  if (!(footprint > 0)) return -std::numeric_limits<float>::infinity();
  if (std::isinf(footprint) || std::isnan(footprint)) return footprint;
  return float(log2_steps(footprint)) / 256;
}

}  // namespace ptxvm::texture
