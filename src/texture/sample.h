// Texture sampling as the texture unit does it (PTX §9.7.10.3 tex, §9.7.10.4 tld4,
// 001_23fdd5978b24a3ed.txt): a texel's channels from its format, coordinates through the address
// modes, point and linear filtering, cube faces, mip levels. The fixed-point steps (coordinate
// and weight precision) are the H100's, measured by tests/hw/texture/.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mem/memory.h"
#include "texture/objects.h"

namespace ptxvm::texture {

enum class Geometry : uint8_t { D1, D2, D3, A1D, A2D, Cube, ACube, D2MS, A2DMS };
unsigned coordinate_count(Geometry g);  // spatial coordinates: 1, 2 or 3
bool layered(Geometry g);

// One mip level's texels in host memory (resolved once per instruction).
struct Image {
  const uint8_t* data = nullptr;
  uint32_t width = 1, height = 1, depth = 1;  // depth: z, or layers (x 6 faces for cubes)
  uint64_t row_pitch = 0, slice_pitch = 0;
};

// The levels of a resource inside device memory; "" or why they cannot be read (not inside one
// allocation, a bad description).
std::string resolve(const TextureResource& r, mem::GlobalMemory& g, std::vector<Image>& levels);

// Where a lookup samples. Float coordinates for .f32, integers for .s32 (then unnormalized, with
// no filtering, §9.7.10.3).
struct Lookup {
  Geometry geometry = Geometry::D2;
  bool integer = false;
  std::array<float, 3> f{};
  std::array<int32_t, 3> i{};
  int32_t layer = 0;                 // array index (.a1d/.a2d/.acube)
  std::array<int32_t, 3> offset{};   // texel offsets
  enum class Mip : uint8_t { Base, Level, Grad } mip = Mip::Base;
  float level = 0;                   // .level
  std::array<float, 3> ddx{}, ddy{};  // .grad
};

// What the destination registers receive (§9.7.10.3 dtype).
enum class Result : uint8_t { F32, S32, U32, F16 };

std::array<uint32_t, 4> sample(const Object& tex, const std::vector<Image>& levels, const Lookup& at, Result r);
// tld4: component `comp` (0-3: r g b a) of the four texels bilinear filtering would use, in the
// order of §9.7.10.4.
std::array<uint32_t, 4> gather(const Object& tex, const std::vector<Image>& levels, const Lookup& at, unsigned comp,
                               Result r);

}  // namespace ptxvm::texture
