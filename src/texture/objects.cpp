#include "texture/objects.h"

#include <algorithm>
#include <mutex>

namespace ptxvm {

unsigned channel_bytes(ChannelFormat f) {
  switch (f) {
  case ChannelFormat::U8:
  case ChannelFormat::S8: return 1;
  case ChannelFormat::U16:
  case ChannelFormat::S16:
  case ChannelFormat::F16: return 2;
  default: return 4;
  }
}

namespace texture {

const char* to_string(Object::Kind k) {
  switch (k) {
  case Object::Kind::Texture: return "texture";
  case Object::Kind::Sampler: return "sampler";
  case Object::Kind::Surface: return "surface";
  }
  return "?";
}

std::string validate(const TextureResource& r) {
  using Kind = TextureResource::Kind;
  switch (r.format) {
  case ChannelFormat::U8: case ChannelFormat::U16: case ChannelFormat::U32: case ChannelFormat::S8:
  case ChannelFormat::S16: case ChannelFormat::S32: case ChannelFormat::F16: case ChannelFormat::F32: break;
  default: return "unknown channel format " + std::to_string(unsigned(r.format));
  }
  if (r.channels != 1 && r.channels != 2 && r.channels != 4) return "a texel has 1, 2 or 4 channels";
  if (r.width == 0) return "the width must not be 0";
  if (r.cubemap && (r.width != r.height || r.depth == 0 || r.depth % 6))
    return "a cube map is square, 6 faces deep (6 per layer when layered)";
  if (r.layered && r.depth == 0) return "a layered array needs at least one layer (depth)";
  if (r.kind == Kind::MipmappedArray && (r.levels == 0 || r.levels > 32)) return "a mipmapped array has 1 to 32 levels";
  if (r.kind == Kind::Linear && r.bytes < uint64_t(channel_bytes(r.format)) * r.channels)
    return "a linear resource holds at least one texel";
  if (r.kind == Kind::Pitch2D && r.pitch < uint64_t(r.width) * channel_bytes(r.format) * r.channels)
    return "the pitch is smaller than a row";
  return "";
}

uint32_t channel_data_type(ChannelFormat f, bool normalized) {  // CL_SNORM_INT8 = 0x10D0 ...
  switch (f) {
  case ChannelFormat::S8: return normalized ? 0x10D0 : 0x10D7;
  case ChannelFormat::S16: return normalized ? 0x10D1 : 0x10D8;
  case ChannelFormat::U8: return normalized ? 0x10D2 : 0x10DA;
  case ChannelFormat::U16: return normalized ? 0x10D3 : 0x10DB;
  case ChannelFormat::S32: return 0x10D9;
  case ChannelFormat::U32: return 0x10DC;
  case ChannelFormat::F16: return 0x10DD;
  case ChannelFormat::F32: return 0x10DE;
  }
  return 0;
}

uint32_t channel_order(unsigned channels) {  // CL_R 0x10B0, CL_RG 0x10B2, CL_RGBA 0x10B5
  return channels == 1 ? 0x10B0 : channels == 2 ? 0x10B2 : 0x10B5;
}

std::array<uint32_t, 3> size_query(const TextureResource& r, int32_t level, bool surface) {
  const uint32_t levels = r.kind == TextureResource::Kind::MipmappedArray ? r.levels : 1;
  if (level < 0 || uint32_t(level) >= levels) return {0, 0, 0};
  auto mip = [&](uint32_t n) { return std::max(1u, n >> level); };
  const uint32_t layers = r.cubemap ? r.depth / 6 : r.depth;
  if (r.kind == TextureResource::Kind::Linear) return {r.width, 0, 0};
  if (r.height == 0) return {mip(r.width), r.layered ? layers : surface ? 0 : 1, 0};
  if (r.layered) return {mip(r.width), mip(r.height), layers};
  return {mip(r.width), mip(r.height), r.depth && !r.cubemap ? mip(r.depth) : 0};
}

uint64_t Objects::add(const Object& o) {
  std::unique_lock lock(mutex_);
  const uint64_t h = next_++;
  objects_.emplace(h, o);
  return h;
}

bool Objects::remove(uint64_t handle) {
  std::unique_lock lock(mutex_);
  return objects_.erase(handle) > 0;
}

std::optional<Object> Objects::find(uint64_t handle) const {
  std::shared_lock lock(mutex_);
  auto it = objects_.find(handle);
  if (it == objects_.end()) return std::nullopt;
  return it->second;
}

}  // namespace texture
}  // namespace ptxvm
