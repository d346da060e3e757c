// The lookups of cube_edges.cu (issue 21), shared by the probe that recorded them on an H200 and by
// the replay: from two points on each face of a cube, a gradient along each of the face's four
// edge directions (in direction space) sweeping its end across that edge.
#pragma once

#include <vector>

namespace cube_edges {

struct Lookup {
  float dir[3], ddx[3];
};

// Face major axis k with sign s: the direction has s on axis k and the start's two offsets on the
// other two axes; the gradient runs along one of those axes, + or -, with length i * 3/256, i = 0..255.
inline std::vector<Lookup> lookups() {
  std::vector<Lookup> v;
  const float starts[2][2] = {{0.3f, -0.6f}, {-0.45f, 0.7f}};
  for (int k = 0; k < 3; ++k)
    for (float s : {1.0f, -1.0f})
      for (const auto& st : starts)
        for (int axis = 1; axis <= 2; ++axis)
          for (float sign : {1.0f, -1.0f})
            for (int i = 0; i < 256; ++i) {
              Lookup l{};
              l.dir[k] = s, l.dir[(k + 1) % 3] = st[0], l.dir[(k + 2) % 3] = st[1];
              l.ddx[(k + axis) % 3] = sign * float(i) * 3 / 256;
              v.push_back(l);
            }
  return v;
}

}  // namespace cube_edges
