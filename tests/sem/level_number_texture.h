// A texture whose mip levels hold their own index, so that tex.grad reads the level of detail it
// chose (the texture_lod probes' textures, tests/hw/texture_lod/level_numbers.h): shared by the
// replays of tests/hw/texture_lod.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "texture/sample.h"

namespace ptxvm::texture {

// A 1D, 2D or 3D f32 texture of width x height x depth (0 for the dimensions it lacks) whose levels
// hold their own index; clamp, linear with a linear mip filter (the trilinear optimization off, as
// the probes ask), normalized coordinates.
struct LevelNumbers {
  std::vector<std::vector<float>> texels;
  std::vector<Image> levels;
  Object tex;
  unsigned dims;
  LevelNumbers(unsigned w, unsigned h, unsigned d, uint32_t anisotropy) : dims(d ? 3 : h ? 2 : 1) {
    const unsigned largest = std::max({w, h, d});
    uint32_t n_levels = 1;
    while ((largest >> n_levels) > 0) ++n_levels;
    for (uint32_t l = 0; l < n_levels; ++l) {
      Image img;
      img.width = std::max(w >> l, 1u), img.height = h ? std::max(h >> l, 1u) : 1, img.depth = d ? std::max(d >> l, 1u) : 1;
      texels.emplace_back(size_t(img.width) * img.height * img.depth, float(l));
      img.row_pitch = 4 * img.width, img.slice_pitch = img.row_pitch * img.height;
      levels.push_back(img);
    }
    for (uint32_t l = 0; l < n_levels; ++l) levels[l].data = reinterpret_cast<const uint8_t*>(texels[l].data());
    TextureResource& r = tex.resource;
    r.kind = TextureResource::Kind::MipmappedArray;
    r.format = ChannelFormat::F32, r.channels = 1, r.width = w, r.height = h, r.depth = d, r.levels = n_levels;
    TextureSampler& s = tex.sampler;
    s.address = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
    s.filter = s.mipmap_filter = FilterMode::Linear;
    s.normalized_coordinates = true;
    s.exact_trilinear = true;
    s.max_anisotropy = anisotropy;
    s.max_mipmap_level_clamp = float(n_levels - 1);
  }
  // The level read at the centre with gradients in texels of level 0.
  float at(const float* ddx, const float* ddy) const {
    const float size[3] = {float(levels[0].width), float(levels[0].height), float(levels[0].depth)};
    Lookup l;
    l.geometry = dims == 1 ? Geometry::D1 : dims == 2 ? Geometry::D2 : Geometry::D3;
    l.mip = Lookup::Mip::Grad;
    l.f = {0.5f, 0.5f, 0.5f};
    for (unsigned k = 0; k < dims; ++k) l.ddx[k] = ddx[k] / size[k], l.ddy[k] = ddy[k] / size[k];
    return std::bit_cast<float>(sample(tex, levels, l, Result::F32)[0]);
  }
};

}  // namespace ptxvm::texture
