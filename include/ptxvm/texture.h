// Texture and surface objects (PTX §5.3, 001_23fdd5978b24a3ed.txt): the resource a texture or
// surface reads (its texels in device memory) and the sampler state, in the terms of CUDA's
// CUDA_RESOURCE_DESC / CUDA_TEXTURE_DESC, so that the drop-in driver passes them through and a
// program sees the same enumerations. The enumerators keep CUDA's values.
#pragma once

#include <array>
#include <cstdint>

namespace ptxvm {

// CUarray_format: a channel's type.
enum class ChannelFormat : uint8_t {
  U8 = 0x01, U16 = 0x02, U32 = 0x03,
  S8 = 0x08, S16 = 0x09, S32 = 0x0a,
  F16 = 0x10, F32 = 0x20,
};
unsigned channel_bytes(ChannelFormat f);

// Where the texels are. Arrays (CUDA arrays, whose layout CUDA keeps opaque) lie densely in
// device memory at `address`: x fastest, then y, then z (a layer, a cube face, or a layered cube's
// face 6 * layer + face), each mip level after the one before it. Linear and pitch-linear
// resources are the program's own memory.
struct TextureResource {
  enum class Kind : uint8_t { Array, MipmappedArray, Linear, Pitch2D };  // CUresourcetype
  Kind kind = Kind::Array;
  ChannelFormat format = ChannelFormat::F32;
  uint8_t channels = 1;  // 1, 2 or 4
  // Texels per dimension as cuArray3DCreate takes them: height 0 for 1D, depth 0 for 2D; for a
  // layered array depth counts layers, for a cube map it is 6, for a layered cube map 6 * layers.
  uint32_t width = 1, height = 0, depth = 0;
  bool layered = false, cubemap = false;
  uint32_t levels = 1;     // mip levels (MipmappedArray)
  uint64_t address = 0;    // device address of the texels
  uint64_t pitch = 0;      // bytes per row (Pitch2D)
  uint64_t bytes = 0;      // size of the data (Linear: width = bytes / texel bytes)
  bool surface = false;    // usable by surface instructions (CUDA_ARRAY3D_SURFACE_LDST)
};

enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };  // CUaddress_mode
enum class FilterMode : uint8_t { Point, Linear };                 // CUfilter_mode

struct TextureSampler {
  std::array<AddressMode, 3> address{AddressMode::Wrap, AddressMode::Wrap, AddressMode::Wrap};
  FilterMode filter = FilterMode::Point;
  FilterMode mipmap_filter = FilterMode::Point;
  bool read_as_integer = false;    // CU_TRSF_READ_AS_INTEGER: 8/16-bit integers are not normalized
  bool normalized_coordinates = false;  // CU_TRSF_NORMALIZED_COORDINATES
  bool srgb = false;                    // CU_TRSF_SRGB
  bool seamless_cubemap = false;        // CU_TRSF_SEAMLESS_CUBEMAP
  bool exact_trilinear = false;         // CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION (sample.cpp, sharpened)
  std::array<float, 4> border_color{};
  uint32_t max_anisotropy = 0;
  float mipmap_level_bias = 0, min_mipmap_level_clamp = 0, max_mipmap_level_clamp = 0;
};

}  // namespace ptxvm
