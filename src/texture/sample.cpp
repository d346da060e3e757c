#include "texture/sample.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "numeric/cvt_float.h"
#include "texture/cube.h"
#include "texture/level_of_detail.h"

namespace ptxvm::texture {
namespace {

uint32_t f32_bits(float v) { return std::bit_cast<uint32_t>(v); }

// floor(x) as an index, defined for every double (NaN reads 0; the huge clamp far outside).
int64_t index_of(double x) {
  if (std::isnan(x)) return 0;
  return int64_t(std::clamp(std::floor(x), -double(int64_t{1} << 40), double(int64_t{1} << 40)));
}

// A texel's four channels as the sampler returns them before filtering: numbers (a float
// texture, or 8/16-bit integers read as normalized floats) or integers (read as integers).
// Channels the format lacks read 0, alpha too (§5.3 leaves it open; the H100's choice).
struct Texel {
  std::array<float, 4> f{};
  std::array<uint32_t, 4> i{};
};

bool returns_float(const Object& tex) {
  const ChannelFormat f = tex.resource.format;
  if (f == ChannelFormat::F16 || f == ChannelFormat::F32) return true;
  if (f == ChannelFormat::U32 || f == ChannelFormat::S32) return false;
  return !tex.sampler.read_as_integer;
}

// x rounded to f16 precision (to nearest even), as an f32.
float to_f16(float x) {
  const uint64_t h = numeric::cvt_float(numeric::kF16, numeric::kF32, f32_bits(x), {});
  return std::bit_cast<float>(uint32_t(numeric::cvt_float(numeric::kF32, numeric::kF16, h, {})));
}

// sRGB to linear as the H100 decodes an 8-bit channel: a table of bf16 values, measured
// (tests/hw/texture/filter/srgb.bin.xz: every input byte), close to IEC 61966-2-1's transfer
// function rounded to bf16 but not equal to it (29 of the 256 differ by one unit).
constexpr uint16_t kSrgbToLinear[256] = {
    0x0000, 0x39a0, 0x3a20, 0x3a70, 0x3aa0, 0x3ac8, 0x3af0, 0x3b0c, 0x3b20, 0x3b34, 0x3b48, 0x3b5c,
    0x3b70, 0x3b84, 0x3b90, 0x3b9c, 0x3baa, 0x3bb8, 0x3bc6, 0x3bd6, 0x3be6, 0x3bf6, 0x3c03, 0x3c0c,
    0x3c16, 0x3c1f, 0x3c29, 0x3c34, 0x3c3e, 0x3c49, 0x3c55, 0x3c60, 0x3c6c, 0x3c7a, 0x3c83, 0x3c8a,
    0x3c91, 0x3c98, 0x3c9f, 0x3ca6, 0x3cae, 0x3cb6, 0x3cbe, 0x3cc6, 0x3cce, 0x3cd7, 0x3ce0, 0x3ce9,
    0x3cf2, 0x3cfc, 0x3d03, 0x3d08, 0x3d0d, 0x3d12, 0x3d17, 0x3d1c, 0x3d22, 0x3d28, 0x3d2d, 0x3d33,
    0x3d39, 0x3d3f, 0x3d45, 0x3d4c, 0x3d52, 0x3d58, 0x3d60, 0x3d66, 0x3d6c, 0x3d74, 0x3d7a, 0x3d81,
    0x3d85, 0x3d88, 0x3d8c, 0x3d90, 0x3d94, 0x3d98, 0x3d9c, 0x3da0, 0x3da4, 0x3da9, 0x3dad, 0x3db1,
    0x3db6, 0x3dba, 0x3dbf, 0x3dc3, 0x3dc8, 0x3dcd, 0x3dd1, 0x3dd6, 0x3ddb, 0x3de0, 0x3de5, 0x3dea,
    0x3df0, 0x3df4, 0x3dfa, 0x3e00, 0x3e02, 0x3e05, 0x3e08, 0x3e0b, 0x3e0e, 0x3e11, 0x3e14, 0x3e17,
    0x3e1a, 0x3e1d, 0x3e20, 0x3e23, 0x3e26, 0x3e29, 0x3e2c, 0x3e30, 0x3e33, 0x3e36, 0x3e3a, 0x3e3d,
    0x3e40, 0x3e44, 0x3e47, 0x3e4b, 0x3e4e, 0x3e52, 0x3e56, 0x3e59, 0x3e5d, 0x3e61, 0x3e65, 0x3e68,
    0x3e6c, 0x3e70, 0x3e74, 0x3e78, 0x3e7c, 0x3e80, 0x3e82, 0x3e84, 0x3e86, 0x3e88, 0x3e8a, 0x3e8d,
    0x3e8f, 0x3e91, 0x3e93, 0x3e95, 0x3e98, 0x3e9a, 0x3e9c, 0x3e9e, 0x3ea1, 0x3ea3, 0x3ea5, 0x3ea8,
    0x3eaa, 0x3ead, 0x3eaf, 0x3eb2, 0x3eb4, 0x3eb6, 0x3eb9, 0x3ebc, 0x3ebe, 0x3ec1, 0x3ec3, 0x3ec6,
    0x3ec8, 0x3ecb, 0x3ece, 0x3ed1, 0x3ed3, 0x3ed6, 0x3ed9, 0x3edb, 0x3ede, 0x3ee1, 0x3ee4, 0x3ee7,
    0x3eea, 0x3eed, 0x3ef0, 0x3ef2, 0x3ef6, 0x3ef8, 0x3efc, 0x3efe, 0x3f01, 0x3f02, 0x3f04, 0x3f05,
    0x3f07, 0x3f09, 0x3f0a, 0x3f0c, 0x3f0d, 0x3f0f, 0x3f11, 0x3f12, 0x3f14, 0x3f16, 0x3f17, 0x3f19,
    0x3f1b, 0x3f1c, 0x3f1e, 0x3f20, 0x3f21, 0x3f23, 0x3f25, 0x3f27, 0x3f29, 0x3f2a, 0x3f2c, 0x3f2e,
    0x3f30, 0x3f32, 0x3f33, 0x3f35, 0x3f37, 0x3f39, 0x3f3b, 0x3f3d, 0x3f3f, 0x3f41, 0x3f43, 0x3f45,
    0x3f47, 0x3f49, 0x3f4b, 0x3f4d, 0x3f4f, 0x3f51, 0x3f53, 0x3f55, 0x3f57, 0x3f59, 0x3f5b, 0x3f5d,
    0x3f5f, 0x3f61, 0x3f63, 0x3f65, 0x3f68, 0x3f6a, 0x3f6c, 0x3f6e, 0x3f70, 0x3f72, 0x3f74, 0x3f76,
    0x3f7a, 0x3f7c, 0x3f7e, 0x3f80,
};
float srgb_to_linear(uint8_t c) { return std::bit_cast<float>(uint32_t{kSrgbToLinear[c]} << 16); }

// A signed normalized 8-bit channel as tld4 returns it on the H100: through a 16-bit signed
// normalized value (rounded, ties up), over 32767, at least -1.
float snorm(int32_t v, int32_t full) {
  const double q = std::floor(double(v) * 32767.0 / full + 0.5);
  return std::max(float(q / 32767.0), -1.0f);
}

Texel decode(const Object& tex, const uint8_t* p) {
  const TextureResource& r = tex.resource;
  const bool as_float = returns_float(tex);
  Texel t;
  for (unsigned c = 0; c < r.channels; ++c) {
    switch (r.format) {
    case ChannelFormat::U8: t.i[c] = p[c]; t.f[c] = float(p[c]) / 255.0f; break;
    case ChannelFormat::S8: {
      const int8_t v = int8_t(p[c]);
      t.i[c] = uint32_t(int32_t(v));
      t.f[c] = std::max(float(v) / 127.0f, -1.0f);
      break;
    }
    case ChannelFormat::U16: {
      uint16_t v;
      std::memcpy(&v, p + 2 * c, 2);
      t.i[c] = v;
      t.f[c] = float(v) / 65535.0f;
      break;
    }
    case ChannelFormat::S16: {
      int16_t v;
      std::memcpy(&v, p + 2 * c, 2);
      t.i[c] = uint32_t(int32_t(v));
      t.f[c] = std::max(float(v) / 32767.0f, -1.0f);
      break;
    }
    case ChannelFormat::F16: {
      uint16_t v;
      std::memcpy(&v, p + 2 * c, 2);
      const bool nan = (v & 0x7c00) == 0x7c00 && (v & 0x3ff);  // a NaN keeps its sign and payload (the H100)
      t.i[c] = nan ? uint32_t(v & 0x8000) << 16 | 0x7f800000u | uint32_t(v & 0x3ff) << 13
                   : uint32_t(numeric::cvt_float(numeric::kF32, numeric::kF16, v, {}));
      t.f[c] = std::bit_cast<float>(t.i[c]);
      break;
    }
    case ChannelFormat::U32:
    case ChannelFormat::S32:
    case ChannelFormat::F32:
      std::memcpy(&t.i[c], p + 4 * c, 4);
      t.f[c] = std::bit_cast<float>(t.i[c]);
      break;
    }
  }
  if (as_float && tex.sampler.srgb && r.format == ChannelFormat::U8)
    for (unsigned c = 0; c < std::min(3u, unsigned(r.channels)); ++c) t.f[c] = srgb_to_linear(uint8_t(t.i[c]));
  return t;
}

// The border colour as a texel of the format, in its channels only (the H100): for 8- and 16-bit
// normalized formats the nearest value the format holds (clamped to its range), f16 at half
// precision; read as integers, the colour's f32 bits cut to the channel's width.
Texel border(const Object& tex) {
  Texel t;
  const ChannelFormat f = tex.resource.format;
  const unsigned bits = 8 * channel_bytes(f);
  const bool is_signed = f == ChannelFormat::S8 || f == ChannelFormat::S16 || f == ChannelFormat::S32;
  const bool normalized = returns_float(tex) && f != ChannelFormat::F16 && f != ChannelFormat::F32;
  for (unsigned c = 0; c < tex.resource.channels; ++c) {
    const float v = tex.sampler.border_color[c];
    if (normalized) {
      const double full = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
      const double q = std::nearbyint((std::isnan(v) ? 0.0 : std::clamp(double(v), is_signed ? -1.0 : 0.0, 1.0)) * full);
      t.i[c] = uint32_t(int32_t(q));
      t.f[c] = float(q / full);
    } else if (!returns_float(tex)) {
      const uint32_t raw = f32_bits(v);
      const uint32_t cut = bits == 32 ? raw : raw & ((1u << bits) - 1);
      t.i[c] = is_signed && bits < 32 ? uint32_t(int32_t(cut << (32 - bits)) >> (32 - bits)) : cut;
    } else {
      t.f[c] = f == ChannelFormat::F16 ? to_f16(v) : v;
      t.i[c] = f32_bits(t.f[c]);
    }
  }
  return t;
}

// One dimension's texel index after the address mode, or -1 for the border.
int64_t address(int64_t i, int64_t n, AddressMode m) {
  switch (m) {
  case AddressMode::Wrap: return ((i % n) + n) % n;
  case AddressMode::Mirror: {
    const int64_t k = ((i % (2 * n)) + 2 * n) % (2 * n);
    return k < n ? k : 2 * n - 1 - k;
  }
  case AddressMode::Clamp: return std::clamp<int64_t>(i, 0, n - 1);
  case AddressMode::Border: return i < 0 || i >= n ? -1 : i;
  }
  return -1;
}

struct Sampled {
  const Object& tex;
  const Image& img;
  unsigned texel_bytes;
  std::array<AddressMode, 3> modes;
  unsigned dims;
  uint32_t slice;  // layer (or face) of a layered image
  bool seamless = false;  // a cube face whose neighbours lend the texels past its edges

