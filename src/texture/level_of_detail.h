// The level of detail tex.grad asks for in a 1D, 2D or 3D image, as an H200 computes it
// (tests/hw/texture_lod: every one of lod_dense.bin.xz's 1,048,576 lookups in 2D).
#pragma once

#include <cstdint>

namespace ptxvm::texture {

// Gradients in texels (the components an image lacks are zero); -infinity when both are zero.
// across = false leaves out the sum and difference of the gradients (a cube lookup whose gradients
// cross a face's edge).
float grad_level(const float (&ddx)[3], const float (&ddy)[3], bool across = true);

// The footprint's major axis, whose length's log2 grad_level takes: the longest of the gradients
// and, with `across`, their sum and difference scaled by 11/16 (each scaled component rounded as
// the length's major term is), compared at 10 significant bits with ties to the first of ddx, sum,
// ddy, difference. Anisotropic filtering steps along it (sample.cpp, step_direction; filter probes
// parts 23, 24, 29, 31 and 32: every footprint).
struct MajorAxis {
  float length;
  float v[3];
};
MajorAxis major_axis(const float (&ddx)[3], const float (&ddy)[3], bool across = true);

// The pieces of grad_level that anisotropic filtering reuses (sample.cpp): |x| cut to the 10
// significant bits the H200 keeps of a gradient component, a gradient's length as it measures it,
// and log2 of a positive length in 1/256 steps (exponent and table).
float significant(float x);
float grad_length(const float (&v)[3]);
int32_t log2_steps(float length);

// v (>= 0) cut down to a multiple of the unit `bits` below the leading one of `reference` (0 when
// reference is not positive): cut(v, v, 9) keeps 10 significant bits (cube.cpp's edge crossings).
double cut(double v, double reference, int bits);

}  // namespace ptxvm::texture
