// The lookups of cube_edge.cu (issue 21), shared by the probe that recorded them on an H200 and by
// the replay: a direction on face +x and one gradient (in direction space) whose end sweeps across
// the edge onto face +y, so that the level read follows the length of the gradient as the cube
// unfolds it.
#pragma once

#include <vector>

namespace cube_edge {

struct Lookup {
  float dir[3], ddx[3];
};

// Directions (1, t, s) for four (t, s); ddx = (a, g, b) for four (a, b) and g = i/256, i = 0..1023.
inline std::vector<Lookup> lookups() {
  std::vector<Lookup> v;
  const float dirs[4][2] = {{0.3f, -0.6f}, {0.0f, 0.0f}, {-0.5f, 0.25f}, {0.7f, 0.1f}};
  const float sides[4][2] = {{0, 0}, {-0.3f, 0}, {0.3f, 0}, {0, 0.5f}};
  for (const auto& d : dirs)
    for (const auto& s : sides)
      for (int i = 0; i < 1024; ++i) v.push_back({{1, d[0], d[1]}, {s[0], float(i) / 256, s[1]}});
  return v;
}

}  // namespace cube_edge