  Texel at(std::array<int64_t, 3> idx) const {
    const int64_t n[3] = {img.width, img.height, img.depth};
    if (seamless && (idx[0] < 0 || idx[0] >= n[0] || idx[1] < 0 || idx[1] >= n[1])) return across_edge(idx);
    for (unsigned d = 0; d < dims; ++d) {
      idx[d] = address(idx[d], n[d], modes[d]);
      if (idx[d] < 0) return border(tex);
    }
    const uint64_t z = dims == 3 ? uint64_t(idx[2]) : slice;
    const uint8_t* p = img.data + z * img.slice_pitch + uint64_t(dims >= 2 ? idx[1] : 0) * img.row_pitch +
                       uint64_t(idx[0]) * texel_bytes;
    return decode(tex, p);
  }

  // Seamless cube filtering: past a corner, where three faces meet, there is no texel; the three
  // around it (this face's, and those past its x and y edges) share its weight (collect).
  bool past_corner(const std::array<int64_t, 3>& idx) const {
    const int64_t n = img.width;
    return seamless && (idx[0] < 0 || idx[0] >= n) && (idx[1] < 0 || idx[1] >= n);
  }
  std::array<Texel, 3> around_corner(const std::array<int64_t, 3>& idx) const {
    const int64_t x = std::clamp<int64_t>(idx[0], 0, img.width - 1), y = std::clamp<int64_t>(idx[1], 0, img.width - 1);
    return {at({x, y, 0}), at({idx[0], y, 0}), at({x, idx[1], 0})};
  }

  // Seamless cube filtering: a texel past the face's edge is the neighbouring face's texel in the
  // same direction (its centre's direction, projected again).
  Texel across_edge(const std::array<int64_t, 3>& idx) const {
    const int64_t n = img.width;
    const uint32_t face = slice % 6;
    const double size = img.width;
    const float sc = float(2 * (double(idx[0]) + 0.5) / size - 1), tc = float(2 * (double(idx[1]) + 0.5) / size - 1);
    static constexpr int8_t kAxes[6][3][3] = {  // direction = rows · (sc, tc, 1)
        {{0, 0, 1}, {0, -1, 0}, {-1, 0, 0}}, {{0, 0, -1}, {0, -1, 0}, {1, 0, 0}}, {{1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{1, 0, 0}, {0, 0, -1}, {0, -1, 0}}, {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}}, {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}}};
    float d[3];
    for (int k = 0; k < 3; ++k) d[k] = kAxes[face][k][0] * sc + kAxes[face][k][1] * tc + kAxes[face][k][2];
    const Face f = cube_face(d[0], d[1], d[2]);
    Sampled other = *this;
    other.slice = slice - face + f.face;
    other.seamless = false;
    return other.at({std::clamp<int64_t>(int64_t(std::floor(f.s * n)), 0, n - 1),
                     std::clamp<int64_t>(int64_t(std::floor(f.t * n)), 0, n - 1), 0});
  }
};

// The linear filter's weight of the upper texel in 256ths: the fraction in 1.8 fixed point
// (CUDA Programming Guide, "Texture Fetching": 9-bit fixed point with 8 fractional bits).
int64_t weight(double frac) { return int64_t(std::floor(frac * 256.0 + 0.5)); }

// x rounded to f32, ties away from zero.
float round_away(long double x) {
  float f = float(x);
  const long double off = x - f;
  if (off != 0) {
    const float g = std::nextafter(f, off > 0 ? INFINITY : -INFINITY);
    if (std::fabs(x - static_cast<long double>(g)) == std::fabs(off) && std::fabs(g) > std::fabs(f)) f = g;
  }
  return f;
}

// x rounded to f16 precision (10 fraction bits, f16's subnormal step below 2^-14), ties away
// from zero, as an f32.
float round_away_f16(long double x) {
  if (x == 0 || !std::isfinite(x)) return float(x);
  const long double ulp = std::ldexp(1.0L, std::max(std::ilogb(x), -14) - 10);
  return float(std::copysign(std::floor(std::fabs(x) / ulp + 0.5L), x) * ulp);
}

// floor(a / b) for b > 0.
int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }

