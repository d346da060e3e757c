// The lookups of cube_quotient.cu (issue 21), shared by the probe that recorded them on an H200 and
// by the replay: point lookups into a cube map whose face coordinate sc/|ma| (or tc/|ma|) is
// exactly a texel edge, for every |ma| = 1 + i/1024 in [1, 2), so that the texel read tells whether
// the H200's quotient lands on or below the edge.
#pragma once

#include <vector>

namespace cube_quotient {

struct Lookup {
  float dir[3];
};

// Face +y (ma = y, sc = x, tc = z) and face +x (ma = x, sc = -z, tc = -y); the quotient c = n/32 - 1
// of 64-texel faces for n in {8, 16, 33, 40, 56, 63}, on sc and then on tc (the other one 0.1).
inline std::vector<Lookup> lookups() {
  std::vector<Lookup> v;
  const int edges[6] = {8, 16, 33, 40, 56, 63};
  for (int face = 0; face < 2; ++face)
    for (int on_t = 0; on_t < 2; ++on_t)
      for (int n : edges)
        for (int i = 0; i < 1024; ++i) {
          const float ma = 1 + float(i) / 1024, q = ma * (float(n) / 32 - 1), other = ma * 0.1f;
          const float sc = on_t ? other : q, tc = on_t ? q : other;
          if (face == 0) v.push_back({{sc, ma, tc}});
          else v.push_back({{ma, -tc, -sc}});
        }
  return v;
}

}  // namespace cube_quotient
