// Texture, sampler and surface objects by handle (PTX §5.3, 001_23fdd5978b24a3ed.txt): what a
// 64-bit handle in a register, a .texref/.samplerref/.surfref variable or a kernel parameter
// names. The device owns one table; the host adds objects between launches, kernels look them up.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>

#include "ptxvm/texture.h"

namespace ptxvm::texture {

struct Object {
  enum class Kind : uint8_t { Texture, Sampler, Surface };
  Kind kind = Kind::Texture;
  TextureResource resource;  // not for a sampler
  TextureSampler sampler;    // not for a surface
};
const char* to_string(Object::Kind k);

// Why a resource cannot be read as described (sizes, channels, levels, alignment), or "".
std::string validate(const TextureResource& r);

// txq/suq .channel_data_type and .channel_order: the OpenCL values of §5.3.3 Tables 12 and 13.
uint32_t channel_data_type(ChannelFormat f, bool normalized);
uint32_t channel_order(unsigned channels);

// What txq(.level) .width/.height/.depth and suq report for a resource at mip level `level` (the
// H100's answers, tests/hw/texture): a level the resource lacks (or a negative one) is 0 x 0 x 0;
// the layers of an array stand where its next dimension would (a 1D array's height, a 2D
// array's depth; cubes count for a cube-map array); a 1D array texture is 1 high, a 1D surface
// and linear memory 0.
std::array<uint32_t, 3> size_query(const TextureResource& r, int32_t level, bool surface);

class Objects {
public:
  uint64_t add(const Object& o);  // a new handle, never 0
  bool remove(uint64_t handle);
  std::optional<Object> find(uint64_t handle) const;

private:
  mutable std::shared_mutex mutex_;
  std::map<uint64_t, Object> objects_;
  uint64_t next_ = 1;
};

}  // namespace ptxvm::texture