// A coordinate in texels (normalized ones scaled by the size).
// A coordinate in texels: normalized ones scaled by the size, after wrap and mirror reduce them to
// one period ([0, 1) or [0, 2)), so that infinities and the largest floats read texel 0 as on the
// H100.
double texels(const Object& tex, float c, uint32_t n, AddressMode mode) {
  if (!tex.sampler.normalized_coordinates) return double(c);
  if (mode == AddressMode::Wrap || mode == AddressMode::Mirror) {
    const double period = mode == AddressMode::Wrap ? 1 : 2;
    c = std::isfinite(c) ? float(double(c) - period * std::floor(double(c) / period)) : 0.0f;
  }
  return double(c) * n;
}

std::array<AddressMode, 3> modes_of(const Object& tex) {
  std::array<AddressMode, 3> m = tex.sampler.address;
  if (!tex.sampler.normalized_coordinates)  // wrap and mirror need normalized coordinates (CUDA)
    for (AddressMode& a : m)
      if (a == AddressMode::Wrap || a == AddressMode::Mirror) a = AddressMode::Clamp;
  return m;
}

// The weights of the 4 (8) texels around a 2D (3D) lookup, in 256ths, from the per-axis 1.8
// fixed-point weights w (of the upper texel), as the H100 forms them (tests/hw/texture/filter:
// every weight pair of 2 x 2 textures, every pair at six depths of 2 x 2 x 2 ones): the z-upper
// slice takes T = wz * total / 256 rounded ties down, the other the rest (total is 256, or a mip
// level's share of a blend of two levels: tests/hw/texture's "level 3d" cases); in each slice (or
// 2D, T = total) the x-upper share is wx * T / 256 rounded (ties up), the x-lower share the rest;
// each share splits by wy, the upper part rounded ties up, the lower part ties down; every split
// gives its remainder to the other side, so the weights sum to total.
std::array<int64_t, 8> corner_weights(const std::array<int64_t, 3>& w, unsigned dims, int64_t total) {
  std::array<int64_t, 8> p{};
  const unsigned slices = dims == 3 ? 2 : 1;
  const int64_t z_upper = (w[2] * total + 127) >> 8;
  for (unsigned s = 0; s < slices; ++s) {
    const int64_t t = dims == 3 ? (s ? z_upper : total - z_upper) : total;
    const int64_t upper = (w[0] * t + 128) >> 8, lower = t - upper;
    const int64_t upper_y = (upper * w[1] + 128) >> 8, lower_y = (lower * w[1] + 127) >> 8;
    p[4 * s + 0] = lower - lower_y, p[4 * s + 1] = upper - upper_y;
    p[4 * s + 2] = lower_y, p[4 * s + 3] = upper_y;
  }
  return p;
}

// The texels a lookup blends, each with its weight in units of 1/unit (256ths, or an anisotropic
// footprint's 512ths or 1024ths) and the quad it belongs to (the 2 x 2 texels of one z slice of one
// level, or a point-filtered texel alone), before the one rounding: up to N of them (16: two
// levels of a 3D image; an anisotropic footprint takes up to 16 samples of 2 levels of 4 texels).
template <unsigned N>
struct Weighted {
  static constexpr unsigned kCapacity = N;
  std::array<Texel, N> texel;
  std::array<int64_t, N> weight;
  std::array<uint8_t, N> quad;
  unsigned n = 0, quads = 0;
  int64_t unit = 256;
  void add(const Texel& t, int64_t w, unsigned in_quad) {
    if (n == N)  // not reached by the footprints above; reported, never written past the array
      throw mem::GuestFault{mem::GuestFault::Kind::Unsupported, mem::Space::Generic, 0, 0,
                            "unsupported: a texture footprint of more than " + std::to_string(N) + " texels"};
    texel[n] = t, weight[n] = w, quad[n++] = uint8_t(in_quad);
  }
};
using Isotropic = Weighted<16>;
using Anisotropic = Weighted<128>;

// The texels of one level around float texel coordinates u (dims of them), with `total` of the
// weight: one texel (point filtering), or the 4 or 8 of linear filtering (corner_weights). In
// clamp mode the coordinate first stops at the first and last texel centres, so a lookup past the
// edge gives the edge texels all the weight (the H100: its trilinear blends split a level's share
// so, tests/hw/texture's "level" cases).
template <typename W>
void collect(const Sampled& s, const std::array<double, 3>& u, bool linear, int64_t total, W& out) {
  if (!linear) {
    std::array<int64_t, 3> idx{};
    for (unsigned d = 0; d < s.dims; ++d) idx[d] = index_of(u[d]);
    return out.add(s.at(idx), total, out.quads++);
  }
  const uint32_t n[3] = {s.img.width, s.img.height, s.img.depth};
  std::array<int64_t, 3> base{}, w{};
  for (unsigned d = 0; d < s.dims; ++d) {
    double x = u[d] - 0.5;
    if (s.modes[d] == AddressMode::Clamp && !s.seamless) x = std::clamp(x, 0.0, double(std::max(n[d], 1u) - 1));
    base[d] = index_of(x);
    w[d] = std::isfinite(x) ? weight(x - std::floor(x)) : 0;
  }
  const std::array<int64_t, 8> p = corner_weights(w, s.dims, total);
  for (unsigned k = 0; k < (1u << s.dims); ++k) {
    std::array<int64_t, 3> idx = base;
    for (unsigned d = 0; d < s.dims; ++d) idx[d] += (k >> d) & 1;
    const unsigned quad = out.quads + k / 4;
    if (s.past_corner(idx)) {  // the others a third each, rounded; this face's texel the rest (the H100)
      const std::array<Texel, 3> t = s.around_corner(idx);
      const int64_t third = (2 * p[k] + 3) / 6;
      out.add(t[0], p[k] - 2 * third, quad), out.add(t[1], third, quad), out.add(t[2], third, quad);
    } else {
      out.add(s.at(idx), p[k], quad);
    }
  }
  out.quads += s.dims == 3 ? 2 : 1;
}

// The sRGB bytes whose decoded value aligns a blend as if it were one binade higher: the last
// bytes before each power of two (tests/hw/texture/filter/srgb_quantum.bin.xz, every byte).
bool srgb_aligns_higher(uint32_t byte) {
  return byte == 32 || byte == 33 || byte == 48 || byte == 49 || (byte >= 64 && byte <= 70) ||
         (byte >= 96 && byte <= 98) || byte == 136 || (byte >= 184 && byte <= 187) || (byte >= 248 && byte <= 254);
}

// A float channel's texels as the H100 weights them: in block floating point per quad, each texel
// of nonzero weight cut (toward zero) to a multiple of 2^(E - bits), where 2^E bounds the quad's
// largest such texel and `bits` is the format's significand and 4 more (28 for f32, 15 for f16);
// an sRGB texture's decoded colour channels keep 8 bits, their E one higher for the bytes of
// srgb_aligns_higher. All 9,649 bilinear f32, 3,437 f16 and 1,964 sRGB lookups of tests/hw/texture
// agree (114, 58 and 886 miss an exact sum), and every two-texel sRGB blend of filter/pairs.bin.xz;
// 3D lookups agree only per z slice. Infinities and NaNs stay as they are.
template <typename W>
std::array<float, W::kCapacity> aligned(const W& b, unsigned c, int bits, bool srgb) {
  std::array<int, W::kCapacity> e;
  e.fill(INT32_MIN);
  for (unsigned k = 0; k < b.n; ++k) {
    const float v = b.texel[k].f[c];
    if (b.weight[k] && v != 0 && std::isfinite(v))
      e[b.quad[k]] = std::max(e[b.quad[k]], std::ilogb(v) + 1 + (srgb && srgb_aligns_higher(b.texel[k].i[c])));
  }
  std::array<float, W::kCapacity> out{};
  for (unsigned k = 0; k < b.n; ++k) {
    const float v = b.texel[k].f[c];
    const float cut = e[b.quad[k]] == INT32_MIN ? 0 : std::ldexp(1.0f, e[b.quad[k]] - bits);  // 0 below f32's range
    out[k] = cut == 0 || !std::isfinite(v) ? v : std::trunc(v / cut) * cut;
  }
  return out;
}

