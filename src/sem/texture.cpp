// Texture instructions (PTX §9.7.10, 001_23fdd5978b24a3ed.txt): tex, tld4, txq, istypep. The
// texture, sampler and surface objects are launch inputs (exec::Launch::textures); the sampling
// arithmetic is texture/sample.h.
#include <algorithm>
#include <bit>
#include <cstring>

#include "exec/engine.h"
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
using texture::Geometry;
using texture::Object;

// What the selector decided, in op.aux.
struct Config {
  Geometry geometry = Geometry::D2;
  texture::Result result = texture::Result::F32;
  bool integer_coords = false;
  texture::Lookup::Mip mip = texture::Lookup::Mip::Base;
  bool half2 = false;  // .v2.f16x2
  uint8_t component = 0;  // tld4
  bool gather = false;    // tld4
};
uint64_t pack(const Config& k) {
  uint64_t v;
  static_assert(sizeof(Config) <= sizeof v);
  std::memset(&v, 0, sizeof v);
  std::memcpy(&v, &k, sizeof k);
  return v;
}
Config unpack(uint64_t v) {
  Config k;
  std::memcpy(static_cast<void*>(&k), &v, sizeof k);
  return k;
}

Geometry geometry_of(const std::string& g) {
  static const std::pair<const char*, Geometry> names[] = {
      {".1d", Geometry::D1},   {".2d", Geometry::D2},     {".3d", Geometry::D3},
      {".a1d", Geometry::A1D}, {".a2d", Geometry::A2D},   {".cube", Geometry::Cube},
      {".acube", Geometry::ACube}, {".2dms", Geometry::D2MS}, {".a2dms", Geometry::A2DMS}};
  for (auto [n, v] : names)
    if (g == n) return v;
  return Geometry::D2;
}

// The object of `kind` behind a handle, or a fault naming the handle.
Object object(Warp& w, uint64_t h, Object::Kind kind, int lane, const Op& op) {
  std::optional<Object> o = w.launch->textures ? w.launch->textures->find(h) : std::nullopt;
  if (!o)
    w.undefined(lane, "'" + op.text + "': " + std::to_string(h) + " is no " + texture::to_string(kind) +
                          " object (PTX §5.3): no object has that handle");
  if (o->kind != kind)
    w.undefined(lane, "'" + op.text + "': handle " + std::to_string(h) + " is a " + texture::to_string(o->kind) +
                          " object, not a " + texture::to_string(kind) + " (PTX §5.3)");
  return *o;
}

// A texture object with its levels resolved, reused while lanes name the same handle.
struct TextureInUse {
  uint64_t texture_handle = 0;
  bool valid = false;
  Object tex;
  std::vector<texture::Image> levels;

  void bind(Warp& w, uint64_t h, int lane, const Op& op, const Arg& addr) {
    if (valid && h == texture_handle) return;
    tex = object(w, h, Object::Kind::Texture, lane, op);
    if (addr.elems.size() == 2)  // [a, b, c]: an explicit sampler (independent mode, §9.7.10.1)
      tex.sampler = object(w, handle(w, addr.elems[0], lane), Object::Kind::Sampler, lane, op).sampler;
    if (std::string why = texture::resolve(tex.resource, *w.launch->global, levels); !why.empty())
      w.undefined(lane, "'" + op.text + "': texture " + std::to_string(h) + ": " + why);
    texture_handle = h;
    valid = true;
  }
};

uint32_t word(Warp& w, const Arg& a, int lane) { return w.get<uint32_t>(a, lane); }

