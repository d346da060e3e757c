// Surface instructions (PTX §9.7.11, 001_23fdd5978b24a3ed.txt): suld.b, sust.b, sust.p, sured,
// suq on surface objects (exec::Launch::textures). `.b` forms address x in bytes, `.p` forms in
// samples; y, z and the array index count rows, slices and layers. Out of bounds, `.trap` stops
// the kernel, `.clamp` goes to the nearest location, `.zero` loads zero and drops stores.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "exec/engine.h"
#include "numeric/atomic_ops.h"
#include "numeric/cvt_float.h"
#include "program/registry.h"
#include "sem/dispatch.h"
#include "sem/texture_operands.h"
#include "texture/sample.h"

namespace ptxvm::sem {
namespace {

using exec::Warp;
using program::Arg;
using program::ArgKind;
using program::Op;
using texture::Object;

enum class Clamp : uint8_t { Trap, Clamp, Zero };

struct Config {
  texture::Geometry geometry = texture::Geometry::D1;
  Clamp clamp = Clamp::Trap;
  bool formatted = false;  // .p: x counts samples
  uint8_t elements = 1;    // vector width
  uint8_t size = 4;        // bytes per element
  uint8_t reduction = 0;   // sured: index into kReductions
  uint8_t type = 0;        // sured.b: index into kTypes
};
const char* const kTypes[] = {".u32", ".s32", ".b32", ".u64", ".s64"};

uint64_t pack(const Config& k) {
  uint64_t v = 0;
  std::memcpy(&v, &k, sizeof k);
  return v;
}
Config unpack(uint64_t v) {
  Config k;
  std::memcpy(static_cast<void*>(&k), &v, sizeof k);
  return k;
}

// The surface behind a handle with its level 0 resolved.
struct Surface {
  Object obj;
  texture::Image img;
  unsigned texel = 1;
};
Surface surface(Warp& w, const Op& op, int lane) {
  const uint64_t h = handle(w, op.args[op.args[0].kind == ArgKind::Address ? 0 : 1], lane);
  std::optional<Object> o = w.launch->textures ? w.launch->textures->find(h) : std::nullopt;
  if (!o || o->kind != Object::Kind::Surface)
    w.undefined(lane, "'" + op.text + "': " + std::to_string(h) + " is no surface object (PTX §5.3)");
  Surface s{*o, {}, channel_bytes(o->resource.format) * o->resource.channels};
  std::vector<texture::Image> levels;
  if (std::string why = texture::resolve(o->resource, *w.launch->global, levels); !why.empty())
    w.undefined(lane, "'" + op.text + "': surface " + std::to_string(h) + ": " + why);
  s.img = levels[0];
  return s;
}

// Where the access of `bytes` at the coordinates of `lane` lands, or null for a dropped/zero
// out-of-bounds access (.zero); .trap faults, .clamp moves it to the nearest location.
uint8_t* locate(Warp& w, const Op& op, const Config& k, const Surface& s, const Arg& coords, unsigned bytes, int lane) {
  const bool layered = texture::layered(k.geometry);
  const unsigned first = layered ? 1 : 0;
  const unsigned n = texture::coordinate_count(k.geometry);
  int64_t c[3] = {0, 0, 0};
  for (unsigned d = 0; d < n; ++d) c[d] = int32_t(w.get<uint32_t>(element(coords, first + d), lane));
  if (k.formatted) c[0] *= s.texel;
  int64_t slice = n == 3 ? c[2] : 0;
  int64_t slices = n == 3 ? s.img.depth : 1;
  // The array index: its low 16 bits (the H100 reads 0x80000000 as layer 0), then the mode.
  if (layered) slice = w.get<uint32_t>(element(coords, 0), lane) & 0xffff, slices = s.img.depth;
  if (c[0] % bytes)
    w.undefined(lane, "'" + op.text + "': x = " + std::to_string(c[0]) + " bytes is not a multiple of the " +
                          std::to_string(bytes) + "-byte access (PTX §9.7.11)");
  const int64_t limit[3] = {int64_t(s.img.width) * s.texel - bytes, int64_t(s.img.height) - 1, slices - 1};
  int64_t at[3] = {c[0], n >= 2 ? c[1] : 0, slice};
  const bool outside = at[0] < 0 || at[0] > limit[0] || at[1] < 0 || at[1] > limit[1] || at[2] < 0 || at[2] > limit[2];
  if (outside) {
    if (k.clamp == Clamp::Zero) return nullptr;
    if (k.clamp == Clamp::Trap)
      w.undefined(lane, "'" + op.text + "': coordinates (" + std::to_string(c[0]) + (n >= 2 ? ", " + std::to_string(c[1]) : "") +
                            (n == 3 || layered ? ", " + std::to_string(slice) : "") +
                            ") lie outside the surface (.trap, PTX §9.7.11)");
    for (unsigned d = 0; d < 3; ++d) at[d] = std::clamp<int64_t>(at[d], 0, std::max<int64_t>(limit[d], 0));
    at[0] -= at[0] % bytes;
  }
  return const_cast<uint8_t*>(s.img.data) + uint64_t(at[2]) * s.img.slice_pitch + uint64_t(at[1]) * s.img.row_pitch +
         uint64_t(at[0]);
}

void suld(Warp& w, const Op& op, uint32_t mask) {
  const Config k = unpack(op.aux);
  exec::for_lanes(mask, [&](int lane) {
    const Surface s = surface(w, op, lane);
    const uint8_t* p = locate(w, op, k, s, op.args[1].elems.back(), k.size * k.elements, lane);
    for (unsigned i = 0; i < k.elements; ++i) {
      uint64_t v = 0;
      if (p) std::memcpy(&v, p + i * k.size, k.size);
      w.set<uint64_t>(element(op.args[0], i), lane, v);
    }
  });
}

void sust_b(Warp& w, const Op& op, uint32_t mask) {
  const Config k = unpack(op.aux);
  exec::for_lanes(mask, [&](int lane) {
    const Surface s = surface(w, op, lane);
    uint8_t* p = locate(w, op, k, s, op.args[0].elems.back(), k.size * k.elements, lane);
    if (!p) return;
    for (unsigned i = 0; i < k.elements; ++i) {
      const uint64_t v = w.get<uint64_t>(element(op.args[1], i), lane);
      std::memcpy(p + i * k.size, &v, k.size);
    }
  });
}

// sust.p (§9.7.11.2): 32-bit source elements, left to right R, G, B, A, converted to the
// surface's channel format; channels the source lacks are written 0 (§9.7.11.2: unpredictable).
// CUDA's integer formats are UINT and SINT: the H100 saturates the .u32 or .s32 source to the
// channel's range. f16 takes .f32 converted toward zero (so overflow gives the largest finite
// value, infinities stay), a NaN keeping its sign and top payload bits; 32-bit formats take the bits.
void store_channel(uint8_t* p, ChannelFormat f, uint32_t v) {
  const int32_t i = int32_t(v);
  switch (f) {
  case ChannelFormat::U8: v = std::min(v, 0xffu); break;
  case ChannelFormat::U16: v = std::min(v, 0xffffu); break;
  case ChannelFormat::S8: v = uint32_t(std::clamp(i, -128, 127)); break;
  case ChannelFormat::S16: v = uint32_t(std::clamp(i, -32768, 32767)); break;
  case ChannelFormat::F16: {
    const float x = std::bit_cast<float>(v);
    v = std::isnan(x) ? (v >> 16 & 0x8000u) | 0x7c00u | (v >> 13 & 0x3ffu)  // sign and top payload bits
                      : uint32_t(numeric::cvt_float(numeric::kF16, numeric::kF32, v, {.round = numeric::Round::RZ}));
    break;
  }
  default: break;
  }
  std::memcpy(p, &v, channel_bytes(f));  // little-endian: the low bytes
}

void sust_p(Warp& w, const Op& op, uint32_t mask) {
  const Config k = unpack(op.aux);
  exec::for_lanes(mask, [&](int lane) {
    const Surface s = surface(w, op, lane);
    uint8_t* p = locate(w, op, k, s, op.args[0].elems.back(), s.texel, lane);
    if (!p) return;
    const unsigned cb = channel_bytes(s.obj.resource.format);
    for (unsigned c = 0; c < s.obj.resource.channels; ++c)  // channels the source lacks: 0 (the H100)
      store_channel(p + c * cb, s.obj.resource.format, c < k.elements ? w.get<uint32_t>(element(op.args[1], c), lane) : 0);
  });
}

// sured (§9.7.11.3): .b names the element type; .p takes it from the surface's format (.b32 as
// .u32 or .s32, .b64 as .u64 or .s64).
const char* const kReductions[] = {".add", ".min", ".max", ".and", ".or"};

void sured(Warp& w, const Op& op, uint32_t mask) {
  const Config k = unpack(op.aux);
  exec::for_lanes(mask, [&](int lane) {
    const Surface s = surface(w, op, lane);
    std::string type = kTypes[k.type];
    if (k.formatted) {
      const bool is_signed = s.obj.resource.format == ChannelFormat::S32 || s.obj.resource.format == ChannelFormat::S16 ||
                             s.obj.resource.format == ChannelFormat::S8;
      type = std::string(is_signed ? ".s" : ".u") + (k.size == 8 ? "64" : "32");
    }
    const numeric::Combine combine = numeric::combine_for(kReductions[k.reduction], type);
    if (!combine) w.undefined(lane, "'" + op.text + "': no " + kReductions[k.reduction] + " on " + type);
    uint8_t* p = locate(w, op, k, s, op.args[0].elems.back(), k.size, lane);
    if (!p) return;
    const uint64_t v = w.get<uint64_t>(op.args[1], lane);
    numeric::combine_atomically(combine, p, reinterpret_cast<const uint8_t*>(&v), k.size, true);
  });
}

Config config(const isa::Bound& b) {
  Config k;
  static const std::pair<const char*, texture::Geometry> geoms[] = {
      {".1d", texture::Geometry::D1}, {".2d", texture::Geometry::D2}, {".3d", texture::Geometry::D3},
      {".a1d", texture::Geometry::A1D}, {".a2d", texture::Geometry::A2D}};
  for (auto [n, g] : geoms)
    if (axis(b, "geom") == n) k.geometry = g;
  const std::string c = axis(b, "clamp");
  k.clamp = c == ".clamp" ? Clamp::Clamp : c == ".zero" ? Clamp::Zero : Clamp::Trap;
  const std::string vec = axis(b, "vec");
  k.elements = vec == ".v4" ? 4 : vec == ".v2" ? 2 : 1;
  const std::string t = axis(b, "type");
  k.size = t == ".b8" ? 1 : t == ".b16" ? 2 : (t == ".b64" || t == ".u64" || t == ".s64") ? 8 : 4;
  return k;
}

bool select_suld(const isa::Bound& b, Op& op, std::string&) {
  op.aux = pack(config(b));
  op.fn = &suld;
  return true;
}

bool select_sust_b(const isa::Bound& b, Op& op, std::string&) {
  op.aux = pack(config(b));
  op.fn = &sust_b;
  return true;
}

bool select_sust_p(const isa::Bound& b, Op& op, std::string&) {
  Config k = config(b);
  k.formatted = true;
  op.aux = pack(k);
  op.fn = &sust_p;
  return true;
}

template <bool Formatted>
bool select_sured(const isa::Bound& b, Op& op, std::string&) {
  Config k = config(b);
  k.formatted = Formatted;
  for (uint8_t i = 0; i < std::size(kReductions); ++i)
    if (axis(b, "op") == kReductions[i]) k.reduction = i;
  for (uint8_t i = 0; i < std::size(kTypes); ++i)
    if (axis(b, "type") == kTypes[i]) k.type = i;
  op.aux = pack(k);
  op.fn = &sured;
  return true;
}

// suq (§9.7.11.4).
void suq(Warp& w, const Op& op, uint32_t mask) {
  exec::for_lanes(mask, [&](int lane) {
    const Surface s = surface(w, op, lane);
    const TextureResource& r = s.obj.resource;
    const std::array<uint32_t, 3> size = texture::size_query(r, 0, true);
    uint32_t v = 0;
    switch (op.aux) {
    case 0:
    case 1:
    case 2: v = size[op.aux]; break;
    case 3: v = texture::channel_data_type(r.format, false); break;
    case 4: v = texture::channel_order(r.channels); break;
    case 5: v = r.layered ? r.depth : 0; break;
    case 6: v = r.kind == TextureResource::Kind::Linear || r.kind == TextureResource::Kind::Pitch2D; break;
    }
    w.set<uint32_t>(op.args[0], lane, v);
  });
}

bool select_suq(const isa::Bound& b, Op& op, std::string&) {
  static const char* names[] = {".width", ".height", ".depth", ".channel_data_type", ".channel_order",
                                ".array_size", ".memory_layout"};
  const std::string q = axis(b, "query");
  for (uint64_t i = 0; i < std::size(names); ++i)
    if (q == names[i]) op.aux = i;
  op.fn = &suq;
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["suld.b §9.7.11.1"] = select_suld;
  r["sust.b §9.7.11.2"] = select_sust_b;
  r["sust.p §9.7.11.2"] = select_sust_p;
  r["sured.b §9.7.11.3"] = select_sured<false>;
  r["sured.p §9.7.11.3"] = select_sured<true>;
  r["suq §9.7.11.4"] = select_suq;
});

}  // namespace ptxvm::sem