// An anisotropic footprint's f16 or sRGB colour channel as the H200 sums it, in units of 1/b.unit
// (filter probes part 19 and part 33, f16 texels of every magnitude: every one of 917,504 channels;
// part 34, sRGB: all but 7 of 86,016; helpers found it): each sample's texels (aligned to `bits`,
// `v`) weighted exactly; the samples then enter an accumulator two at a time, on a grid of 2^G
// that follows the largest texel so far, 2^Er bounding it: G = 4 floor((Er + 2) / 4) - 10 - bits,
// so that the grid moves in steps of four with the top bits of the f16 exponent field. When a pair
// raises Er the sum so far is cut down (toward -infinity) to the new grid, and each sample of the
// pair is cut down to it before it is added.
template <typename W>
long double anisotropic_sum(const W& b, unsigned c, const std::array<float, W::kCapacity>& v, int bits) {
  std::array<int, W::kCapacity> e;
  e.fill(INT32_MIN);
  std::array<long double, W::kCapacity> samples{};
  for (unsigned k = 0; k < b.n; ++k) {
    if (!b.weight[k]) continue;
    const float x = b.texel[k].f[c];
    if (x != 0 && std::isfinite(x)) e[b.quad[k]] = std::max(e[b.quad[k]], std::ilogb(x) + 1);
    samples[b.quad[k]] += static_cast<long double>(v[k]) * b.weight[k];
  }
  int top = INT32_MIN;    // Er
  long double step = 0;  // the grid, in units of 1/b.unit, once a texel has set Er
  auto cut = [&step](long double x) { return step == 0 ? x : std::floor(x / step) * step; };
  long double sum = -0.0L;  // zeros, infinities and NaNs alone: summed as they are
  for (unsigned q = 0; q < b.quads; q += 2) {
    const unsigned last = std::min(q + 2, b.quads);
    const int pair = last - q == 2 ? std::max(e[q], e[q + 1]) : e[q];
    if (pair != INT32_MIN && pair > top) {
      top = pair;
      step = std::ldexp(static_cast<long double>(b.unit), int(4 * floor_div(top + 2, 4) - 10 - bits));
      sum = cut(sum);
    }
    for (unsigned k = q; k < last; ++k) sum += cut(samples[k]);
  }
  return sum;
}

// A blend of 8-bit signed normalized texels as the H100 rounds it: from the raw weighted sum S (the
// bytes times their weights in 256ths) a 16-bit signed normalized value, about S * 32767 / 32512,
// computed as S (1 + 2^-7 + 2^-15) with the 2^-15 term cut to eighths, rounded half up, at least
// -32767 (every S of tests/hw/texture/filter/snorm8.bin.xz, and all 5,401 signed 8-bit lookups of
// tests/hw/texture).
int64_t snorm8_blend(int64_t raw) {
  return std::max<int64_t>(raw + floor_div(8 * raw + 128 * floor_div(raw, 4096) + 512, 1024), -32767);
}

// The channels of a blend of texels, as the H100 rounds it: the weighted sum (of the aligned texels
// for floats) exact, then rounded once (tests/hw/texture) — a float texture's to f32, ties away
// from zero (an f16 texture's, and an sRGB texture's decoded colour channels, to f16 precision,
// ties away); an 8- or 16-bit normalized one's to a 16-bit normalized value, ties up, read as that
// over 65535 (8-bit signed: snorm8_blend); an integer one's (read as integers) to an integer, 8-
// and 16-bit ones to nearest (ties up), 32-bit ones down. A single texel of all the weight (point
// filtering) is itself. Weights in 1024ths (anisotropic footprints): an f32 or 8-bit normalized
// texture's exact sum in them rounds as above (filter probes part 19: every RGBA8 lookup), an f16
// or sRGB one's sum of its samples' sums (anisotropic_sum); integers read as such take them to
// 256ths first (not measured).
template <typename W>
Texel blend(const Object& tex, const W& b) {
  if (b.n == 1 && b.weight[0] == b.unit) return b.texel[0];
  const ChannelFormat f = tex.resource.format;
  const bool is_signed = f == ChannelFormat::S8 || f == ChannelFormat::S16 || f == ChannelFormat::S32;
  auto exact_sum = [&](unsigned c) {  // the weighted sum of the raw integers, in units of 1/b.unit
    int64_t sum = 0;
    for (unsigned k = 0; k < b.n; ++k)
      sum += (is_signed ? int64_t(int32_t(b.texel[k].i[c])) : int64_t(b.texel[k].i[c])) * b.weight[k];
    return sum;
  };
  auto raw_sum = [&](unsigned c) {  // the same in 256ths
    const int64_t sum = exact_sum(c);
    return b.unit == 256 ? sum : floor_div(sum * 256 + b.unit / 2, b.unit);
  };
  Texel r;
  const bool srgb = tex.sampler.srgb && f == ChannelFormat::U8 && returns_float(tex);
  for (unsigned c = 0; c < 4; ++c) {
    if (f == ChannelFormat::F16 || f == ChannelFormat::F32 || (srgb && c < 3)) {  // sRGB: blends linear values
      const bool half = f == ChannelFormat::F16 || (srgb && c < 3);  // f16 and sRGB: at f16 precision
      const bool srgb_channel = srgb && c < 3;
      const int bits = srgb_channel ? 8 : f == ChannelFormat::F16 ? 15 : 28;
      const std::array<float, W::kCapacity> v = aligned(b, c, bits, srgb_channel);
      long double sum = -0.0L;  // so that texels of -0 alone sum to -0; texels of weight 0 take no part
      if (half && b.unit != 256) {
        sum = anisotropic_sum(b, c, v, bits);
      } else {
        for (unsigned k = 0; k < b.n; ++k)
          if (b.weight[k]) sum += static_cast<long double>(v[k]) * b.weight[k];
      }
      r.f[c] = half ? round_away_f16(sum / b.unit) : round_away(sum / b.unit);
      if (std::isnan(r.f[c]))  // the H100's NaN: f32's 0x7fffffff, or f16's 0x7fff as an f32
        r.f[c] = std::bit_cast<float>(f == ChannelFormat::F16 ? 0x7fffe000u : 0x7fffffffu);
      r.i[c] = f32_bits(r.f[c]);
    } else if (!returns_float(tex)) {
      const bool wide = f == ChannelFormat::U32 || f == ChannelFormat::S32;
      r.i[c] = uint32_t(floor_div(raw_sum(c) + (wide ? 0 : 128), 256));
    } else if (f == ChannelFormat::S8) {
      r.f[c] = float(double(snorm8_blend(raw_sum(c))) / 32767);
    } else {
      const unsigned bits = 8 * channel_bytes(f);
      const long double full = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
      const long double unit = is_signed ? 32767.0L : 65535.0L;  // the 16-bit normalized value's
      const long double q = std::floor(static_cast<long double>(exact_sum(c)) * unit / full / b.unit + 0.5L);
      r.f[c] = std::max(float(double(q) / double(unit)), -1.0f);
    }
  }
  return r;
}

