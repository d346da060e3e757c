// Cube maps (PTX §9.7.10.3 tex.cube, tex.acube; 001_23fdd5978b24a3ed.txt): which face a direction
// looks at, where on it, and what a lookup's direction-space gradients span on that face.
#pragma once

#include <array>
#include <cstdint>

namespace ptxvm::texture {

// A cube direction's face (0-5: +x, -x, +y, -y, +z, -z) and its (s, t) in [0, 1] (CUDA
// Programming Guide, "Cubemap Textures"). As the H100 reads a direction: NaN components as 0; one
// with an infinite component, or none but zeros, as face +z's centre; subnormals as they are.
struct Face {
  uint32_t face;
  double s, t;  // exact from the f32 quotient: a direction just off a texel edge stays on its side (the H100)
};
Face cube_face(float x, float y, float z);

// tex.grad's gradients as a cube face's texels see them: the distances, in texels of a face of
// `size` texels, from where the direction lands on its face to where the direction plus each
// gradient lands, on the same face or unfolded across its edge onto the plane of the face (the
// H100: tests/hw/texture/filter, cube_grad.bin.xz). crosses_edge: a gradient's end lies on another
// face; the H100 then filters isotropically, its footprint the longer of the two distances.
struct FaceGradients {
  float ddx[3] = {}, ddy[3] = {};
  bool crosses_edge = false;
};
FaceGradients face_gradients(const std::array<float, 3>& direction, const std::array<float, 3>& ddx,
                             const std::array<float, 3>& ddy, uint32_t size);

}  // namespace ptxvm::texture
