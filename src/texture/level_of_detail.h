// The level of detail tex.grad asks for in a 2D image, as an H200 computes it (tests/hw/texture_lod,
// where every lookup of one gradient and 94% of those of two match it).
#pragma once

namespace ptxvm::texture {

// Gradients in texels; -infinity when both are zero.
float grad_level_2d(float ddx_u, float ddx_v, float ddy_u, float ddy_v);

}  // namespace ptxvm::texture