// A tex.grad lookup's gradients in level-0 texels (scaled by the size where coordinates are
// normalized; on a cube map, the face's: face_gradients), and the texels per unit of its coordinates.
struct TexelGradients {
  float ddx[3] = {}, ddy[3] = {};
  float scale[3] = {1, 1, 1};
  bool crosses_edge = false;  // a cube lookup's gradient ends on another face
};
TexelGradients texel_gradients(const Object& tex, const Image& base, const Lookup& at) {
  TexelGradients g;
  if (at.geometry == Geometry::Cube || at.geometry == Geometry::ACube) {
    const FaceGradients f = face_gradients(at.f, at.ddx, at.ddy, base.width);
    std::copy_n(f.ddx, 3, g.ddx), std::copy_n(f.ddy, 3, g.ddy);
    g.scale[0] = g.scale[1] = float(base.width);  // a face's (s, t) are in [0, 1]
    g.crosses_edge = f.crosses_edge;
    return g;
  }
  const uint32_t size[3] = {base.width, base.height, base.depth};
  for (unsigned d = 0; d < coordinate_count(at.geometry); ++d) {
    if (tex.sampler.normalized_coordinates) g.scale[d] = float(size[d]);
    g.ddx[d] = at.ddx[d] * g.scale[d], g.ddy[d] = at.ddy[d] * g.scale[d];
    // In a 3D image a gradient is followed to its end, the coordinate plus the gradient in f32, and
    // spans from the coordinate to that end, a NaN end read as 0 (tests/hw/texture_lod:
    // special_grads3d, a NaN at the centre spans half of every axis; lod3d_dense, ends rounded to
    // f32 cross 10-bit steps of the component; tests/hw/texture's "grad 3d" lookups off the
    // centre); elsewhere a NaN component counts as 0 (level_of_detail.cpp, significant).
    if (at.geometry == Geometry::D3) {
      auto span = [&](float grad) {
        const float end = at.f[d] + grad;
        return float(((std::isnan(end) ? 0.0 : double(end)) - double(at.f[d])) * g.scale[d]);
      };
      g.ddx[d] = span(at.ddx[d]), g.ddy[d] = span(at.ddy[d]);
    }
  }
  return g;
}

// The level of detail a lookup asks for, before clamping to the levels that exist (tex.grad: the
// H200's rule, level_of_detail.h, on the gradients `g`).
float level_of(const Lookup& at, const TexelGradients& g) {
  if (at.mip == Lookup::Mip::Level) return at.level;
  if (at.mip == Lookup::Mip::Base) return 0;
  return grad_level(g.ddx, g.ddy, !g.crosses_edge);
}

std::array<uint32_t, 4> result_words(const Object& tex, const Texel& t, Result r) {
  std::array<uint32_t, 4> out{};
  const bool as_float = returns_float(tex);
  for (unsigned c = 0; c < 4; ++c) {
    if (r == Result::F16)
      out[c] = as_float ? uint32_t(numeric::cvt_float(numeric::kF16, numeric::kF32, f32_bits(t.f[c]), {})) : t.i[c] & 0xffff;
    else
      out[c] = as_float ? f32_bits(t.f[c]) : t.i[c];
  }
  return out;
}

// The dimensions a lookup filters in: a cube face is 2D, and so is a 1D image, one row high, at y
// = 0 — so that, as on the H100, linear filtering in border mode blends row -1 (the border colour)
// in by half.
unsigned dims_of(Geometry g) {
  return g == Geometry::D3 ? 3 : 2;
}