// The lookup of `lane`: coordinates per geometry (§9.7.10.3 table: array index first), then the
// mip operands and offsets that follow the address operand. A depth-compare operand (f) follows
// them; its comparison is sampler state that CUDA's texture objects do not carry, and the H100
// then returns the texels as without it (tests/hw/texture), so it is read by no one.
texture::Lookup lookup(Warp& w, const Op& op, const Config& k, int lane) {
  texture::Lookup at;
  at.geometry = k.geometry;
  at.integer = k.integer_coords;
  at.mip = k.mip;
  const Arg& addr = op.args[1];
  const Arg& c = addr.elems.back();
  size_t first = 0;
  if (texture::layered(k.geometry)) at.layer = int32_t(word(w, element(c, 0), lane)), first = 1;
  const unsigned n = texture::coordinate_count(k.geometry);
  for (unsigned d = 0; d < n; ++d) {
    const uint32_t bits = word(w, element(c, first + d), lane);
    at.f[d] = std::bit_cast<float>(bits);
    at.i[d] = int32_t(bits);
  }
  size_t next = 2;
  if (k.mip == texture::Lookup::Mip::Level) {
    const uint32_t bits = word(w, op.args[next++], lane);
    at.level = k.integer_coords ? float(int32_t(bits)) : std::bit_cast<float>(bits);
  } else if (k.mip == texture::Lookup::Mip::Grad) {
    for (std::array<float, 3>* g : {&at.ddx, &at.ddy}) {
      const Arg& v = op.args[next++];
      for (unsigned d = 0; d < n; ++d) (*g)[d] = std::bit_cast<float>(word(w, element(v, d), lane));
    }
  }
  if (next < op.args.size() && op.args[next].kind == ArgKind::Vector) {
    const Arg& e = op.args[next++];
    for (unsigned d = 0; d < n; ++d) {  // -8..7: tex takes the low 4 bits, tld4 the low 6 (the H100)
      const uint32_t v = word(w, element(e, d), lane);
      at.offset[d] = k.gather ? int32_t(v << 26) >> 26 : int32_t(v << 28) >> 28;
    }
  }
  return at;
}

// Destination d or d|p (§9.7.10.3): the registers and the residency predicate (always resident).
void write(Warp& w, const Op& op, const Config& k, int lane, const std::array<uint32_t, 4>& r) {
  const Arg& d = op.args[0];
  const bool pair = d.elems.size() == 2 && d.elems[0].kind == ArgKind::Vector;
  const Arg& regs = pair ? d.elems[0] : d;
  if (k.half2) {
    w.set<uint32_t>(element(regs, 0), lane, (r[0] & 0xffff) | r[1] << 16);
    w.set<uint32_t>(element(regs, 1), lane, (r[2] & 0xffff) | r[3] << 16);
  } else {
    for (size_t i = 0; i < 4; ++i) w.set<uint32_t>(element(regs, i), lane, r[i]);
  }
  if (pair) w.set<bool>(d.elems[1], lane, true);
}

void tex(Warp& w, const Op& op, uint32_t mask) {
  const Config k = unpack(op.aux);
  TextureInUse b;
  exec::for_lanes(mask, [&](int lane) {
    b.bind(w, handle(w, op.args[1], lane), lane, op, op.args[1]);
    write(w, op, k, lane, texture::sample(b.tex, b.levels, lookup(w, op, k, lane), k.result));
  });
}

void tld4(Warp& w, const Op& op, uint32_t mask) {
  const Config k = unpack(op.aux);
  TextureInUse b;
  exec::for_lanes(mask, [&](int lane) {
    b.bind(w, handle(w, op.args[1], lane), lane, op, op.args[1]);
    write(w, op, k, lane, texture::gather(b.tex, b.levels, lookup(w, op, k, lane), k.component, k.result));
  });
}

bool select_tex(const isa::Bound& b, Op& op, std::string& why) {
  Config k;
  k.geometry = geometry_of(axis(b, "geom"));
  const std::string dtype = axis(b, "dtype");
  k.result = dtype == ".s32" ? texture::Result::S32 : dtype == ".u32" ? texture::Result::U32
           : dtype == ".f32" ? texture::Result::F32 : texture::Result::F16;
  k.half2 = dtype == ".f16x2";
  k.integer_coords = axis(b, "ctype") == ".s32";
  const std::string mip = axis(b, "mip");
  k.mip = mip == ".level" ? texture::Lookup::Mip::Level : mip == ".grad" ? texture::Lookup::Mip::Grad
                                                                          : texture::Lookup::Mip::Base;
  if (k.geometry == Geometry::D2MS || k.geometry == Geometry::A2DMS)
    return unsupported(why, "multisample textures (.2dms, .a2dms): CUDA creates no multisample texture objects");
  op.aux = pack(k);
  op.fn = &tex;
  return true;
}

bool select_tld4(const isa::Bound& b, Op& op, std::string& why) {
  Config k;
  k.geometry = geometry_of(axis(b, "geom"));
  const std::string dtype = axis(b, "dtype");
  k.result = dtype == ".s32" ? texture::Result::S32 : dtype == ".u32" ? texture::Result::U32 : texture::Result::F32;
  const std::string comp = axis(b, "comp");
  k.component = comp == ".r" ? 0 : comp == ".g" ? 1 : comp == ".b" ? 2 : 3;
  k.gather = true;
  op.aux = pack(k);
  op.fn = &tld4;
  return true;
}

