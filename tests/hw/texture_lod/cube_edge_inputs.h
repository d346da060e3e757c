// The lookups of cube_edge.cu (issue 21), shared by the probe that recorded them on an H200 and by
// the replay: a direction on a face and one gradient (in direction space) whose end sweeps across
// an edge onto the neighbouring face, so that the level read follows the length of the gradient as
// the cube unfolds it.
#pragma once

#include <vector>

namespace cube_edge {

struct Lookup {
  float dir[3], ddx[3];
};

// cube_edge.bin.xz: directions (1, t, s) on face +x for four (t, s); ddx = (a, g, b) for four (a, b)
// and g = i/256, i = 0..1023, so that the end crosses onto face +y.
inline std::vector<Lookup> one_edge() {
  std::vector<Lookup> v;
  const float dirs[4][2] = {{0.3f, -0.6f}, {0.0f, 0.0f}, {-0.5f, 0.25f}, {0.7f, 0.1f}};
  const float sides[4][2] = {{0, 0}, {-0.3f, 0}, {0.3f, 0}, {0, 0.5f}};
  for (const auto& d : dirs)
    for (const auto& s : sides)
      for (int i = 0; i < 1024; ++i) v.push_back({{1, d[0], d[1]}, {s[0], float(i) / 256, s[1]}});
  return v;
}

// cube_edges.bin.xz: every edge of every face. For the face of major axis k and sign s, two starts
// (the other two axes (k+1)%3 and (k+2)%3 at (0.3, -0.6) or (-0.45, 0.7)), and a gradient along
// each of those axes, + and -, of length i * 3/256, i = 0..255.
inline std::vector<Lookup> every_edge() {
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

}  // namespace cube_edge