// A cube face's address modes: the sampler's (a face's coordinates are normalized), clamp with
// seamless filtering (the H100).
std::array<AddressMode, 3> cube_modes(const Object& tex) {
  if (tex.sampler.seamless_cubemap) return {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  return tex.sampler.address;
}

// The texels of one lookup at one level, with `total` of the weight.
template <typename W>
void sample_level(const Object& tex, const Image& img, const Lookup& at, uint32_t slice, std::array<double, 3> c,
                  int64_t total, W& out) {
  const unsigned dims = dims_of(at.geometry);
  Sampled s{tex, img, unsigned(channel_bytes(tex.resource.format) * tex.resource.channels), modes_of(tex), dims, slice};
  const uint32_t n[3] = {img.width, img.height, img.depth};
  std::array<double, 3> u{};
  const bool cube = at.geometry == Geometry::Cube || at.geometry == Geometry::ACube;
  for (unsigned d = 0; d < dims; ++d)
    u[d] = (cube ? c[d] * n[d] : texels(tex, float(c[d]), n[d], s.modes[d])) + at.offset[d];
  if (at.geometry == Geometry::A1D) u[1] = 0.5;  // a layer's row, at its centre: no border row blends in
  if (cube) s.modes = cube_modes(tex), s.seamless = tex.sampler.seamless_cubemap && tex.sampler.filter == FilterMode::Linear;
  collect(s, u, tex.sampler.filter == FilterMode::Linear, total, out);
}

// Coordinates as the H100 reads them: subnormals and NaNs as zero.
std::array<double, 3> flushed(std::array<float, 3> c) {
  std::array<double, 3> out{};
  for (unsigned d = 0; d < 3; ++d) out[d] = std::fpclassify(c[d]) == FP_SUBNORMAL || std::isnan(c[d]) ? 0 : c[d];
  return out;
}

// The array index of a layered lookup, clamped to the layers there are.
uint32_t layer_of(const Lookup& at, const Image& base) {
  if (!layered(at.geometry)) return 0;
  const uint32_t layers = at.geometry == Geometry::ACube ? base.depth / 6 : base.depth;
  return std::min(uint32_t(at.layer), layers - 1);  // an unsigned index (§9.7.10.3)
}

// Anisotropic filtering: the samples an H200 takes along the major axis (tests/hw/texture/filter:
// aniso_phase.bin.xz's 1D footprints, all 1,715,456 lookups; aniso.bin.xz's axis-aligned 2D ones,
// all of them). x is log2 of the anisotropy in 1/256 steps, at most log2 of the limit (16 at most):
//  - w = 256 · 2^-(x mod 256 / 256) rounded (128 .. 256), an 8-bit 1/ratio;
//  - below a ratio of 2, two samples of half the weight at ±(256 − w)/256 of a step from the centre
//    (1 − 1/ratio), the offset rounded to 1/128 texel where the step is known (sample_anisotropic);
//  - from 2 on, N samples one step apart, centred: the inner ones weigh a = w · 2^-(x div 256)
//    (in 1024ths, cut; in 512ths while a is over a quarter), N the least even count with N a ≥ 1,
//    the two end ones the rest, (1 − (N − 2) a) / 2 each (a ratio of 2.5 takes 4 samples of 26, 204,
//    204, 26 / 512; a ratio of 6 takes 6 samples of 170, 171, 171, 171, 171, 170 / 1024). Each
//    sample splits its share among its texels as corner_weights splits a total.
struct Footprint {
  unsigned n = 1, bits = 8;             // sample count; shares in 2^-bits
  std::array<int32_t, 16> offset{};     // in 1/256 of a step
  std::array<int64_t, 16> share{256};
};
Footprint major_axis_samples(int32_t x) {
  Footprint f;
  if (x <= 0) return f;
  const int32_t whole = x >> 8;
  const int64_t w = int64_t(std::floor(256 * std::exp2(-double(x & 255) / 256) + 0.5));
  if (whole == 0) {
    const int32_t d = int32_t(256 - w);
    f.n = 2, f.bits = 9, f.offset[0] = -d, f.offset[1] = d, f.share[0] = f.share[1] = 256;
    return f;
  }
  int64_t a = whole == 1 ? w << 1 : w >> (whole - 2);  // in 1024ths
  f.bits = 10;
  if (a > 256) f.bits = 9, a >>= 1;
  const int64_t full = int64_t{1} << f.bits;
  f.n = unsigned(2 * ((full + 2 * a - 1) / (2 * a)));
  const int64_t end = (full - int64_t(f.n - 2) * a) / 2;
  for (unsigned k = 0; k < f.n; ++k) {
    f.offset[k] = int32_t(256 * k) - 128 * int32_t(f.n - 1);
    f.share[k] = k == 0 || k + 1 == f.n ? end : a;
  }
  return f;
}

// With a max anisotropy over 1, the H200 sharpens the linear mip filter's level blend around whole
// levels, for tex.grad (isotropic gradients too) and tex.level alike (aniso_levels.bin.xz part 15:
// all 20,490 tex.level lookups, limits 1-8, 12, 16): the upper level's share of a level fraction f
// (1/256 steps) is 2f − 128 with a limit of 8 to 16, 7f/4 − 95 (rounded half up) with 4 to 7, and
// 3f/2 − 63 (cut) with 2 or 3, within 0 .. 256; a limit of 1 leaves f. This is the trilinear
// optimization CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION turns off (`exact`): tests/hw/texture's
// "exact trilinear" case differs in 224 fewer words with it off.
int64_t sharpened(int64_t f, uint32_t limit, bool exact) {
  if (limit < 2 || exact) return f;
  const int64_t w = limit >= 8 ? 2 * f - 128 : limit >= 4 ? (7 * f + 2) / 4 - 95 : 3 * f / 2 - 63;
  return std::clamp<int64_t>(w, 0, 256);
}

// log2 of the limit as the H200's level of detail takes it, in 1/256 steps (aniso_levels.bin.xz part
// 14 and aniso_more.bin.xz part 18, a major axis of A·s texels, every limit from 2 to 16 measured):
// 256 for limits 2 and 3, 512 for 4 and 5, 656 for 6 and 7, 768 for 8 and 9, 848 for 10 and 11, 912
// for 12 to 15, 1024 for 16 — the limit made one of 2, 4, 6, 8, 10, 12, 16, its log2 cut to 1/16.
// It caps the sample count too (part 20: limit 6, every footprint past the cap).
int32_t limit_steps(uint32_t limit) {
  static constexpr int32_t kSteps[17] = {0, 0, 256, 256, 512, 512, 656, 656, 768, 768, 848, 848, 912, 912, 912, 912, 1024};
  return kSteps[std::min<uint32_t>(limit, 16)];
}

// The direction of the steps along a major axis v, in 1/64 texel (aniso_step.bin.xz part 10: the
// step fits every one of the 750 footprints at every 1/512 turn): each component keeps 3 bits below
// the longer one's leading bit (cut, then the middle of that interval; under a quarter of it, 0),
// the pair is made unit length and each component rounded to 1/64. At 26.6 degrees a major axis of
// 4 texels steps (57, 29)/64, one of 5 texels (57, 30)/64.
std::array<double, 2> step_direction(float vx, float vy) {
  const double ax = std::fabs(double(vx)), ay = std::fabs(double(vy));
  int e;
  std::frexp(std::max(ax, ay), &e);
  const double q = std::ldexp(1.0, e - 4);
  auto middle = [q](double c) { return c < q / 4 ? 0.0 : (std::floor(c / q) + 0.5) * q; };
  const double mx = middle(ax), my = middle(ay), n = std::hypot(mx, my);
  return {std::copysign(std::floor(64 * mx / n + 0.5), double(vx)) / 64,
          std::copysign(std::floor(64 * my / n + 0.5), double(vy)) / 64};
}

// A product of two gradient components (magnitudes of 10 significant bits) as the H200's multiplier
// forms it: a's significand times each set bit of b's, each cut to the column 12 bits below
// 2^(e_a + e_b), summed, 7 columns added, the total cut to 10 significant bits at its own leading
// one. The value is m 2^(e - 9), m of 10 bits (0 for a zero product).
struct Product {
  int64_t m = 0;
  int e = 0;
};
Product multiplied(double a, double b) {
  if (!(a > 0) || !(b > 0)) return {};
  const int ea = std::ilogb(a), eb = std::ilogb(b);
  const int64_t ma = int64_t(std::ldexp(a, 9 - ea)), mb = int64_t(std::ldexp(b, 9 - eb));
  int64_t columns = 7;  // in units of 2^(e_a + e_b - 12)
  for (int j = 0; j < 10; ++j)
    if (mb >> j & 1) columns += j >= 6 ? ma << (j - 6) : ma >> (6 - j);
  const int carry = columns >= (int64_t(2) << 12) ? 1 : 0;
  return {columns >> (3 + carry), ea + eb + carry};
}

// The area |ddx × ddy| as the anisotropic level of detail takes it (tests/hw/texture_lod/
// aniso_area.bin.xz, whose ddx measures 8 texels so that the level is log2(area) - 3: every one of
// 326,887 areas; lod_dense sets 6-9: every anisotropic level): the components cut to 10 significant
// bits, each product from the multiplier (multiplied), the one of the smaller exponent aligned to
// the other's keeping one guard bit (the bits shifted out dropped), the two added or subtracted as
// their signs say, the result whole (log2_steps then reads 8 fraction bits).
double footprint_area(const float (&ddx)[3], const float (&ddy)[3]) {
  for (float c : {ddx[0], ddx[1], ddy[0], ddy[1]})
    if (std::isinf(c)) return std::numeric_limits<double>::infinity();
  const Product p1 = multiplied(significant(ddx[0]), significant(ddy[1]));
  const Product p2 = multiplied(significant(ddx[1]), significant(ddy[0]));
  const bool first = p2.m == 0 || (p1.m != 0 && (p1.e > p2.e || (p1.e == p2.e && p1.m >= p2.m)));
  const Product& larger = first ? p1 : p2;
  const Product& smaller = first ? p2 : p1;
  if (larger.m == 0) return 0;
  int64_t aligned = 0;  // the smaller one in units of 2^(larger.e - 10)
  if (smaller.m != 0) {
    const int shift = 1 - (larger.e - smaller.e);
    aligned = shift >= 0 ? smaller.m << shift : shift > -62 ? smaller.m >> -shift : 0;
  }
  auto sign = [](float x) { return x > 0 ? 1 : x < 0 ? -1 : 0; };
  const bool subtract = sign(ddx[0]) * sign(ddy[1]) * sign(ddx[1]) * sign(ddy[0]) > 0;
  const int64_t sum = (larger.m << 1) + (subtract ? -aligned : aligned);
  return std::ldexp(double(sum < 0 ? -sum : sum), larger.e - 10);
}

// tex.grad with a max anisotropy over 1 in a 1D or 2D image, a 2D array or on a cube face
// (aniso.bin.xz parts 1-4: every footprint; aniso_step.bin.xz part 10: all 750; cube_grad.bin.xz
// part 22: all 320 footprints; tests/hw/texture_lod/aniso_wide.bin.xz: all but 51 of 150,000 random
// lookups on levels; the H100
// filters 1D arrays and 3D images isotropically). The major axis is grad_level's (major_axis: the
// longer gradient, or their sum or difference at 11/16 of its length; cube_grad.bin.xz part 21 at
// limits 1-16: every one of 4,320 levels each);
// log2 of the minor is log2(area) − log2(major) (footprint_area; 0 in 1D), the level of
// detail that, at least log2(major) − limit_steps(limit), in log2_steps' 1/256 steps, then biased and
// clamped; the anisotropy log2(major) less that level (at least 0), at most limit_steps, so that a
// texture without levels takes a minor axis under one texel as one texel and, past the limit,
// keeps the limit's count one texel apart. The samples step along step_direction of the major axis
// (major_axis's vector: a gradient, or the sum or difference scaled by 11/16; filter probes parts 23,
// 24 and 29: every footprint).
// On levels (aniso_levels.bin.xz parts 11-13, along x; aniso_random.bin.xz part 27, random pairs;
// aniso_stretch.bin.xz part 29, every angle): the lower level l0 stretches its step by 2^(u/256),
// u the sharpened upper share (take, below); with u = 256 the samples
// sit on the upper level one of its texels apart; while 0 < u < 256 the upper level's samples are
// one of its texels apart and their log2 ratio is the lower level's plus u − 256, so that both
// footprints are as long (aniso_more.bin.xz part 16: all 104,960 lookups of 14 footprints). A
// level's samples split its share by their running total, rounded, so that the level keeps its
// whole share (the H200 alternates 57 and 56 1024ths on level 0 with u = 30; cube_grad.bin.xz part
// 21: 929 more levels exact than rounding each sample's part). Open: whether the bias and the level
// clamps change the ratio.
// std::nullopt where the gradients give no footprint (zero, infinite or NaN: the isotropic path then
// answers).
std::optional<std::array<uint32_t, 4>> sample_anisotropic(const Object& tex, const std::vector<Image>& levels,
                                                          const Lookup& at, uint32_t slice,
                                                          const std::array<double, 3>& c, const TexelGradients& g,
                                                          Result r) {
  const float(&ddx)[3] = g.ddx;
  const float(&ddy)[3] = g.ddy;
  const float* size = g.scale;
  const MajorAxis axis = major_axis(ddx, ddy);
  const float major = axis.length;
  const double area = footprint_area(ddx, ddy);
  if (!(major > 0) || !std::isfinite(major) || !(area >= 0) || !std::isfinite(area)) return std::nullopt;
  const uint32_t limit = std::min<uint32_t>(tex.sampler.max_anisotropy, 16);
  const int32_t log_limit = limit_steps(limit);
  const int32_t log_major = log2_steps(major);
  // The minor axis is at most the major one (perpendicular gradients of one length at 45 degrees,
  // whose sum is longer than either: tests/hw/texture's "grad 2d" rotated cases).
  const int32_t log_minor = area > 0 ? std::min(log2_steps(float(area)) - log_major, log_major) : INT32_MIN / 2;
  const bool mipmapped = tex.resource.kind == TextureResource::Kind::MipmappedArray && levels.size() > 1;
  const int32_t asked = std::max(log_minor, log_major - log_limit);
  float lod = float(asked) / 256 + tex.sampler.mipmap_level_bias;
  if (mipmapped) lod = std::max(std::min(lod, tex.sampler.max_mipmap_level_clamp), tex.sampler.min_mipmap_level_clamp);
  lod = std::clamp(lod, 0.0f, mipmapped ? float(levels.size() - 1) : 0.0f);
  const int32_t lod_steps = int32_t(std::floor(lod * 256));
  size_t l0 = 0, l1 = 0;
  int64_t upper_share = 0;  // the upper level's, in 256ths
  if (mipmapped && tex.sampler.mipmap_filter == FilterMode::Linear && returns_float(tex)) {
    l0 = size_t(lod_steps >> 8), l1 = std::min(l0 + 1, levels.size() - 1);
    upper_share = l1 > l0 ? sharpened(lod_steps & 255, limit, tex.sampler.exact_trilinear) : 0;
  } else if (mipmapped) {
    l0 = l1 = size_t(std::floor(lod + 0.5f));
  }
  const std::array<double, 2> direction = step_direction(axis.v[0], axis.v[1]);
  Anisotropic blended;
  blended.unit = 1024;
  // One level's samples: log2 of their ratio x, their step stretched by 2^(stretch_u/256), `share`
  // 256ths of the weight. The stretch is rounded up to 1/256, then cut to 1/64 (filter probes part
  // 29: every footprint along an axis). Four or more samples step by the direction times the
  // stretch, each component cut towards −∞ to 1/64 of the level's texel (part 29: every one of 184
  // footprints of a gradient axis at 48 angles). Two samples (a ratio under 2) sit ±d/256 of an
  // unstretched step out: the offset of the one at +d, direction times d/2 in 1/128 of the level's
  // texel, is rounded half up (towards +∞), then stretched and cut towards −∞, and the one at −d
  // is its negation (parts 10, 25, 26: every footprint; part 29: all but 8 of 960, against 754
  // rounding the magnitude). With linear filtering the offsets are added to the centre rounded half
  // up to 1/256 of the level's texel, the filter's own grid, so that a centre on a tie of that grid
  // rounds once, the same way for every sample (tests/hw/texture_lod/aniso_wide: 46 of 51 lookups
  // that differed; part 27's last lookup; point filtering keeps the centre as it is).
  auto take = [&](size_t level, int32_t x, int64_t stretch_u, int64_t share) {
    const Footprint fp = major_axis_samples(x);
    const double texel = std::ldexp(1.0, int(level));
    const double stretch = std::floor(std::ceil(256 * std::exp2(double(stretch_u) / 256)) / 4) / 64;
    std::array<double, 3> centre = c;
    if (tex.sampler.filter == FilterMode::Linear)
      for (unsigned d = 0; d < 2; ++d) {
        const double n = double(size[d]) / texel;  // the level's texels per unit of the coordinate
        centre[d] = (std::floor((c[d] * n - 0.5) * 256 + 0.5) / 256 + 0.5) / n;
      }
    int64_t before = 0;  // the samples' shares so far
    for (unsigned k = 0; k < fp.n; ++k) {
      std::array<double, 3> at_k = centre;
      for (unsigned d = 0; d < 2; ++d) {
        double offset;  // in the level's texels
        if (fp.n == 2) {
          const double half = std::floor(direction[d] * std::fabs(double(fp.offset[k])) / 2 + 0.5);
          offset = std::floor(half * stretch) / 128 * (fp.offset[k] > 0 ? 1 : -1);
        } else {
          offset = std::floor(64 * direction[d] * stretch) / 64 * fp.offset[k] / 256;
        }
        offset *= texel;
        at_k[d] += offset / size[d];
      }
      // The sample's share splits among its texels in the footprint's own unit (2^-bits), and
      // only then scales to 1024ths (filter probes part 19: every RGBA8 lookup; split in 1024ths,
      // the corner weights round otherwise).
      const int64_t t = (((before + fp.share[k]) * share + 128) >> 8) - ((before * share + 128) >> 8);
      before += fp.share[k];
      const unsigned first = blended.n;
      if (t) sample_level(tex, levels[level], at, slice, at_k, t, blended);
      for (unsigned i = first; i < blended.n; ++i) blended.weight[i] <<= 10 - fp.bits;
    }
  };
  const int32_t ratio = std::min(log_major - std::max(asked, 0), log_limit);
  if (upper_share == 256) {  // all on the upper level: its texels apart (parts 12, 13)
    take(l1, ratio, 0, 256);
  } else {
    take(l0, ratio, upper_share, 256 - upper_share);
    if (upper_share) take(l1, std::max(ratio + int32_t(upper_share) - 256, 0), 0, upper_share);
  }
  return result_words(tex, blend(tex, blended), r);
}

}  // namespace