// txq (§9.7.10.5): what each query answers.
enum class Query : uint8_t {
  Width, Height, Depth, ChannelDataType, ChannelOrder, NormalizedCoords, ArraySize, NumMipmapLevels, NumSamples,
  ForceUnnormalizedCoords, FilterMode, AddrMode0, AddrMode1, AddrMode2
};

uint32_t query(const Object& o, Query q, int32_t level) {
  const TextureResource& r = o.resource;
  const std::array<uint32_t, 3> size = texture::size_query(r, level, false);
  switch (q) {
  case Query::Width: return size[0];
  case Query::Height: return size[1];
  case Query::Depth: return size[2];
  case Query::ChannelDataType:
    return texture::channel_data_type(r.format, o.kind == Object::Kind::Texture && !o.sampler.read_as_integer);
  case Query::ChannelOrder: return texture::channel_order(r.channels);
  case Query::NormalizedCoords: return o.sampler.normalized_coordinates;
  case Query::ArraySize: return r.layered ? (r.cubemap ? r.depth / 6 : r.depth) : 0;
  case Query::NumMipmapLevels: return r.kind == TextureResource::Kind::MipmappedArray ? r.levels : 0;
  case Query::NumSamples: return 0;
  case Query::ForceUnnormalizedCoords: return 0;
  case Query::FilterMode: return uint32_t(o.sampler.filter);
  case Query::AddrMode0: return uint32_t(o.sampler.address[0]);
  case Query::AddrMode1: return uint32_t(o.sampler.address[1]);
  case Query::AddrMode2: return uint32_t(o.sampler.address[2]);
  }
  return 0;
}

void txq(Warp& w, const Op& op, uint32_t mask) {
  const Query q = Query(op.aux);
  exec::for_lanes(mask, [&](int lane) {
    const Arg& a = op.args[1];
    const uint64_t h = handle(w, a, lane);
    std::optional<Object> o = w.launch->textures ? w.launch->textures->find(h) : std::nullopt;
    if (!o) w.undefined(lane, "'" + op.text + "': " + std::to_string(h) + " is no texture or sampler object (PTX §5.3)");
    const int32_t level = op.args.size() > 2 ? int32_t(word(w, op.args[2], lane)) : 0;
    w.set<uint32_t>(op.args[0], lane, query(*o, q, level));
  });
}

bool select_txq(const isa::Bound& b, Op& op, std::string&) {
  static const char* names[] = {".width", ".height", ".depth", ".channel_data_type", ".channel_order",
                                ".normalized_coords", ".array_size", ".num_mipmap_levels", ".num_samples",
                                ".force_unnormalized_coords", ".filter_mode", ".addr_mode_0", ".addr_mode_1",
                                ".addr_mode_2"};
  const std::string q = axis(b, "query");
  for (uint64_t i = 0; i < std::size(names); ++i)
    if (q == names[i]) op.aux = i;
  op.fn = &txq;
  return true;
}

// istypep (§9.7.10.6): whether the operand is of the type. For a .u64 handle the H100 answers
// false whatever it names (tests/hw/texture); a .texref/.samplerref/.surfref variable or kernel
// parameter holds a handle, whose object answers.
void istypep(Warp& w, const Op& op, uint32_t mask) {
  const Object::Kind kind = Object::Kind(op.aux);
  exec::for_lanes(mask, [&](int lane) {
    if (op.args[1].kind == ArgKind::Reg) return w.set<bool>(op.args[0], lane, false);
    const uint64_t h = handle(w, op.args[1], lane);
    std::optional<Object> o = w.launch->textures ? w.launch->textures->find(h) : std::nullopt;
    w.set<bool>(op.args[0], lane, o && o->kind == kind);
  });
}

bool select_istypep(const isa::Bound& b, Op& op, std::string&) {
  const std::string t = axis(b, "type");
  op.aux = uint64_t(t == ".texref" ? Object::Kind::Texture : t == ".samplerref" ? Object::Kind::Sampler
                                                                                : Object::Kind::Surface);
  op.fn = &istypep;
  return true;
}

}  // namespace

const program::Registration registered([](program::Registry& r) {
  r["tex §9.7.10.3"] = select_tex;
  r["tld4 §9.7.10.4"] = select_tld4;
  r["txq §9.7.10.5"] = select_txq;
  r["istypep §9.7.10.6"] = select_istypep;
});

}  // namespace ptxvm::sem
