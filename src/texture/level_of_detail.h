// The level of detail tex.grad asks for in a 1D, 2D or 3D image, as an H200 computes it
// (tests/hw/texture_lod, where every lookup of one gradient and 89-95% of those of two match it).
#pragma once

namespace ptxvm::texture {

// Gradients in texels (the components an image lacks are zero); -infinity when both are zero.
float grad_level(const float (&ddx)[3], const float (&ddy)[3]);

}  // namespace ptxvm::texture