unsigned coordinate_count(Geometry g) {
  switch (g) {
  case Geometry::D1:
  case Geometry::A1D: return 1;
  case Geometry::D2:
  case Geometry::A2D:
  case Geometry::D2MS:
  case Geometry::A2DMS: return 2;
  default: return 3;
  }
}

bool layered(Geometry g) {
  return g == Geometry::A1D || g == Geometry::A2D || g == Geometry::ACube || g == Geometry::A2DMS;
}

std::string resolve(const TextureResource& r, mem::GlobalMemory& g, std::vector<Image>& levels) {
  if (std::string why = validate(r); !why.empty()) return why;
  const uint64_t texel = uint64_t(channel_bytes(r.format)) * r.channels;
  levels.clear();
  uint64_t offset = 0;
  const uint32_t levels_n = r.kind == TextureResource::Kind::MipmappedArray ? r.levels : 1;
  for (uint32_t l = 0; l < levels_n; ++l) {
    Image img;
    img.width = std::max(1u, r.width >> l);
    img.height = r.height ? std::max(1u, r.height >> l) : 1;
    const bool stacked = r.layered || r.cubemap;  // layers and faces keep their count
    img.depth = r.depth ? (stacked ? r.depth : std::max(1u, r.depth >> l)) : 1;
    if (r.kind == TextureResource::Kind::Linear) img.width = uint32_t(r.bytes / texel), img.height = 1, img.depth = 1;
    img.row_pitch = r.kind == TextureResource::Kind::Pitch2D ? r.pitch : img.width * texel;
    img.slice_pitch = img.row_pitch * img.height;
    const uint64_t bytes = img.slice_pitch * img.depth;
    img.data = g.find(r.address + offset, bytes);
    if (!img.data)
      return "level " + std::to_string(l) + " of the texture's data (" + std::to_string(bytes) +
             " bytes) does not lie inside one device allocation";
    levels.push_back(img);
    offset += bytes;
  }
  return "";
}

