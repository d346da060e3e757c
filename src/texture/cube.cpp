#include "texture/cube.h"

#include <bit>
#include <cmath>
#include <limits>
#include <optional>

#include "numeric/sfu.h"
#include "texture/level_of_detail.h"

namespace ptxvm::texture {

namespace {

using Point = std::array<double, 3>;

// A direction as the H100 reads it: NaN components as 0; one with an infinite component, or none
// but zeros, as face +z's centre (0, 0, 1); subnormal components as they are.
Point readable(const std::array<float, 3>& d) {
  Point p;
  for (int c = 0; c < 3; ++c) p[c] = std::isnan(d[c]) ? 0 : d[c];
  if (std::isinf(p[0]) || std::isinf(p[1]) || std::isinf(p[2]) || (p[0] == 0 && p[1] == 0 && p[2] == 0)) return {0, 0, 1};
  return p;
}

}  // namespace

Face cube_face(float x, float y, float z) {
  const Point p = readable({x, y, z});
  x = float(p[0]), y = float(p[1]), z = float(p[2]);
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float sc, tc, ma;
  uint32_t face;
  if (az >= ax && az >= ay) {  // ties go to z, then to y (the H100)
    face = z >= 0 ? 4 : 5, ma = az, sc = z >= 0 ? x : -x, tc = -y;
  } else if (ay >= ax) {
    face = y >= 0 ? 2 : 3, ma = ay, sc = x, tc = y >= 0 ? z : -z;
  } else {
    face = x >= 0 ? 0 : 1, ma = ax, sc = x >= 0 ? -z : z, tc = -y;
  }
  // sc/|ma| and tc/|ma| as the H200 forms them: |ma|'s reciprocal from the special-function unit
  // (rcp.approx.f32), times sc and tc in f32 (tests/hw/texture_lod/cube_quotient.bin.xz: every one
  // of 24,576 lookups on texel edges, where an exact quotient misses 2,300); a subnormal |ma|,
  // whose reciprocal overflows, divides (tests/hw/texture's "cube" lookup 821).
  const float r = std::bit_cast<float>(numeric::sfu_approx(numeric::SfuFn::Rcp, std::bit_cast<uint32_t>(ma)));
  if (!std::isfinite(r)) return {face, (double(sc / ma) + 1) * 0.5, (double(tc / ma) + 1) * 0.5};
  return {face, (double(sc * r) + 1) * 0.5, (double(tc * r) + 1) * 0.5};
}

namespace {

// Each face's (sc, tc, ma) as ± axes of (x, y, z).
constexpr int8_t kMap[6][3][3] = {
    {{0, 0, -1}, {0, -1, 0}, {1, 0, 0}}, {{0, 0, 1}, {0, -1, 0}, {-1, 0, 0}}, {{1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
    {{1, 0, 0}, {0, 0, -1}, {0, -1, 0}}, {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}}, {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}}};

// (sc, tc) / |ma| of a point as face `face` maps it, in [-1, 1] on the face.
std::array<double, 2> on_face(uint32_t face, const Point& v) {
  const double x = v[0], y = v[1], z = v[2];
  double r[3];
  for (int k = 0; k < 3; ++k) r[k] = kMap[face][k][0] * x + kMap[face][k][1] * y + kMap[face][k][2] * z;
  return {r[0] / std::fabs(r[2]), r[1] / std::fabs(r[2])};
}

// Where q, which lies on face `other`, lands as face `face` sees it: on that face, its coordinates;
// on a neighbouring face, that face unfolded about their shared edge onto the plane of `face`.
// std::nullopt on the opposite face.
std::optional<std::array<double, 2>> unfolded(uint32_t face, const Point& q, uint32_t other) {
  if (other == face) return on_face(face, q);
  const unsigned k = face / 2, kq = other / 2;
  if (kq == k) return std::nullopt;
  const double sign = face % 2 ? -1 : 1, across = std::fabs(q[k]) / std::fabs(q[kq]);
  Point u;
  u[k] = sign;
  u[kq] = std::copysign(q[k] * sign > 0 ? 2 - across : 2 + across, q[kq]);
  u[3 - k - kq] = q[3 - k - kq] / std::fabs(q[kq]);
  return on_face(face, u);
}

}  // namespace

FaceGradients face_gradients(const std::array<float, 3>& direction, const std::array<float, 3>& ddx,
                             const std::array<float, 3>& ddy, uint32_t size) {
  const Face f = cube_face(direction[0], direction[1], direction[2]);
  const Point p = readable(direction);
  const std::array<double, 2> from = on_face(f.face, p);
  const double half = 0.5 * size;
  FaceGradients out;
  // The end of each gradient is a direction of its own, in f32, read as cube_face reads one (a
  // NaN component as 0: the H100, tests/hw/texture's "grad cube" lookup with a NaN gradient).
  auto project = [&](const std::array<float, 3>& g, float (&o)[3]) {
    const Point q = readable({float(float(p[0]) + g[0]), float(float(p[1]) + g[1]), float(float(p[2]) + g[2])});
    uint32_t other = cube_face(float(q[0]), float(q[1]), float(q[2])).face;
    // The end leaves the face only where another axis is strictly longer (an end on the edge stays:
    // tests/hw/texture_lod/cube_edge.bin.xz).
    const unsigned k = f.face / 2;
    if (std::fabs(q[k]) >= std::fabs(q[other / 2]) && (q[k] < 0) == (f.face % 2 == 1)) other = f.face;
    out.crosses_edge |= other != f.face;
    const std::optional<std::array<double, 2>> to = unfolded(f.face, q, other);
    if (!to) {  // through the cube onto the opposite face (unmeasured): the whole cube
      o[0] = std::numeric_limits<float>::infinity();
      return;
    }
    std::array<double, 2> start = from, end = *to;
    if (other != f.face) {
      // Across an edge the start's distance to that edge and the end's distance beyond it are each
      // cut to 10 significant bits (in the face's [-1, 1] units) before they are subtracted
      // (tests/hw/texture_lod/cube_edge.bin.xz and cube_edges.bin.xz: every one of 28,672 levels,
      // every edge of every face; helpers found the rule from the misses).
      const unsigned c = kMap[f.face][0][other / 2] != 0 ? 0 : 1;  // the across-edge coordinate
      const double edge = (*to)[c] < 0 ? -1 : 1;
      const double before = std::fabs(edge - from[c]), beyond = std::fabs((*to)[c]) - 1;
      start[c] = edge - edge * cut(before, before, 9);
      end[c] = edge + edge * cut(beyond, beyond, 9);
    }
    o[0] = float((end[0] - start[0]) * half);
    o[1] = float((end[1] - start[1]) * half);
  };
  project(ddx, out.ddx);
  project(ddy, out.ddy);
  return out;
}

}  // namespace ptxvm::texture