std::array<uint32_t, 4> sample(const Object& tex, const std::vector<Image>& levels, const Lookup& at, Result r) {
  // Integer coordinates (§9.7.10.3: .s32): texel indices, no filtering, the address modes apply.
  const Image& base = levels[0];
  uint32_t slice = layer_of(at, base);
  // A 1D lookup with integer coordinates reads linear memory (tex1Dfetch) and one with float
  // coordinates the other resources; the H100 returns 0 for the other pairs.
  if (at.geometry == Geometry::D1 && at.integer != (tex.resource.kind == TextureResource::Kind::Linear))
    return {0, 0, 0, 0};
  // Integer coordinates (.s32, §9.7.10.3): texel indices, no filtering, no address modes: a texel
  // outside the image reads 0 in every channel (the H100; tex1Dfetch's rule) — except in a
  // mipmapped array, whose indices are clamped to the level's texels (the H100, with a clamping
  // sampler: tests/hw/texture's "level 2d s32 point/point").
  if (at.integer) {
    // .level with .s32 coordinates names a level by number: one the resource lacks reads 0.
    const bool mipmapped = tex.resource.kind == TextureResource::Kind::MipmappedArray;
    size_t level = 0;
    if (at.mip == Lookup::Mip::Level) {
      if (at.level < 0 || at.level >= float(levels.size())) return {0, 0, 0, 0};
      level = size_t(at.level);
    }
    const unsigned dims = dims_of(at.geometry);
    Sampled s{tex, levels[level], unsigned(channel_bytes(tex.resource.format) * tex.resource.channels),
              {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp}, dims, slice};
    if (layered(at.geometry) && slice != uint32_t(at.layer)) return {0, 0, 0, 0};  // an index past the layers
    std::array<int64_t, 3> idx{};
    const int64_t n[3] = {base.width, base.height, base.depth};
    for (unsigned d = 0; d < dims; ++d) {
      idx[d] = int64_t(at.i[d]) + at.offset[d];
      if (!mipmapped && (idx[d] < 0 || idx[d] >= n[d])) return {0, 0, 0, 0};
    }
    return result_words(tex, s.at(idx), r);
  }
  std::array<double, 3> c = flushed(at.f);
  if (at.geometry == Geometry::Cube || at.geometry == Geometry::ACube) {
    const Face f = cube_face(at.f[0], at.f[1], at.f[2]);
    slice = slice * 6 + f.face;
    c = {f.s, f.t, 0};
  }
  const TexelGradients g = at.mip == Lookup::Mip::Grad ? texel_gradients(tex, base, at) : TexelGradients{};
  // The H100 filters 1D and 2D images, 2D arrays and cube faces anisotropically, except a cube
  // lookup whose gradients cross an edge.
  const bool anisotropic = at.geometry == Geometry::D1 || at.geometry == Geometry::D2 || at.geometry == Geometry::A2D ||
                           at.geometry == Geometry::Cube || at.geometry == Geometry::ACube;
  if (at.mip == Lookup::Mip::Grad && tex.sampler.max_anisotropy > 1 && anisotropic && !g.crosses_edge)
    if (const auto out = sample_anisotropic(tex, levels, at, slice, c, g, r)) return *out;
  // .base reads level 0 whatever the bias (the H100); the clamps still apply. A NaN lod reads as
  // 0, before the bias (the H100).
  const float asked = level_of(at, g);
  float lod = at.mip == Lookup::Mip::Base ? 0.0f : (std::isnan(asked) ? 0.0f : asked) + tex.sampler.mipmap_level_bias;
  Isotropic blended;
  if (tex.resource.kind != TextureResource::Kind::MipmappedArray || levels.size() == 1) {
    sample_level(tex, base, at, slice, c, 256, blended);
    return result_words(tex, blend(tex, blended), r);
  }
  if (std::isnan(lod)) lod = 0;
  lod = std::max(std::min(lod, tex.sampler.max_mipmap_level_clamp), tex.sampler.min_mipmap_level_clamp);
  lod = std::clamp(lod, 0.0f, float(levels.size() - 1));
  if (tex.sampler.mipmap_filter == FilterMode::Point || !returns_float(tex)) {
    sample_level(tex, levels[size_t(std::floor(lod + 0.5f))], at, slice, c, 256, blended);
    return result_words(tex, blend(tex, blended), r);
  }
  // A linear mip filter blends two levels as one more dimension of the filter: the upper level's
  // share is the lod's fraction truncated to 1/256, and each level's texels split their share as
  // corner_weights does (the H100).
  const size_t l0 = size_t(std::floor(lod)), l1 = std::min(l0 + 1, levels.size() - 1);
  int64_t w = int64_t(std::floor((lod - std::floor(lod)) * 256));
  // With a max anisotropy over 1 the trilinear optimization sharpens the blend here too: for
  // tex.level (filter probes part 15, all 20,490 lookups) and for the tex.grad lookups that the
  // H100 filters isotropically, 3D images and 1D arrays (tests/hw/texture: 1,110 and 497 words
  // differed without it, 8 and 7 with it; cube maps move little).
  if (at.mip != Lookup::Mip::Base && tex.sampler.max_anisotropy > 1)
    w = sharpened(w, tex.sampler.max_anisotropy, tex.sampler.exact_trilinear);
  sample_level(tex, levels[l0], at, slice, c, 256 - w, blended);
  sample_level(tex, levels[l1], at, slice, c, w, blended);
  return result_words(tex, blend(tex, blended), r);
}

std::array<uint32_t, 4> gather(const Object& tex, const std::vector<Image>& levels, const Lookup& at, unsigned comp,
                               Result r) {
  const Image& img = levels[0];
  uint32_t slice = layer_of(at, img);
  std::array<double, 3> c = flushed(at.f);
  if (at.geometry == Geometry::Cube || at.geometry == Geometry::ACube) {
    const Face f = cube_face(at.f[0], at.f[1], at.f[2]);
    slice = slice * 6 + f.face;
    c = {f.s, f.t, 0};
  }
  Sampled s{tex, img, unsigned(channel_bytes(tex.resource.format) * tex.resource.channels), modes_of(tex), 2, slice};
  if (at.geometry == Geometry::Cube || at.geometry == Geometry::ACube)
    s.modes = cube_modes(tex);
  const bool cube = at.geometry == Geometry::Cube || at.geometry == Geometry::ACube;
  // The footprint's lower-left texel, from the coordinate in 1.8 fixed point as linear filtering
  // takes it: a coordinate within 1/512 below a texel centre rounds up onto it (the H100).
  auto lower = [](double u) { return index_of(std::floor((u - 0.5) * 256 + 0.5) / 256); };
  const int64_t x = lower(cube ? c[0] * img.width : texels(tex, float(c[0]), img.width, s.modes[0])) + at.offset[0];
  const int64_t y = lower(cube ? c[1] * img.height : texels(tex, float(c[1]), img.height, s.modes[1])) + at.offset[1];
  // §9.7.10.4: the texels (x, y+1), (x+1, y+1), (x+1, y), (x, y): lower left first, counter-clockwise.
  const std::array<std::array<int64_t, 3>, 4> corners{{{x, y + 1, 0}, {x + 1, y + 1, 0}, {x + 1, y, 0}, {x, y, 0}}};
  Texel t;
  for (unsigned k = 0; k < 4; ++k) {
    const Texel v = s.at(corners[k]);
    const bool snorm8 = tex.resource.format == ChannelFormat::S8 && returns_float(tex);
    t.f[k] = snorm8 ? snorm(int32_t(v.i[comp]), 127) : v.f[comp];
    t.i[k] = v.i[comp];
  }
  return result_words(tex, t, r);
}

}  // namespace ptxvm::texture
