// The texture and surface cases recorded on Hopper (PTX §9.7.10, §9.7.11 and §5.3 of
// 001_23fdd5978b24a3ed.txt): shared, unchanged, by record_texture.cu and ptxvm's replay. Plain
// C++17, no CUDA header: CUDA's enumerations appear by value.
//
// A case is a kernel of texture_kernels.ptx (its row in kernels.inc), an image (the CUDA array,
// mipmapped array, linear or pitch-linear memory and its texels), for textures a sampler
// (CUDA_TEXTURE_DESC), and a plan, which says what lookups it runs. From the case's name:
//   texels(image, name)  the image's bytes, dense: x fastest, then y, then the slice (z, the layer,
//                        the cube face, or 6 * cube + face for a layered cube map), then the mip
//                        level (extent() gives each level's size)
//   lookups(case)        16 words per lookup, laid out as the kernels read them:
//     words 0-3   c / b, the coordinate vector: the array index first for a1d, a2d and acube
//                 (§9.7.10.3), then x, y, z; f32 bits, or s32 for .s32 coordinates and surfaces
//                 (whose x counts bytes for suld.b/sust.b/sured.b, elements for sust.p/sured.p,
//                 §9.7.11.1-§9.7.11.3)
//     words 4-7   tex.grad: dPdx; sust/sured: the data (a .b64 element is two words, low first;
//                 a .b8/.b16 element takes the low bits of its word)
//     words 8-11  tex.grad: dPdy
//     word 12     tex.level: the lod (.f32, or .s32 with .s32 coordinates); txq.level: the lod
//                 (s32); a depth-compare kernel: the reference value (f32)
//     words 13-15 the offset vector e (s32) of the *_offset kernels
//
// A load case (tex, tld4, txq, istypep, suld, suq) launches its kernel once with n = lookups and
// records the n * result_words words written to `out`, which starts filled with 0xdeadbeef. A
// store case (sust, sured) launches its kernel once per lookup i, with n = 1 and coords pointing
// at lookup i (out unused: 0), and records the surface's image after each launch, as texels()
// lays it out, padded with zero bytes to whole words. Blocks have 128 threads. The records come
// in the order of texture_cases(), then surface_cases(); a launch the GPU stopped is a record of
// no words, an image or object the driver refused a record "<name> refused" (record_texture.cu).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw_texture {

// CUarray_format
inline constexpr unsigned kU8 = 0x01, kU16 = 0x02, kU32 = 0x03, kS8 = 0x08, kS16 = 0x09,
                          kS32 = 0x0a, kF16 = 0x10, kF32 = 0x20;
// CUresourcetype
inline constexpr unsigned kResArray = 0, kResMipmapped = 1, kResLinear = 2, kResPitch2D = 3;
// CUDA_ARRAY3D_* flags
inline constexpr unsigned kLayered = 0x01, kSurfaceLdst = 0x02, kCubemap = 0x04,
                          kTextureGather = 0x08, kDepthTexture = 0x10;
// CUaddress_mode, CUfilter_mode
inline constexpr unsigned kWrap = 0, kClamp = 1, kMirror = 2, kBorder = 3;
inline constexpr unsigned kPoint = 0, kLinear = 1;
// CU_TRSF_* flags of CUDA_TEXTURE_DESC
inline constexpr unsigned kReadAsInteger = 0x01, kNormalized = 0x02, kSrgb = 0x10,
                          kNoTrilinearOptimization = 0x20, kSeamlessCubemap = 0x40;

// ---- The kernels (kernels.inc, written with texture_kernels.ptx by gen_kernels.py) ----

enum Family : uint8_t {
  kTex,
  kTexLevel,
  kTexGrad,
  kTld4,
  kTxq,
  kIstypep,
  kSuq,
  kSuld,
  kSustB,
  kSustP,
  kSuredB,
  kSuredP
};
enum Geom : uint8_t { kNone, k1d, k2d, k3d, kA1d, kA2d, kCube, kACube };

struct Kernel {
  const char* name;  // the .entry in texture_kernels.ptx
  Family family;
  Geom geom;
  bool int_coords;        // tex with .s32 coordinates
  unsigned access_bytes;  // suld.b/sust.b: bytes one access moves; sured: its type's bytes
  unsigned result_words;  // words written per lookup; 0 for stores and reductions
};

inline constexpr Kernel kKernels[] = {
#include "kernels.inc"
};

inline const Kernel& kernel(const std::string& name) {
  for (const Kernel& k : kKernels)
    if (name == k.name) return k;
  throw std::invalid_argument("no kernel " + name);
}

// Stores and reductions: recorded as the surface after each lookup.
inline bool stores(const Kernel& k) {
  return k.family == kSustB || k.family == kSustP || k.family == kSuredB || k.family == kSuredP;
}

// ---- Images and samplers ----

enum Data : uint8_t {
  // integers: random bits; f32: ±[2^-8, 2^4) with random mantissa; f16: ±[2^-6, 2^4)
  kRandom,
  // kRandom, with one float channel in eight a special value (±0, ±Inf, NaNs, subnormals, max)
  kSpecials,
  // channels 0-3 = x, y, slice, level (one channel: x + 64 y + 4096 slice + 262144 level), as an
  // integer of the format (its low bits) or a float (f16: the value mod 2048)
  kRamp,
};

struct Image {
  unsigned resource = kResArray;  // CUresourcetype
  unsigned format = kF32;         // CUarray_format
  unsigned channels = 1;          // 1, 2 or 4
  // As cuArray3DCreate takes them: height 0 for 1D, depth 0 for 1D and 2D; a layered array's
  // depth counts layers, a cube map's is 6, a layered cube map's 6 * cubes. Linear: width only.
  unsigned width = 1, height = 0, depth = 0;
  unsigned flags = 0;   // CUDA_ARRAY3D_* (arrays and mipmapped arrays)
  unsigned levels = 1;  // mipmapped arrays: the levels, each half the one before (§9.7.10.2)
  unsigned pitch = 0;   // pitch2D: bytes from one row to the next (the bytes between are zero)
  Data data = kRandom;
};

struct Sampler {  // CUDA_TEXTURE_DESC
  unsigned address[3] = {kClamp, kClamp, kClamp};
  unsigned filter = kPoint, mip_filter = kPoint;
  unsigned flags = 0;  // CU_TRSF_*
  unsigned max_anisotropy = 0;
  float level_bias = 0, min_level_clamp = 0, max_level_clamp = 0;
  uint32_t border[4] = {0, 0, 0, 0};  // the border colour's f32 bits
};

enum Plan : uint8_t {
  // Per axis: texel centres, edges, quarters, just off edges, far outside, NaN/Inf/huge (the
  // others at an anchor); array indices in and out of range; 256 random points. Cube maps:
  // directions onto every face, ties between faces, specials, random.
  kPlanBasic,
  // Per axis, 1024 points in one texel: steps of 1/512, k/256 ± 2^-12, the centre ± j 2^-16.
  kPlanFine,
  // Explicit lods: a 1/64 grid over every level, just off integers, out of range, NaN/Inf.
  kPlanLevel,
  // Gradients: zero, isotropic on a fine grid, rotated, anisotropic 1:1 to 1:64, specials.
  kPlanGrad,
  // Offsets -10..9 on each axis, out of their 4-bit range, random.
  kPlanOffset,
  // Depth-compare references -8 .. 8, ±2^-9, NaN, ±Inf at ten points, random.
  kPlanCompare,
  // txq.level's lods 0 .. levels + 1, -1, INT32_MAX; suq and istypep of surfaces: one lookup.
  kPlanQuery,
  // Surfaces. Loads: every element; stores: corners and inside (reductions: repeatedly).
  kPlanSurfInRange,
  // kPlanSurfInRange, then each coordinate before, past and far from its range.
  kPlanSurfEdges,
  // Every byte offset from -access to past the end of row 1.
  kPlanSurfBytes,
  // x off the access size's alignment, inside and straddling the end.
  kPlanSurfMisaligned,
  // One lookup each: x one element past the end, one before the start, y = height, z = depth,
  // layer = layers.
  kPlanSurfOobX,
  kPlanSurfOobXNeg,
  kPlanSurfOobY,
  kPlanSurfOobZ,
  kPlanSurfOobLayer,
};

struct TexCase {
  std::string name, kernel;
  Image image;
  Sampler sampler;
  Plan plan;
};

struct SurfCase {
  std::string name, kernel;
  Image image;  // an array with kSurfaceLdst
  Plan plan;
};

inline unsigned format_bytes(unsigned format) {
  return format == kU8 || format == kS8                       ? 1
         : format == kU16 || format == kS16 || format == kF16 ? 2
                                                              : 4;
}
inline unsigned texel_bytes(const Image& im) {
  return format_bytes(im.format) * im.channels;
}

struct Extent {
  unsigned width, rows, slices;  // rows >= 1, slices >= 1
};

// Level `level`'s size: each dimension halved and rounded down, at least 1 (§9.7.10.2); layers and
// cube faces are not mip dimensions.
inline Extent extent(const Image& im, unsigned level) {
  auto half = [&](unsigned n) { return std::max(1u, n >> level); };
  const unsigned rows = im.height ? half(im.height) : 1;
  const unsigned slices = im.depth == 0                      ? 1
                          : im.flags & (kLayered | kCubemap) ? im.depth
                                                             : half(im.depth);
  return {half(im.width), rows, slices};
}

inline size_t image_bytes(const Image& im) {
  size_t n = 0;
  for (unsigned l = 0; l < im.levels; ++l) {
    const Extent e = extent(im, l);
    n += size_t(e.width) * e.rows * e.slices * texel_bytes(im);
  }
  return n;
}

inline uint64_t seed_of(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char ch : name) h = (h ^ uint8_t(ch)) * 0x100000001b3ull;
  return h;
}

namespace detail {

inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// m * 2^e, exact for |m| < 2^24.
inline float exact(int64_t m, int e) {
  return std::ldexp(float(m), e);
}

// v < 2048 as f16 bits, exactly.
inline uint32_t half_of(uint32_t v) {
  if (v == 0) return 0;
  int e = 0;
  while ((v >> (e + 1)) != 0) ++e;
  return uint32_t(e + 15) << 10 | ((v << (10 - e)) & 0x3ff);
}

inline constexpr uint32_t kF32Specials[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
    0x7fc12345, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0x00800000};
inline constexpr uint32_t kF16Specials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01,
                                            0x7e55, 0x0001, 0x83ff, 0x7bff, 0xfbff, 0x3c00, 0x0400};

inline uint32_t element(const Image& im, uint64_t& s, unsigned c, unsigned x, unsigned y,
                        unsigned slice, unsigned level) {
  if (im.data == kRamp) {
    const uint32_t v = im.channels == 1 ? x + 64 * y + 4096 * slice + 262144 * level
                       : c == 0         ? x
                       : c == 1         ? y
                       : c == 2         ? slice
                                        : level;
    return im.format == kF32 ? bits(float(v)) : im.format == kF16 ? half_of(v % 2048) : v;
  }
  const uint64_t r = ptxvm_hw_seed::splitmix64(s);
  const bool special = im.data == kSpecials && (r >> 56) % 8 == 0;
  if (im.format == kF32) {
    if (special) return kF32Specials[(r >> 40) % (sizeof kF32Specials / 4)];
    return uint32_t(r >> 63) << 31 | uint32_t(119 + (r >> 32) % 12) << 23 | uint32_t(r & 0x7fffff);
  }
  if (im.format == kF16) {
    if (special) return kF16Specials[(r >> 40) % (sizeof kF16Specials / 4)];
    return uint32_t(r >> 63) << 15 | uint32_t(9 + (r >> 32) % 10) << 10 | uint32_t(r & 0x3ff);
  }
  return uint32_t(r);
}

}  // namespace detail

// The image's bytes (layout at the top), from splitmix64 seeded with seed_of(name).
inline std::vector<uint8_t> texels(const Image& im, const std::string& name) {
  std::vector<uint8_t> out;
  out.reserve(image_bytes(im));
  uint64_t s = seed_of(name);
  const unsigned fb = format_bytes(im.format);
  for (unsigned l = 0; l < im.levels; ++l) {
    const Extent e = extent(im, l);
    for (unsigned z = 0; z < e.slices; ++z)
      for (unsigned y = 0; y < e.rows; ++y)
        for (unsigned x = 0; x < e.width; ++x)
          for (unsigned c = 0; c < im.channels; ++c) {
            const uint32_t v = detail::element(im, s, c, x, y, z, l);
            for (unsigned b = 0; b < fb; ++b) out.push_back(uint8_t(v >> (8 * b)));
          }
  }
  return out;
}

// ---- Lookups ----

namespace detail {

using Lookup = std::vector<uint32_t>;  // 16 words

struct Rng {
  uint64_t s;
  int64_t in(int64_t lo, int64_t hi) {
    return lo + int64_t(ptxvm_hw_seed::splitmix64(s) % uint64_t(hi - lo));
  }
};

// NaN (quiet, negative, signalling), ±Inf, ±0, ±1e10, ±2^31, 2^24, 2^24 + 2, 2^23 - 0.5,
// 2^20 + 0.25, 65536.5, ±FLT_MAX, ±the smallest subnormal, the smallest normal.
inline constexpr uint32_t kCoordSpecials[] = {
    0x7fc00000, 0xffc00000, 0x7f800001, 0x7f800000, 0xff800000, 0x00000000, 0x80000000,
    0x501502f9, 0xd01502f9, 0x4f000000, 0xcf000000, 0x4b800000, 0x4b800001, 0x4affffff,
    0x49800002, 0x47800040, 0x7f7fffff, 0xff7fffff, 0x00000001, 0x80000001, 0x00800000};
inline constexpr uint32_t kNaN = 0x7fc00000, kInf = 0x7f800000, kNegInf = 0xff800000,
                          kNegZero = 0x80000000, kHuge = 0x501502f9, kNegHuge = 0xd01502f9,
                          kDenorm = 0x00000001;

inline bool pow2(unsigned n) {
  return n != 0 && (n & (n - 1)) == 0;
}
inline int log2_floor(unsigned n) {
  int e = 0;
  while ((n >> (e + 1)) != 0) ++e;
  return e;
}
// Texel units to normalized coordinates: / n, exact where n is a power of two.
inline float per_texel(float t, unsigned n) {
  return std::ldexp(t, -log2_floor(n));
}

// Texel-unit probes of an axis of n texels (exact in f32 for n < 64): centres, edges, quarters,
// 2^-8 .. 2^-18 off the first two and last two edges, and 2-100 widths outside.
inline std::vector<float> texel_probes(unsigned n) {
  const int64_t N = n;
  std::vector<float> v;
  for (int64_t k = -2; k < N + 2; ++k) v.push_back(exact(2 * k + 1, -1));
  for (int64_t k = -2; k <= N + 2; ++k) v.push_back(float(k));
  for (int64_t k = -1; k < N + 1; ++k) {
    v.push_back(exact(4 * k + 1, -2));
    v.push_back(exact(4 * k + 3, -2));
  }
  for (int64_t e : {int64_t(0), int64_t(1), N - 1, N})
    for (int s : {8, 9, 12, 16, 18}) {
      v.push_back(exact((e << s) + 1, -s));
      v.push_back(exact((e << s) - 1, -s));
    }
  // 2N + 1/2, 3N + 77/256, 5N + 3/4, 7N + 1/4, 100N + 1/2 (in 1/256), both signs
  for (int64_t m : {512 * N + 128, 768 * N + 77, 1280 * N + 192, 1792 * N + 64, 25600 * N + 128}) {
    v.push_back(exact(m, -8));
    v.push_back(exact(-m, -8));
  }
  return v;
}

// One axis's coordinates, f32 bits: the texel-unit probes (normalized: / n where n is a power of
// two), for normalized coordinates a grid over [-2, 3] (k/32, or k/64 where n is not a power of
// two) and 2^-8 .. 2^-23 either side of 0 and 1; then the specials.
inline std::vector<uint32_t> axis_values(unsigned n, bool normalized) {
  std::vector<uint32_t> v;
  if (!normalized || pow2(n))
    for (float f : texel_probes(n)) v.push_back(bits(normalized ? per_texel(f, n) : f));
  if (normalized) {
    const int step = pow2(n) ? 5 : 6;
    for (int64_t k = -(int64_t(2) << step); k <= (int64_t(3) << step); ++k)
      v.push_back(bits(exact(k, -step)));
    for (int s : {8, 12, 16, 20, 23}) {
      v.push_back(bits(exact(1, -s)));
      v.push_back(bits(exact(-1, -s)));
      v.push_back(bits(exact((int64_t(1) << s) + 1, -s)));
      v.push_back(bits(exact((int64_t(1) << s) - 1, -s)));
    }
  }
  for (uint32_t u : kCoordSpecials) v.push_back(u);
  return v;
}

// 1024 points in texel 1 (texel units; normalized: / n, or j/1024 over [0, 1) where n is not a
// power of two): every 1/512; k/256 + 2^-12 and k/256 - 2^-12 over half the texel; the centre
// ± j 2^-16. They show the precision of the coordinate's conversion and of the filter weights.
inline std::vector<uint32_t> fine_values(unsigned n, bool normalized) {
  std::vector<uint32_t> v;
  if (normalized && !pow2(n)) {
    for (int64_t j = 0; j < 1024; ++j) v.push_back(bits(exact(j, -10)));
    return v;
  }
  std::vector<float> f;
  for (int64_t j = 0; j < 512; ++j) f.push_back(exact(512 + j, -9));
  for (int64_t k = 0; k < 128; ++k) f.push_back(exact(4096 + 16 * k + 1, -12));
  for (int64_t k = 1; k < 129; ++k) f.push_back(exact(4096 + 16 * k - 1, -12));
  for (int64_t j = 0; j < 256; ++j) f.push_back(exact(98304 + j - 128, -16));
  for (float x : f) v.push_back(bits(normalized ? per_texel(x, n) : x));
  return v;
}

// Where the other axes sit while one is swept: 1.25 texels (normalized: / n, or 77/256).
inline uint32_t anchor(unsigned n, bool normalized) {
  const float t = n > 1 ? 1.25f : 0.25f;
  if (!normalized) return bits(t);
  return bits(pow2(n) ? per_texel(t, n) : exact(77, -8));
}

// Random points over [-2, 3] widths, on a 2^-12 texel grid (normalized: a 2^-16 grid).
inline uint32_t random_coordinate(Rng& r, unsigned n, bool normalized) {
  if (normalized) return bits(exact(r.in(-2 * 65536, 3 * 65536), -16));
  return bits(exact(r.in(-int64_t(n) * 2 * 4096, int64_t(n) * 3 * 4096), -12));
}

// Integer coordinates of an axis of n texels: every texel and three either side, far, extremes.
inline std::vector<uint32_t> int_axis_values(unsigned n) {
  std::vector<uint32_t> v;
  const int64_t N = n;
  for (int64_t k = -3; k < N + 3; ++k) v.push_back(uint32_t(k));
  for (int64_t k :
       {2 * N, 3 * N, -2 * N, int64_t(100), int64_t(-100), int64_t(1000), int64_t(65536),
        int64_t(-65536), int64_t(0x40000000), int64_t(0x7fffffff), int64_t(-0x80000000ll)})
    v.push_back(uint32_t(k));
  return v;
}

// Array indices (u32, §9.7.10.3): every layer, past the end, far, the extremes.
inline std::vector<uint32_t> layer_values(unsigned layers) {
  std::vector<uint32_t> v;
  for (unsigned l = 0; l < layers + 2; ++l) v.push_back(l);
  for (uint32_t l : {100u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu}) v.push_back(l);
  return v;
}

// What a lookup addresses: the kernel's geometry and the image's size.
struct Geometry {
  Geom geom;
  unsigned dims;     // spatial coordinates: 1, 2 or 3 (a cube map's direction: 3)
  unsigned size[3];  // texels along x, y, z (1 past dims)
  unsigned layers;   // array layers (acube: cubes); 0 when not arrayed
  bool normalized;   // texture coordinates (CU_TRSF_NORMALIZED_COORDINATES)
  bool int_coords;   // .s32 coordinates
  unsigned levels;
  uint32_t mid_layer;  // where sweeps run: layer 1, or 0
};

inline Geometry geometry(const Kernel& k, const Image& im, unsigned sampler_flags) {
  Geometry g{};
  g.geom = k.geom;
  g.dims = k.geom == k1d || k.geom == kA1d ? 1 : k.geom == k2d || k.geom == kA2d ? 2 : 3;
  g.size[0] = im.width;
  g.size[1] =
      g.dims > 1 ? std::max(1u, k.geom == kCube || k.geom == kACube ? im.width : im.height) : 1;
  g.size[2] = k.geom == k3d ? std::max(1u, im.depth) : 1;
  if (k.geom == kA1d || k.geom == kA2d) g.layers = std::max(1u, im.depth);
  if (k.geom == kACube) g.layers = std::max(1u, im.depth / 6);
  g.normalized = (sampler_flags & kNormalized) != 0;
  g.int_coords = k.int_coords;
  g.levels = im.levels;
  g.mid_layer = g.layers > 1 ? 1 : 0;
  return g;
}

// Places the layer and the coordinates in c (§9.7.10.3, §9.7.11.1): the array index first for
// a1d, a2d and acube; x, y, z in order; a 3d vector's fourth element 0.
inline void place(Lookup& l, Geom g, uint32_t layer, const uint32_t c[3]) {
  switch (g) {
  case k1d:
    l[0] = c[0];
    break;
  case k2d:
    l[0] = c[0], l[1] = c[1];
    break;
  case k3d:
  case kCube:
    l[0] = c[0], l[1] = c[1], l[2] = c[2];
    break;
  case kA1d:
    l[0] = layer, l[1] = c[0];
    break;
  case kA2d:
    l[0] = layer, l[1] = c[0], l[2] = c[1];
    break;
  case kACube:
    l[0] = layer, l[1] = c[0], l[2] = c[1], l[3] = c[2];
    break;
  case kNone:
    break;
  }
}

struct Lookups {
  const Geometry& g;
  std::vector<Lookup> all;
  Lookup& add(uint32_t layer, const uint32_t c[3]) {
    all.emplace_back(16, 0);
    place(all.back(), g.geom, layer, c);
    return all.back();
  }
  Lookup& add(const uint32_t c[3]) { return add(g.mid_layer, c); }
};

inline bool cube(const Geometry& g) {
  return g.geom == kCube || g.geom == kACube;
}

inline uint32_t random_direction_component(Rng& r) {
  return bits(exact(r.in(-512, 512), -8));
}

// Cube-map directions (§9.7.10.3, tex.cube): onto every face on a 9 x 9 grid of minor/major
// ratios with major magnitudes 1, 2, 1/2, 3; major 3 against minors k/8 (inexact quotients); ties
// between two or three faces; zero, NaN, Inf, huge and tiny components; random.
inline void cube_basic(Lookups& out, Rng& r) {
  auto dir = [&](float a, float b, float c) {
    const uint32_t d[3] = {bits(a), bits(b), bits(c)};
    out.add(d);
  };
  const float majors[4] = {1, 2, 0.5f, 3};
  for (int face = 0; face < 6; ++face) {
    const int axis = face / 2;
    const float sign = face % 2 ? -1.0f : 1.0f;
    float d[3];
    for (int i = 0; i < 9; ++i)
      for (int j = 0; j < 9; ++j) {
        const float m = majors[(i + j) % 4];
        d[axis] = sign * m;
        d[(axis + 1) % 3] = exact(i - 4, -2) * m;
        d[(axis + 2) % 3] = exact(j - 4, -2) * m;
        dir(d[0], d[1], d[2]);
      }
    for (int k = -24; k <= 24; ++k) {
      d[axis] = sign * 3;
      d[(axis + 1) % 3] = exact(k, -3);
      d[(axis + 2) % 3] = 0.5f;
      dir(d[0], d[1], d[2]);
    }
  }
  for (int s = 0; s < 8; ++s) dir(s & 1 ? -1.0f : 1.0f, s & 2 ? -1.0f : 1.0f, s & 4 ? -1.0f : 1.0f);
  for (int axis = 0; axis < 3; ++axis)
    for (int s = 0; s < 4; ++s)
      for (float third : {0.0f, 0.5f}) {
        float d[3];
        d[axis] = s & 1 ? -1.0f : 1.0f;
        d[(axis + 1) % 3] = s & 2 ? -1.0f : 1.0f;
        d[(axis + 2) % 3] = third;
        dir(d[0], d[1], d[2]);
      }
  const uint32_t one = bits(1), half = bits(0.5f), tiny = bits(exact(1, -20)),
                 ntiny = bits(exact(-1, -20));
  const uint32_t specials[][3] = {{0, 0, 0},           {kNegZero, kNegZero, kNegZero},
                                  {kNaN, 0, 0},        {one, kNaN, half},
                                  {kInf, 0, 0},        {kInf, kInf, 0},
                                  {kNegInf, one, one}, {kHuge, one, one},
                                  {0x00800000, 0, 0},  {kDenorm, 0, 0},
                                  {one, tiny, ntiny}};
  for (const auto& d : specials) out.add(d);
  for (int i = 0; i < 128; ++i) {
    const uint32_t d[3] = {random_direction_component(r), random_direction_component(r),
                           random_direction_component(r)};
    out.add(d);
  }
  if (out.g.geom == kACube) {
    const uint32_t d[3] = {one, bits(0.25f), bits(-0.5f)};
    for (uint32_t layer : layer_values(out.g.layers)) out.add(layer, d);
    for (int i = 0; i < 64; ++i) {
      const uint32_t e[3] = {random_direction_component(r), random_direction_component(r),
                             random_direction_component(r)};
      out.add(uint32_t(r.in(0, out.g.layers + 1)), e);
    }
  }
}

// kPlanBasic: each axis swept through its probes with the others at their anchors; the layers;
// NaN/Inf/huge on every axis at once; 256 random points (layers up to one past the end).
inline void basic(Lookups& out, Rng& r) {
  const Geometry& g = out.g;
  if (cube(g)) return cube_basic(out, r);
  uint32_t base[3];
  for (unsigned a = 0; a < 3; ++a) base[a] = g.int_coords ? 1 : anchor(g.size[a], g.normalized);
  for (unsigned a = 0; a < g.dims; ++a)
    for (uint32_t v :
         g.int_coords ? int_axis_values(g.size[a]) : axis_values(g.size[a], g.normalized)) {
      uint32_t c[3] = {base[0], base[1], base[2]};
      c[a] = v;
      out.add(c);
    }
  if (g.layers)
    for (uint32_t layer : layer_values(g.layers)) out.add(layer, base);
  if (g.dims > 1 && !g.int_coords)
    for (uint32_t v : {kNaN, kInf, kNegInf, kHuge, kNegZero}) {
      const uint32_t c[3] = {v, v == kInf ? kNegInf : v, v};
      out.add(c);
    }
  for (int i = 0; i < 256; ++i) {
    uint32_t c[3];
    for (unsigned a = 0; a < 3; ++a)
      c[a] = g.int_coords ? uint32_t(r.in(-2 * int64_t(g.size[a]), 3 * int64_t(g.size[a])))
                          : random_coordinate(r, g.size[a], g.normalized);
    out.add(g.layers ? uint32_t(r.in(0, g.layers + 1)) : 0, c);
  }
}

// kPlanFine: each axis swept through fine_values, the others at their anchors.
inline void fine(Lookups& out) {
  const Geometry& g = out.g;
  uint32_t base[3];
  for (unsigned a = 0; a < 3; ++a) base[a] = anchor(g.size[a], g.normalized);
  for (unsigned a = 0; a < g.dims; ++a)
    for (uint32_t v : fine_values(g.size[a], g.normalized)) {
      uint32_t c[3] = {base[0], base[1], base[2]};
      c[a] = v;
      out.add(c);
    }
}

// The fixed points of the lod and gradient plans: inside texels at every level, and texel 2 of
// level 0's centre; cube maps: directions onto +x and -y.
inline void fixed_points(const Geometry& g, uint32_t a[3], uint32_t b[3]) {
  if (cube(g)) {
    a[0] = bits(1), a[1] = bits(exact(77, -8)), a[2] = bits(exact(-153, -8));
    b[0] = bits(0.5f), b[1] = bits(-1.0f), b[2] = bits(0.25f);
    return;
  }
  // a: 2.30, 1.60, 1.40 texels (589/256, ...); normalized: 77/256, 155/256, 101/256
  const int64_t m[3] = {589, 410, 358}, u[3] = {77, 155, 101};
  for (unsigned i = 0; i < 3; ++i) {
    a[i] = g.int_coords ? 3 - i : bits(g.normalized ? exact(u[i], -8) : exact(m[i], -8));
    b[i] = g.int_coords ? 0 : bits(g.normalized ? per_texel(2.5f, g.size[i]) : 2.5f);
  }
}

inline uint32_t random_point(Rng& r, const Geometry& g, unsigned axis) {
  if (cube(g)) return random_direction_component(r);
  if (g.int_coords) return uint32_t(r.in(-2, int64_t(g.size[axis]) + 2));
  return g.normalized ? bits(exact(r.in(-32768, 98304), -16))
                      : bits(exact(r.in(-4096, int64_t(g.size[axis] + 1) * 4096), -12));
}

// kPlanLevel: lods (word 12) -3 .. levels + 3 on a 1/64 grid, 2^-9 and 2^-12 off each integer,
// far, NaN/Inf at one point; a 1/8 grid at another; 256 random (point, lod). .s32 lods: integers.
inline void level(Lookups& out, Rng& r) {
  const Geometry& g = out.g;
  uint32_t a[3], b[3];
  fixed_points(g, a, b);
  const int64_t L = g.levels;
  if (g.int_coords) {
    for (const uint32_t* p : {a, b})
      for (int64_t lod : {int64_t(-2), int64_t(-1), int64_t(0), int64_t(1), int64_t(2), int64_t(3),
                          int64_t(4), int64_t(5), int64_t(6), int64_t(7), int64_t(8), int64_t(100),
                          int64_t(-0x80000000ll), int64_t(0x7fffffff)})
        out.add(p)[12] = uint32_t(lod);
    for (int i = 0; i < 64; ++i) {
      const uint32_t c[3] = {random_point(r, g, 0), random_point(r, g, 1), random_point(r, g, 2)};
      out.add(c)[12] = uint32_t(r.in(-1, L + 2));
    }
    return;
  }
  std::vector<uint32_t> lods = {bits(-3.0f), bits(-1.0f), bits(-0.5f), bits(exact(-1, -8)),
                                kNegZero};
  for (int64_t k = 0; k <= 64 * L; ++k) lods.push_back(bits(exact(k, -6)));
  for (int64_t j = 1; j < L; ++j)
    for (int s : {9, 12}) {
      lods.push_back(bits(exact((j << s) - 1, -s)));
      lods.push_back(bits(exact((j << s) + 1, -s)));
    }
  for (float f : {float(L) - 0.5f, float(L), float(L + 3), 100.0f}) lods.push_back(bits(f));
  for (uint32_t u : {kHuge, kInf, kNegInf, kNaN}) lods.push_back(u);
  for (uint32_t lod : lods) out.add(a)[12] = lod;
  for (int64_t k = -8; k <= 8 * L + 8; ++k) out.add(b)[12] = bits(exact(k, -3));
  for (int i = 0; i < 256; ++i) {
    const uint32_t c[3] = {random_point(r, g, 0), random_point(r, g, 1), random_point(r, g, 2)};
    const uint32_t layer = g.layers ? uint32_t(r.in(0, g.layers)) : g.mid_layer;
    out.add(layer, c)[12] = bits(exact(r.in(-256, 256 * (L + 1)), -8));
  }
}

// kPlanGrad: dPdx (words 4-7) and dPdy (8-11) in the coordinates' units, from unit steps P, Q of
// one texel along two axes (1d: both along x; 3d and cube maps: x/y, then z/x): zero; isotropic
// t P, t Q for t = (1 + j/16) 2^e, e = -3..6; rotated; anisotropic r t P, t Q and t P, r t Q
// for r = 1 .. 64; one of them zero; isotropic at the other point; NaN/Inf/huge/subnormal
// components; 128 random.
inline void grad(Lookups& out, Rng& r) {
  const Geometry& g = out.g;
  uint32_t a[3], b[3];
  fixed_points(g, a, b);
  float unit[3];
  for (unsigned i = 0; i < 3; ++i)
    unit[i] = g.normalized || cube(g)
                  ? exact(1, -log2_floor(g.size[cube(g) ? 0 : i]) + (cube(g) ? 1 : 0))
                  : 1.0f;
  auto set = [&](const uint32_t* p, const float dx[3], const float dy[3]) {
    Lookup& l = out.add(p);
    for (unsigned i = 0; i < 3; ++i) l[4 + i] = bits(dx[i]), l[8 + i] = bits(dy[i]);
  };
  const float zero[3] = {0, 0, 0};
  set(a, zero, zero);
  std::vector<std::pair<unsigned, unsigned>> pairs = {{0, g.dims > 1 ? 1u : 0u}};
  if (g.dims == 3) pairs.push_back({2, 0});
  for (const auto& axes : pairs) {
    const unsigned p = axes.first, q = axes.second;
    auto along = [&](unsigned axis, float t, float v[3]) { v[axis] += t * unit[axis]; };
    // dPdx = tp P + tq Q, dPdy = sp P + sq Q, at point a (at = b: the other fixed point)
    auto pair = [&](float tp, float tq, float sp, float sq, const uint32_t* at) {
      float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
      along(p, tp, dx), along(q, tq, dx), along(p, sp, dy), along(q, sq, dy);
      set(at, dx, dy);
    };
    for (int e = -3; e <= 6; ++e)
      for (int64_t j = 0; j < 16; ++j) pair(exact(16 + j, e - 4), 0, 0, exact(16 + j, e - 4), a);
    const float rotations[4][2] = {{0.75f, 0.5f}, {1, 1}, {0.5f, 0.875f}, {0.25f, 1}};
    if (p != q)
      for (const auto& ab : rotations)
        for (int e = -2; e <= 5; ++e)
          for (int64_t j : {0, 8}) {
            const float t = exact(16 + j, e - 4);
            pair(t * ab[0], t * ab[1], -t * ab[1], t * ab[0], a);
          }
    for (float ratio :
         {1.0f, 1.25f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f, 8.0f, 12.0f, 16.0f, 20.0f, 32.0f, 64.0f})
      for (int e = -2; e <= 4; ++e) {
        const float t = exact(1, e);
        pair(ratio * t, 0, 0, t, a);
        pair(t, 0, 0, ratio * t, a);
      }
    for (int e = -2; e <= 4; ++e) {
      const float t = exact(1, e);
      pair(t, 0, 0, 0, a);
      pair(0, 0, 0, t, a);
      pair(t, t, t, t, a);
      pair(t, 0, 0, t, b);
    }
  }
  const unsigned q = g.dims > 1 ? 1 : 0;
  for (uint32_t s : {kNaN, kInf, kNegInf, kHuge, kNegHuge, kDenorm, kNegZero}) {
    Lookup& l = out.add(a);
    l[4] = s, l[8 + q] = bits(unit[q]);
    Lookup& m = out.add(a);
    m[4] = bits(unit[0]), m[8 + q] = s;
  }
  for (int i = 0; i < 128; ++i) {
    const uint32_t c[3] = {random_point(r, g, 0), random_point(r, g, 1), random_point(r, g, 2)};
    Lookup& l = out.add(c);
    for (unsigned k = 0; k < g.dims; ++k) {
      l[4 + k] = bits(exact(r.in(-32768, 32768), -10) * unit[k]);
      l[8 + k] = bits(exact(r.in(-32768, 32768), -10) * unit[k]);
    }
  }
}

// kPlanOffset: offsets e (words 13-15) -10..9 along each axis at three points, far and extreme
// offsets, 64 random; tex.level at lod 1.25 (.s32: 1), tex.grad with two-texel gradients.
inline void offset(Lookups& out, const Kernel& k, Rng& r) {
  const Geometry& g = out.g;
  auto point = [&](float t, unsigned axis) {
    return g.int_coords ? uint32_t(int32_t(std::floor(t)))
                        : bits(g.normalized ? per_texel(t, g.size[axis]) : t);
  };
  auto finish = [&](Lookup& l) {
    if (k.family == kTexLevel) l[12] = g.int_coords ? 1 : bits(1.25f);
    if (k.family == kTexGrad) {
      l[4] = point(2, 0);
      l[9] = point(2, 1);
    }
  };
  const uint32_t y = point(1.25f, 1), z = point(1.25f, 2);
  for (float x : {0.5f, 3.25f, float(g.size[0]) - 0.75f}) {
    const uint32_t c[3] = {point(x, 0), y, z};
    for (unsigned a = 0; a < g.dims; ++a)
      for (int e = -10; e <= 9; ++e) {
        Lookup& l = out.add(c);
        l[13 + a] = uint32_t(e);
        finish(l);
      }
  }
  const uint32_t c[3] = {point(3.25f, 0), y, z};
  for (int64_t e : {int64_t(16), int64_t(-16), int64_t(100), int64_t(-100), int64_t(0x7fffffff),
                    int64_t(-0x80000000ll)}) {
    Lookup& l = out.add(c);
    l[13] = uint32_t(e);
    finish(l);
  }
  for (int i = 0; i < 64; ++i) {
    uint32_t p[3];
    for (unsigned a = 0; a < 3; ++a)
      p[a] = g.int_coords ? uint32_t(r.in(-2, int64_t(g.size[a]) + 2))
                          : random_coordinate(r, g.size[a], g.normalized);
    Lookup& l = out.add(p);
    for (unsigned a = 0; a < g.dims; ++a) l[13 + a] = uint32_t(r.in(-9, 9));
    finish(l);
  }
}

// kPlanCompare: depth-compare references (word 12) -8 .. 8, ±2^-9, NaN, ±Inf at ten points;
// 64 random.
inline void compare(Lookups& out, Rng& r) {
  const Geometry& g = out.g;
  const std::vector<uint32_t> refs = {bits(-8.0f), bits(-1.0f),
                                      bits(-0.5f), bits(exact(-1, -9)),
                                      0,           bits(exact(1, -9)),
                                      bits(0.5f),  bits(1.0f),
                                      bits(8.0f),  kNaN,
                                      kInf,        kNegInf};
  for (float x : {0.5f, 1.5f, 2.5f, 3.25f, 5.75f})
    for (float y : {0.5f, 2.25f}) {
      const uint32_t c[3] = {bits(g.normalized ? per_texel(x, g.size[0]) : x),
                             bits(g.normalized ? per_texel(y, g.size[1]) : y), 0};
      for (uint32_t ref : refs) out.add(c)[12] = ref;
    }
  for (int i = 0; i < 64; ++i) {
    const uint32_t c[3] = {random_coordinate(r, g.size[0], g.normalized),
                           random_coordinate(r, g.size[1], g.normalized), 0};
    out.add(c)[12] = bits(exact(r.in(-2048, 2048), -8));
  }
}

// kPlanQuery: txq.level's lod (word 12): every level, one past, -1, INT32_MAX.
inline void query(Lookups& out) {
  const uint32_t c[3] = {0, 0, 0};
  for (uint32_t l = 0; l <= out.g.levels; ++l) out.add(c)[12] = l;
  out.add(c)[12] = 0xffffffff;
  out.add(c)[12] = 0x7fffffff;
}

inline std::vector<uint32_t> flatten(const std::vector<Lookup>& v) {
  std::vector<uint32_t> w;
  for (const Lookup& l : v) w.insert(w.end(), l.begin(), l.end());
  return w;
}

}  // namespace detail

// A texture case's lookups, 16 words each (layout at the top), from splitmix64 seeded with
// seed_of(name) ^ 0x5555.
inline std::vector<uint32_t> lookups(const TexCase& c) {
  const Kernel& k = kernel(c.kernel);
  const detail::Geometry g = detail::geometry(k, c.image, c.sampler.flags);
  detail::Lookups out{g, {}};
  detail::Rng r{seed_of(c.name) ^ 0x5555};
  switch (c.plan) {
  case kPlanBasic:
    detail::basic(out, r);
    break;
  case kPlanFine:
    detail::fine(out);
    break;
  case kPlanLevel:
    detail::level(out, r);
    break;
  case kPlanGrad:
    detail::grad(out, r);
    break;
  case kPlanOffset:
    detail::offset(out, k, r);
    break;
  case kPlanCompare:
    detail::compare(out, r);
    break;
  case kPlanQuery:
    detail::query(out);
    break;
  default:
    throw std::invalid_argument("not a texture plan: " + c.name);
  }
  return detail::flatten(out.all);
}

namespace detail {

// sust.p data (§9.7.11.2: f32 for UNORM/SNORM/FLOAT formats, u32/s32 for UINT/SINT), taken in
// turn. Floats: ±0, 0.25, 0.5, 1, 1.5, -1, -0.5, 2, 255, 256, 65535.5, ±1e10, 1/255, 0.5/255, NaN,
// ±Inf, the smallest subnormal, pi, 1 - 2^-24, 65504, 65536; integers: 0, 1, 127, 128, 255, 256,
// -1, -128, -129, 32767, 32768, 65535, 65536, INT32_MAX, INT32_MIN.
inline constexpr uint32_t kFormatted[] = {
    0x00000000, 0x80000000, 0x3e800000, 0x3f000000, 0x3f800000, 0x3fc00000, 0xbf800000, 0xbf000000,
    0x40000000, 0x437f0000, 0x43800000, 0x477fff80, 0x501502f9, 0xd01502f9, 0x3b808081, 0x3b008081,
    0x7fc00000, 0x7f800000, 0xff800000, 0x00000001, 0x40490fdb, 0x3f7fffff, 0x477fe000, 0x47800000,
    0,          1,          127,        128,        255,        256,        0xffffffff, 0xffffff80,
    0xffffff7f, 32767,      32768,      65535,      65536,      0x7fffffff, 0x80000000};
// sured data: 32-bit values, and 64-bit values as (low, high).
inline constexpr uint32_t kReduce32[] = {1,          2,          0xffffffff, 0x7fffffff,
                                         0x80000000, 0x12345678, 0xfffffffe, 0,
                                         0x0f0f0f0f, 0xf0f0f0f0, 100,        0xffffff00};
inline constexpr uint32_t kReduce64[][2] = {
    {1, 0}, {0xffffffff, 0xffffffff}, {0xffffffff, 0x7fffffff}, {0, 0x80000000},
    {0, 1}, {0xffffffff, 0},          {0x89abcdef, 0x01234567}, {2, 0}};

struct Position {
  int64_t x, y, z, layer;  // x in elements, or raw (bytes) where raw
  bool raw;
};

}  // namespace detail

// A surface case's lookups, 16 words each (layout at the top), from splitmix64 seeded with
// seed_of(name) ^ 0x5555. Coordinates: x in bytes (sust.p, sured.p: elements), y, z, the layer.
inline std::vector<uint32_t> lookups(const SurfCase& c) {
  using detail::Position;
  const Kernel& k = kernel(c.kernel);
  const Image& im = c.image;
  const bool element_x = k.family == kSustP || k.family == kSuredP;
  const int64_t es = texel_bytes(im), unit = element_x ? 1 : es,
                access = std::max<int64_t>(k.access_bytes, 1);
  const bool has_y = k.geom == k2d || k.geom == k3d || k.geom == kA2d, has_z = k.geom == k3d;
  const bool arrayed = k.geom == kA1d || k.geom == kA2d;
  const int64_t W = im.width, H = has_y ? im.height : 1, D = has_z ? im.depth : 1,
                L = arrayed ? im.depth : 1;
  const int64_t y0 = std::min<int64_t>(1, H - 1), z0 = std::min<int64_t>(1, D - 1),
                l0 = std::min<int64_t>(1, L - 1);
  std::vector<Position> p;
  auto in_range = [&] {
    if (!stores(k)) {
      for (int64_t l = 0; l < L; ++l)
        for (int64_t z = 0; z < D; ++z)
          for (int64_t y = 0; y < H; ++y)
            for (int64_t x = 0; x < W; ++x) p.push_back({x, y, z, l, false});
      return;
    }
    p.insert(p.end(), {{0, 0, 0, 0, false},
                       {W - 1, 0, 0, 0, false},
                       {0, H - 1, D - 1, L - 1, false},
                       {W - 1, H - 1, D - 1, L - 1, false},
                       {W / 2, H / 2, D / 2, L / 2, false},
                       {1, y0, z0, l0, false}});
    if (k.family == kSuredB || k.family == kSuredP)
      for (int i = 0; i < 6; ++i) p.push_back({1, y0, z0, l0, false});
  };
  switch (c.plan) {
  case kPlanSurfInRange:
    in_range();
    break;
  case kPlanSurfEdges:
    in_range();
    for (int64_t x : {int64_t(-1), int64_t(-2), int64_t(-16), W, W + 1, W + 7})
      p.push_back({x, y0, z0, l0, false});
    for (int64_t x : {int64_t(0x7ffffff0), int64_t(-0x80000000ll), int64_t(-65536)})
      p.push_back({x, y0, z0, l0, true});
    if (has_y) {
      for (int64_t y : {int64_t(-1), int64_t(-2), H, H + 1, H + 100, int64_t(0x7fffffff),
                        int64_t(-0x80000000ll)})
        p.push_back({1, y, z0, l0, false});
      p.insert(p.end(), {{-1, -1, z0, l0, false},
                         {W, H, z0, l0, false},
                         {W, -1, z0, l0, false},
                         {-1, H, z0, l0, false}});
    }
    if (has_z) {
      for (int64_t z : {int64_t(-1), int64_t(-2), D, D + 1, D + 100, int64_t(0x7fffffff),
                        int64_t(-0x80000000ll)})
        p.push_back({1, y0, z, l0, false});
      p.push_back({W, H, D, l0, false});
    }
    if (arrayed)
      for (int64_t l :
           {L, L + 1, int64_t(100), int64_t(0x7fffffff), int64_t(0x80000000), int64_t(0xffffffff)})
        p.push_back({1, y0, z0, l, false});
    break;
  case kPlanSurfBytes:
    for (int64_t x = -access; x < W * es + access; ++x) p.push_back({x, y0, z0, l0, true});
    break;
  case kPlanSurfMisaligned:
    p.push_back({0, y0, z0, l0, true});
    for (int64_t d = 1; d < access; ++d) {
      p.push_back({es + d, y0, z0, l0, true});
      p.push_back({(W - 1) * es + d, y0, z0, l0, true});
    }
    break;
  case kPlanSurfOobX:
    p.push_back({W, y0, z0, l0, false});
    break;
  case kPlanSurfOobXNeg:
    p.push_back({-1, y0, z0, l0, false});
    break;
  case kPlanSurfOobY:
    p.push_back({1, H, z0, l0, false});
    break;
  case kPlanSurfOobZ:
    p.push_back({1, y0, D, l0, false});
    break;
  case kPlanSurfOobLayer:
    p.push_back({1, y0, z0, L, false});
    break;
  case kPlanQuery:
    p.push_back({0, 0, 0, 0, true});
    break;
  default:
    throw std::invalid_argument("not a surface plan: " + c.name);
  }
  detail::Rng r{seed_of(c.name) ^ 0x5555};
  std::vector<uint32_t> out;
  for (size_t i = 0; i < p.size(); ++i) {
    detail::Lookup l(16, 0);
    const uint32_t xyz[3] = {uint32_t(p[i].raw ? p[i].x : p[i].x * unit), uint32_t(p[i].y),
                             uint32_t(p[i].z)};
    detail::place(l, k.geom, uint32_t(p[i].layer), xyz);
    if (k.family == kSustB)
      for (unsigned w = 4; w < 8; ++w) l[w] = uint32_t(ptxvm_hw_seed::splitmix64(r.s));
    if (k.family == kSustP)
      for (unsigned w = 4; w < 8; ++w)
        l[w] = detail::kFormatted[(4 * i + w) % (sizeof detail::kFormatted / 4)];
    if ((k.family == kSuredB || k.family == kSuredP) && k.access_bytes == 8) {
      l[4] = detail::kReduce64[i % 8][0];
      l[5] = detail::kReduce64[i % 8][1];
    } else if (k.family == kSuredB || k.family == kSuredP) {
      l[4] = detail::kReduce32[i % (sizeof detail::kReduce32 / 4)];
    }
    out.insert(out.end(), l.begin(), l.end());
  }
  return out;
}

// ---- The cases ----

namespace detail {

inline bool is_float(unsigned f) {
  return f == kF16 || f == kF32;
}
inline std::string format_name(unsigned f) {
  return (is_float(f) ? "f" : f >= kS8 ? "s" : "u") + std::to_string(8 * format_bytes(f));
}
inline std::string image_name(unsigned f, unsigned channels) {
  return format_name(f) + ("x" + std::to_string(channels));
}
inline bool small_int(unsigned f) {
  return f == kU8 || f == kU16 || f == kS8 || f == kS16;
}
// The tex/tld4 destination type a format reads as: f32 where the texture returns floats (float
// formats, 8/16-bit integers promoted to [0, 1] or [-1, 1]), else the integers' signedness.
inline const char* result_type(unsigned f, bool read_as_integer) {
  if (is_float(f) || (small_int(f) && !read_as_integer)) return "f32";
  return f == kS8 || f == kS16 || f == kS32 ? "s32" : "u32";
}

inline Image image(unsigned format, unsigned channels, unsigned w, unsigned h = 0, unsigned d = 0,
                   unsigned flags = 0, Data data = kRandom) {
  Image im;
  im.format = format, im.channels = channels, im.flags = flags, im.data = data;
  im.width = w, im.height = h, im.depth = d;
  return im;
}
inline Image mipmapped(unsigned format, unsigned channels, unsigned levels, unsigned w,
                       unsigned h = 0, unsigned d = 0, unsigned flags = 0, Data data = kRamp) {
  Image im = image(format, channels, w, h, d, flags, data);
  im.resource = kResMipmapped, im.levels = levels;
  return im;
}
inline Image linear(unsigned format, unsigned channels, unsigned w) {
  Image im = image(format, channels, w);
  im.resource = kResLinear;
  return im;
}
// Rows padded to a multiple of 128 bytes, and 128 more.
inline Image pitch2d(unsigned format, unsigned channels, unsigned w, unsigned h) {
  Image im = image(format, channels, w, h);
  im.resource = kResPitch2D, im.pitch = (w * texel_bytes(im) + 127) / 128 * 128 + 128;
  return im;
}

inline Sampler sampler(unsigned address, unsigned filter, unsigned flags = 0) {
  Sampler s;
  s.address[0] = s.address[1] = s.address[2] = address;
  s.filter = filter, s.flags = flags;
  return s;
}
// Mipmapped arrays need normalized coordinates (cuTexObjectCreate); lods clamp to [0, levels - 1].
inline Sampler mip_sampler(unsigned filter, unsigned mip_filter, unsigned levels,
                           unsigned flags = 0) {
  Sampler s = sampler(kClamp, filter, kNormalized | flags);
  s.mip_filter = mip_filter, s.max_level_clamp = float(levels - 1);
  return s;
}

// 0.25, -1.5, 3, 0.75
inline constexpr uint32_t kBorderColour[4] = {0x3e800000, 0xbfc00000, 0x40400000, 0x3f400000};
inline Sampler with_border(Sampler s, const uint32_t colour[4]) {
  std::copy(colour, colour + 4, s.border);
  return s;
}

inline const char* filter_name(unsigned f) {
  return f == kLinear ? "linear" : "point";
}
inline const char* address_name(unsigned a) {
  return a == kWrap ? "wrap" : a == kClamp ? "clamp" : a == kMirror ? "mirror" : "border";
}
inline std::string tex_kernel(const std::string& geom, const std::string& dtype,
                              const std::string& ctype = "f32") {
  return "tex_" + geom + "_v4_" + dtype + "_" + ctype;
}

inline constexpr unsigned kFormats[] = {kU8, kU16, kU32, kS8, kS16, kS32, kF16, kF32};

}  // namespace detail

inline std::vector<TexCase> texture_cases() {
  using namespace detail;
  std::vector<TexCase> v;
  auto add = [&](const std::string& name, const std::string& kernel, const Image& im,
                 const Sampler& s, Plan plan) {
    v.push_back({name, kernel, im, s, plan});
  };
  // Border colours NaN, -0, Inf, -2.5 and 1, 255, 65536, -1.
  const uint32_t special_border[4] = {0x7fc00000, 0x80000000, 0x7f800000, 0xc0200000};
  const uint32_t integer_border[4] = {0x3f800000, 0x437f0000, 0x47800000, 0xbf800000};

  // Every format and channel count, point and linear, promoted or read as integers: a 16 x 8 array.
  for (unsigned f : kFormats)
    for (unsigned ch : {1u, 2u, 4u})
      for (unsigned filter : {kPoint, kLinear})
        for (bool as_int : {false, true}) {
          if (is_float(f) && as_int) continue;
          if (!small_int(f) && !is_float(f) && !as_int) continue;  // 32-bit integers: below
          add("format " + image_name(f, ch) + " " + filter_name(filter) +
                  (as_int ? " int" : " float"),
              tex_kernel("2d", result_type(f, as_int)), image(f, ch, 16, 8),
              sampler(kClamp, filter, as_int ? kReadAsInteger : 0), kPlanBasic);
        }
  // 32-bit integers without CU_TRSF_READ_AS_INTEGER (which cuTexObjectCreate says changes nothing).
  for (unsigned f : {kU32, kS32})
    for (unsigned filter : {kPoint, kLinear})
      add("format " + image_name(f, 1) + " " + filter_name(filter) + " float",
          tex_kernel("2d", result_type(f, true)), image(f, 1, 16, 8), sampler(kClamp, filter),
          kPlanBasic);
  for (unsigned f : {kF16, kF32})
    for (unsigned filter : {kPoint, kLinear})
      add("format " + image_name(f, 4) + " " + filter_name(filter) + " specials",
          tex_kernel("2d", "f32"), image(f, 4, 16, 8, 0, 0, kSpecials), sampler(kClamp, filter),
          kPlanBasic);
  // Every destination type against every read mode.
  for (unsigned f : kFormats)
    for (bool as_int : {false, true}) {
      if ((is_float(f) && as_int) || (!small_int(f) && !is_float(f) && !as_int)) continue;
      for (const char* dt : {"f32", "s32", "u32"})
        if (std::string(dt) != result_type(f, as_int))
          add("dtype " + image_name(f, 4) + (as_int ? " int" : " float") + " as " + dt,
              tex_kernel("2d", dt), image(f, 4, 16, 8),
              sampler(kClamp, kPoint, as_int ? kReadAsInteger : 0), kPlanBasic);
    }

  // Every address mode per geometry, point and linear, normalized and not: f32, one channel.
  struct Shape {
    const char* geom;
    unsigned w, h, d, flags;
  };
  const Shape shapes[] = {{"1d", 8, 0, 0, 0},
                          {"2d", 8, 4, 0, 0},
                          {"3d", 4, 4, 4, 0},
                          {"a1d", 8, 0, 3, kLayered},
                          {"a2d", 8, 4, 3, kLayered}};
  for (const Shape& s : shapes)
    for (unsigned mode : {kWrap, kClamp, kMirror, kBorder})
      for (unsigned filter : {kPoint, kLinear})
        for (bool normalized : {false, true})
          add(std::string("address ") + s.geom + " " + address_name(mode) + " " +
                  filter_name(filter) + (normalized ? " normalized" : " unnormalized"),
              tex_kernel(s.geom, "f32"), image(kF32, 1, s.w, s.h, s.d, s.flags),
              with_border(sampler(mode, filter, normalized ? kNormalized : 0), kBorderColour),
              kPlanBasic);
  // Sizes that are not powers of two (the normalized coordinate's scaling).
  for (const Shape& s : {Shape{"1d", 5, 0, 0, 0}, Shape{"2d", 6, 3, 0, 0}})
    for (unsigned mode : {kWrap, kClamp, kMirror, kBorder})
      for (unsigned filter : {kPoint, kLinear})
        add(std::string("address ") + s.geom + " " + address_name(mode) + " " +
                filter_name(filter) + " normalized " + std::to_string(s.w),
            tex_kernel(s.geom, "f32"), image(kF32, 1, s.w, s.h),
            with_border(sampler(mode, filter, kNormalized), kBorderColour), kPlanBasic);
  // A mode per axis.
  const unsigned per_axis[4][3] = {{kWrap, kMirror, kBorder},
                                   {kBorder, kClamp, kWrap},
                                   {kMirror, kBorder, kClamp},
                                   {kBorder, kWrap, kMirror}};
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned filter : {kPoint, kLinear}) {
      Sampler s = with_border(sampler(kClamp, filter, kNormalized), kBorderColour);
      std::copy(per_axis[i], per_axis[i] + 3, s.address);
      const bool is3d = i < 2;
      add(std::string("address ") + (is3d ? "3d " : "2d ") + address_name(s.address[0]) + "/" +
              address_name(s.address[1]) +
              (is3d ? std::string("/") + address_name(s.address[2]) : "") + " " +
              filter_name(filter),
          tex_kernel(is3d ? "3d" : "2d", "f32"),
          is3d ? image(kF32, 2, 4, 4, 4) : image(kF32, 2, 8, 4), s, kPlanBasic);
    }
  // The border colour against each kind of format.
  for (unsigned filter : {kPoint, kLinear}) {
    const Sampler b = with_border(sampler(kBorder, filter, kNormalized), kBorderColour);
    Sampler b_int = b;
    b_int.flags |= kReadAsInteger;
    const std::string tail = std::string(" ") + filter_name(filter);
    add("border u8x4 float" + tail, tex_kernel("2d", "f32"), image(kU8, 4, 8, 4), b, kPlanBasic);
    add("border u8x4 int" + tail, tex_kernel("2d", "u32"), image(kU8, 4, 8, 4), b_int, kPlanBasic);
    add("border s16x2 float" + tail, tex_kernel("2d", "f32"), image(kS16, 2, 8, 4), b, kPlanBasic);
    add("border u32x1 int" + tail, tex_kernel("2d", "u32"), image(kU32, 1, 8, 4), b_int,
        kPlanBasic);
    add("border s32x4 int integral" + tail, tex_kernel("2d", "s32"), image(kS32, 4, 8, 4),
        with_border(b_int, integer_border), kPlanBasic);
    add("border f16x4" + tail, tex_kernel("2d", "f32"), image(kF16, 4, 8, 4), b, kPlanBasic);
    add("border f32x4 specials" + tail, tex_kernel("2d", "f32"), image(kF32, 4, 8, 4),
        with_border(b, special_border), kPlanBasic);
  }

  // Fine sweeps through one texel: the coordinate's and the weights' precision.
  for (bool normalized : {false, true}) {
    const unsigned n = normalized ? kNormalized : 0;
    const std::string tail = normalized ? " normalized" : " unnormalized";
    for (unsigned filter : {kPoint, kLinear}) {
      add(std::string("fine 1d ") + filter_name(filter) + tail, tex_kernel("1d", "f32"),
          image(kF32, 1, 16, 0, 0, 0, kRamp), sampler(kClamp, filter, n), kPlanFine);
      add(std::string("fine 2d ") + filter_name(filter) + tail, tex_kernel("2d", "f32"),
          image(kF32, 2, 16, 16, 0, 0, kRamp), sampler(kClamp, filter, n), kPlanFine);
    }
    add("fine 3d linear" + tail, tex_kernel("3d", "f32"), image(kF32, 4, 8, 8, 8, 0, kRamp),
        sampler(kClamp, kLinear, n), kPlanFine);
  }
  add("fine a2d linear unnormalized", tex_kernel("a2d", "f32"),
      image(kF32, 4, 16, 16, 3, kLayered, kRamp), sampler(kClamp, kLinear), kPlanFine);
  add("fine 1d linear unnormalized u8", tex_kernel("1d", "f32"), image(kU8, 1, 16, 0, 0, 0, kRamp),
      sampler(kClamp, kLinear), kPlanFine);
  add("fine 1d linear unnormalized u16", tex_kernel("1d", "f32"),
      image(kU16, 1, 16, 0, 0, 0, kRamp), sampler(kClamp, kLinear), kPlanFine);
  add("fine 1d linear unnormalized f16", tex_kernel("1d", "f32"),
      image(kF16, 1, 16, 0, 0, 0, kRamp), sampler(kClamp, kLinear), kPlanFine);
  add("fine 1d linear unnormalized f32x4 random", tex_kernel("1d", "f32"), image(kF32, 4, 16),
      sampler(kClamp, kLinear), kPlanFine);
  add("fine 1d linear unnormalized u8x4 random", tex_kernel("1d", "f32"), image(kU8, 4, 16),
      sampler(kClamp, kLinear), kPlanFine);
  add("fine 1d linear normalized wrap", tex_kernel("1d", "f32"), image(kF32, 1, 16, 0, 0, 0, kRamp),
      sampler(kWrap, kLinear, kNormalized), kPlanFine);
  add("fine 1d linear normalized mirror", tex_kernel("1d", "f32"),
      image(kF32, 1, 16, 0, 0, 0, kRamp), sampler(kMirror, kLinear, kNormalized), kPlanFine);
  for (unsigned w : {7u, 12u})
    for (unsigned filter : {kPoint, kLinear})
      add("fine 1d " + std::string(filter_name(filter)) + " normalized " + std::to_string(w),
          tex_kernel("1d", "f32"), image(kF32, 1, w, 0, 0, 0, kRamp),
          sampler(kWrap, filter, kNormalized), kPlanFine);

  // sRGB (CU_TRSF_SRGB): on 8-bit unsigned data, and where it may not apply.
  for (unsigned filter : {kPoint, kLinear})
    add(std::string("srgb u8x4 float ") + filter_name(filter), tex_kernel("2d", "f32"),
        image(kU8, 4, 16, 8), sampler(kClamp, filter, kSrgb), kPlanBasic);
  add("srgb u8x1 float linear", tex_kernel("2d", "f32"), image(kU8, 1, 16, 8),
      sampler(kClamp, kLinear, kSrgb), kPlanBasic);
  add("srgb u8x4 int point", tex_kernel("2d", "u32"), image(kU8, 4, 16, 8),
      sampler(kClamp, kPoint, kSrgb | kReadAsInteger), kPlanBasic);
  add("srgb s8x4 float linear", tex_kernel("2d", "f32"), image(kS8, 4, 16, 8),
      sampler(kClamp, kLinear, kSrgb), kPlanBasic);
  add("srgb u16x4 float linear", tex_kernel("2d", "f32"), image(kU16, 4, 16, 8),
      sampler(kClamp, kLinear, kSrgb), kPlanBasic);
  add("srgb f32x4 linear", tex_kernel("2d", "f32"), image(kF32, 4, 16, 8),
      sampler(kClamp, kLinear, kSrgb), kPlanBasic);

  // Linear memory: tex.1d with .s32 coordinates is tex1Dfetch.
  for (unsigned f : kFormats)
    for (unsigned ch : {1u, 2u, 4u}) {
      const bool as_int = !is_float(f);
      add("linear " + image_name(f, ch) + (as_int ? " int" : " float"),
          tex_kernel("1d", result_type(f, as_int), "s32"), linear(f, ch, 40),
          sampler(kClamp, kPoint, as_int ? kReadAsInteger : 0), kPlanBasic);
      if (small_int(f) && ch != 2)
        add("linear " + image_name(f, ch) + " float", tex_kernel("1d", "f32", "s32"),
            linear(f, ch, 40), sampler(kClamp, kPoint), kPlanBasic);
    }
  add("linear u32x1 float", tex_kernel("1d", "u32", "s32"), linear(kU32, 1, 40),
      sampler(kClamp, kPoint), kPlanBasic);
  add("linear f32x1 linear normalized wrap", tex_kernel("1d", "f32", "s32"), linear(kF32, 1, 40),
      sampler(kWrap, kLinear, kNormalized), kPlanBasic);
  add("linear f32x1 f32 coordinates", tex_kernel("1d", "f32"), linear(kF32, 1, 40),
      sampler(kClamp, kPoint), kPlanBasic);

  // Pitch-linear memory: a 13 x 7 image with padded rows.
  for (unsigned filter : {kPoint, kLinear})
    add(std::string("pitch2d f32x1 clamp ") + filter_name(filter) + " unnormalized",
        tex_kernel("2d", "f32"), pitch2d(kF32, 1, 13, 7), sampler(kClamp, filter), kPlanBasic);
  for (unsigned mode : {kWrap, kMirror, kBorder})
    add(std::string("pitch2d f32x1 ") + address_name(mode) + " linear normalized",
        tex_kernel("2d", "f32"), pitch2d(kF32, 1, 13, 7),
        with_border(sampler(mode, kLinear, kNormalized), kBorderColour), kPlanBasic);
  add("pitch2d u8x4 float linear", tex_kernel("2d", "f32"), pitch2d(kU8, 4, 13, 7),
      sampler(kClamp, kLinear), kPlanBasic);
  add("pitch2d u16x2 int point", tex_kernel("2d", "u32"), pitch2d(kU16, 2, 13, 7),
      sampler(kClamp, kPoint, kReadAsInteger), kPlanBasic);
  add("pitch2d f16x4 linear", tex_kernel("2d", "f32"), pitch2d(kF16, 4, 13, 7),
      sampler(kClamp, kLinear), kPlanBasic);
  add("pitch2d f32x1 s32 coordinates", tex_kernel("2d", "f32", "s32"), pitch2d(kF32, 1, 13, 7),
      sampler(kClamp, kPoint), kPlanBasic);

  // .s32 coordinates on arrays.
  for (const char* geom : {"1d", "2d"}) {
    const bool two = geom[0] == '2';
    add(std::string("coordinates.s32 ") + geom + " f32x1", tex_kernel(geom, "f32", "s32"),
        image(kF32, 1, 8, two ? 4 : 0), sampler(kClamp, kPoint), kPlanBasic);
    add(std::string("coordinates.s32 ") + geom + " u8x4 int", tex_kernel(geom, "u32", "s32"),
        image(kU8, 4, 8, two ? 4 : 0), sampler(kClamp, kPoint, kReadAsInteger), kPlanBasic);
    add(std::string("coordinates.s32 ") + geom + " s16x2 int", tex_kernel(geom, "s32", "s32"),
        image(kS16, 2, 8, two ? 4 : 0), sampler(kClamp, kPoint, kReadAsInteger), kPlanBasic);
    add(std::string("coordinates.s32 ") + geom + " u8x4 float", tex_kernel(geom, "f32", "s32"),
        image(kU8, 4, 8, two ? 4 : 0), sampler(kClamp, kPoint), kPlanBasic);
    add(std::string("coordinates.s32 ") + geom + " f32x1 linear normalized wrap",
        tex_kernel(geom, "f32", "s32"), image(kF32, 1, 8, two ? 4 : 0),
        sampler(kWrap, kLinear, kNormalized), kPlanBasic);
  }
  add("coordinates.s32 3d f32x1", tex_kernel("3d", "f32", "s32"), image(kF32, 1, 4, 4, 4),
      sampler(kClamp, kPoint), kPlanBasic);
  add("coordinates.s32 a1d f32x1", tex_kernel("a1d", "f32", "s32"),
      image(kF32, 1, 8, 0, 3, kLayered), sampler(kClamp, kPoint), kPlanBasic);
  add("coordinates.s32 a2d f32x1", tex_kernel("a2d", "f32", "s32"),
      image(kF32, 1, 8, 4, 3, kLayered), sampler(kClamp, kPoint), kPlanBasic);

  // Cube maps and layered cube maps (8 x 8 faces).
  for (unsigned filter : {kPoint, kLinear}) {
    for (unsigned mode : {kClamp, kWrap, kBorder})
      for (bool seamless : {false, true})
        add(std::string("cube ") + address_name(mode) + " " + filter_name(filter) +
                (seamless ? " seamless" : ""),
            tex_kernel("cube", "f32"), image(kF32, 2, 8, 8, 6, kCubemap),
            with_border(sampler(mode, filter, kNormalized | (seamless ? kSeamlessCubemap : 0)),
                        kBorderColour),
            kPlanBasic);
    for (bool seamless : {false, true})
      add(std::string("acube clamp ") + filter_name(filter) + (seamless ? " seamless" : ""),
          tex_kernel("acube", "f32"), image(kF32, 2, 8, 8, 12, kLayered | kCubemap),
          sampler(kClamp, filter, kNormalized | (seamless ? kSeamlessCubemap : 0)), kPlanBasic);
  }
  add("cube clamp point unnormalized", tex_kernel("cube", "f32"), image(kF32, 2, 8, 8, 6, kCubemap),
      sampler(kClamp, kPoint), kPlanBasic);

  // Integer results (.s32 and .u32) of every other geometry.
  struct IntShape {
    const char* geom;
    unsigned format, channels, w, h, d, flags;
  };
  for (const IntShape& s :
       {IntShape{"1d", kU16, 4, 8, 0, 0, 0}, IntShape{"1d", kS8, 2, 8, 0, 0, 0},
        IntShape{"3d", kS8, 4, 4, 4, 4, 0}, IntShape{"3d", kU16, 2, 4, 4, 4, 0},
        IntShape{"a1d", kU8, 4, 8, 0, 3, kLayered}, IntShape{"a1d", kS16, 1, 8, 0, 3, kLayered},
        IntShape{"a2d", kS16, 2, 8, 4, 3, kLayered}, IntShape{"a2d", kU8, 2, 8, 4, 3, kLayered},
        IntShape{"cube", kU8, 4, 8, 8, 6, kCubemap}, IntShape{"cube", kS16, 2, 8, 8, 6, kCubemap},
        IntShape{"acube", kS16, 4, 8, 8, 12, kLayered | kCubemap},
        IntShape{"acube", kU8, 1, 8, 8, 12, kLayered | kCubemap}}) {
    const bool cube = s.flags & kCubemap;
    add(std::string("geometry ") + s.geom + " " + image_name(s.format, s.channels) + " point",
        tex_kernel(s.geom, result_type(s.format, true)),
        image(s.format, s.channels, s.w, s.h, s.d, s.flags),
        sampler(kClamp, kPoint, kReadAsInteger | (cube ? kNormalized : 0)), kPlanBasic);
  }

  // Mipmaps: explicit lods (tex.level) on a 32 x 16 ramp of 6 levels, channel 3 the level.
  const Image mip2d = mipmapped(kF32, 4, 6, 32, 16);
  for (unsigned filter : {kPoint, kLinear})
    for (unsigned mip : {kPoint, kLinear})
      add(std::string("level 2d ") + filter_name(filter) + "/" + filter_name(mip),
          "tex_level_2d_v4_f32_f32", mip2d, mip_sampler(filter, mip, 6), kPlanLevel);
  for (unsigned filter : {kPoint, kLinear})
    add(std::string("level 2d ") + filter_name(filter) + "/linear exact trilinear",
        "tex_level_2d_v4_f32_f32", mip2d, mip_sampler(filter, kLinear, 6, kNoTrilinearOptimization),
        kPlanLevel);
  add("level 2d u8x4 random linear/linear", "tex_level_2d_v4_f32_f32",
      mipmapped(kU8, 4, 6, 32, 16, 0, 0, kRandom), mip_sampler(kLinear, kLinear, 6), kPlanLevel);
  for (float bias : {0.5f, -1.25f}) {
    Sampler s = mip_sampler(kLinear, kLinear, 6);
    s.level_bias = bias;
    add("level 2d linear/linear bias " + std::string(bias > 0 ? "0.5" : "-1.25"),
        "tex_level_2d_v4_f32_f32", mip2d, s, kPlanLevel);
  }
  {
    Sampler s = mip_sampler(kLinear, kLinear, 6);
    s.min_level_clamp = 1.5f, s.max_level_clamp = 2.25f;
    add("level 2d linear/linear clamp 1.5..2.25", "tex_level_2d_v4_f32_f32", mip2d, s, kPlanLevel);
    s.min_level_clamp = -1, s.max_level_clamp = 100;
    add("level 2d linear/linear clamp -1..100", "tex_level_2d_v4_f32_f32", mip2d, s, kPlanLevel);
    s.min_level_clamp = 0, s.max_level_clamp = 0;
    add("level 2d linear/linear clamp 0..0", "tex_level_2d_v4_f32_f32", mip2d, s, kPlanLevel);
  }
  add("level 2d 13x7 linear/linear", "tex_level_2d_v4_f32_f32", mipmapped(kF32, 4, 4, 13, 7),
      mip_sampler(kLinear, kLinear, 4), kPlanLevel);
  add("level 2d 3 of 6 levels linear/linear", "tex_level_2d_v4_f32_f32",
      mipmapped(kF32, 4, 3, 32, 16), mip_sampler(kLinear, kLinear, 3), kPlanLevel);
  add("level 2d s32 point/point", "tex_level_2d_v4_f32_s32", mip2d, mip_sampler(kPoint, kPoint, 6),
      kPlanLevel);
  add("level 2d not mipmapped", "tex_level_2d_v4_f32_f32", image(kF32, 4, 32, 16, 0, 0, kRamp),
      sampler(kClamp, kLinear, kNormalized), kPlanLevel);
  add("level 1d linear/linear", "tex_level_1d_v4_f32_f32", mipmapped(kF32, 4, 6, 32),
      mip_sampler(kLinear, kLinear, 6), kPlanLevel);
  for (unsigned f : {kPoint, kLinear})
    add(std::string("level 3d ") + filter_name(f) + "/" + filter_name(f), "tex_level_3d_v4_f32_f32",
        mipmapped(kF32, 4, 5, 16, 8, 8), mip_sampler(f, f, 5), kPlanLevel);
  add("level a1d linear/linear", "tex_level_a1d_v4_f32_f32",
      mipmapped(kF32, 4, 6, 32, 0, 3, kLayered), mip_sampler(kLinear, kLinear, 6), kPlanLevel);
  for (unsigned f : {kPoint, kLinear})
    add(std::string("level a2d ") + filter_name(f) + "/linear", "tex_level_a2d_v4_f32_f32",
        mipmapped(kF32, 4, 5, 16, 16, 3, kLayered), mip_sampler(f, kLinear, 5), kPlanLevel);
  for (unsigned f : {kPoint, kLinear})
    add(std::string("level cube ") + filter_name(f) + "/" + filter_name(f),
        "tex_level_cube_v4_f32_f32", mipmapped(kF32, 4, 4, 8, 8, 6, kCubemap), mip_sampler(f, f, 4),
        kPlanLevel);
  add("level cube linear/linear seamless", "tex_level_cube_v4_f32_f32",
      mipmapped(kF32, 4, 4, 8, 8, 6, kCubemap), mip_sampler(kLinear, kLinear, 4, kSeamlessCubemap),
      kPlanLevel);
  add("level acube linear/linear", "tex_level_acube_v4_f32_f32",
      mipmapped(kF32, 4, 4, 8, 8, 12, kLayered | kCubemap), mip_sampler(kLinear, kLinear, 4),
      kPlanLevel);

  // Gradients (tex.grad) on a 32 x 32 ramp of 6 levels: anisotropy 1-16.
  const Image mipg = mipmapped(kF32, 4, 6, 32, 32);
  for (unsigned aniso : {0u, 1u, 4u, 16u}) {
    Sampler s = mip_sampler(kLinear, kLinear, 6);
    s.max_anisotropy = aniso;
    add("grad 2d linear/linear aniso " + std::to_string(aniso), "tex_grad_2d_v4_f32_f32", mipg, s,
        kPlanGrad);
  }
  {
    Sampler s = mip_sampler(kPoint, kPoint, 6);
    s.max_anisotropy = 16;
    add("grad 2d point/point aniso 16", "tex_grad_2d_v4_f32_f32", mipg, s, kPlanGrad);
    s = mip_sampler(kLinear, kPoint, 6);
    s.max_anisotropy = 16;
    add("grad 2d linear/point aniso 16", "tex_grad_2d_v4_f32_f32", mipg, s, kPlanGrad);
    s = mip_sampler(kLinear, kLinear, 6, kNoTrilinearOptimization);
    s.max_anisotropy = 16;
    add("grad 2d linear/linear aniso 16 exact trilinear", "tex_grad_2d_v4_f32_f32", mipg, s,
        kPlanGrad);
    add("grad 2d u8x4 random linear/linear aniso 16", "tex_grad_2d_v4_f32_f32",
        mipmapped(kU8, 4, 6, 32, 32, 0, 0, kRandom), s, kPlanGrad);
    s.max_anisotropy = 1, s.level_bias = 1;
    add("grad 2d linear/linear aniso 1 bias 1", "tex_grad_2d_v4_f32_f32", mipg, s, kPlanGrad);
    s = sampler(kClamp, kLinear, kNormalized);
    s.max_anisotropy = 16;
    add("grad 2d not mipmapped", "tex_grad_2d_v4_f32_f32", image(kF32, 4, 32, 32, 0, 0, kRamp), s,
        kPlanGrad);
  }
  for (unsigned aniso : {1u, 16u}) {
    Sampler s = mip_sampler(kLinear, kLinear, 5);
    s.max_anisotropy = aniso;
    add("grad 3d linear/linear aniso " + std::to_string(aniso), "tex_grad_3d_v4_f32_f32",
        mipmapped(kF32, 4, 5, 16, 16, 16), s, kPlanGrad);
  }
  {
    Sampler s = mip_sampler(kLinear, kLinear, 6);
    s.max_anisotropy = 16;
    add("grad 1d linear/linear aniso 16", "tex_grad_1d_v4_f32_f32", mipmapped(kF32, 4, 6, 32), s,
        kPlanGrad);
    add("grad a1d linear/linear aniso 16", "tex_grad_a1d_v4_f32_f32",
        mipmapped(kF32, 4, 6, 32, 0, 3, kLayered), s, kPlanGrad);
    add("grad a2d linear/linear aniso 16", "tex_grad_a2d_v4_f32_f32",
        mipmapped(kF32, 4, 6, 32, 32, 3, kLayered), s, kPlanGrad);
    s = mip_sampler(kLinear, kLinear, 4);
    s.max_anisotropy = 16;
    add("grad cube linear/linear aniso 16", "tex_grad_cube_v4_f32_f32",
        mipmapped(kF32, 4, 4, 8, 8, 6, kCubemap), s, kPlanGrad);
    add("grad acube linear/linear aniso 16", "tex_grad_acube_v4_f32_f32",
        mipmapped(kF32, 4, 4, 8, 8, 12, kLayered | kCubemap), s, kPlanGrad);
  }
  // tex and tex.base on a mipmapped array: level 0, then the clamps and the bias.
  {
    Sampler s = mip_sampler(kLinear, kLinear, 6);
    add("base 2d mipmapped", tex_kernel("2d", "f32"), mip2d, s, kPlanBasic);
    add("base 2d mipmapped tex.base", "tex_base_2d_v4_f32_f32", mip2d, s, kPlanBasic);
    s.min_level_clamp = 1.5f;
    add("base 2d mipmapped clamp 1.5..5", tex_kernel("2d", "f32"), mip2d, s, kPlanBasic);
    s.min_level_clamp = 0, s.level_bias = 2;
    add("base 2d mipmapped bias 2", tex_kernel("2d", "f32"), mip2d, s, kPlanBasic);
  }

  // tld4 (§9.7.10.4) on arrays made for gather: each component of each kind of format.
  struct Gather {
    unsigned format, channels;
    bool as_int;
  };
  for (const Gather& g : {Gather{kF32, 4, false}, Gather{kU8, 4, false}, Gather{kU8, 4, true},
                          Gather{kS16, 4, true}, Gather{kF32, 2, false}, Gather{kU16, 1, true},
                          Gather{kS8, 4, false}, Gather{kF16, 4, false}})
    for (const char* comp : {"r", "g", "b", "a"})
      add(std::string("tld4 ") + comp + " " + image_name(g.format, g.channels) +
              (g.as_int ? " int" : " float"),
          std::string("tld4_") + comp + "_2d_v4_" + result_type(g.format, g.as_int) + "_f32",
          image(g.format, g.channels, 8, 6, 0, kTextureGather),
          sampler(kClamp, kPoint, g.as_int ? kReadAsInteger : 0), kPlanBasic);
  for (unsigned mode : {kWrap, kMirror, kBorder})
    add(std::string("tld4 r f32x4 ") + address_name(mode) + " normalized", "tld4_r_2d_v4_f32_f32",
        image(kF32, 4, 8, 6, 0, kTextureGather),
        with_border(sampler(mode, kPoint, kNormalized), kBorderColour), kPlanBasic);
  add("tld4 r f32x4 border unnormalized", "tld4_r_2d_v4_f32_f32",
      image(kF32, 4, 8, 6, 0, kTextureGather), with_border(sampler(kBorder, kPoint), kBorderColour),
      kPlanBasic);
  add("tld4 r f32x4 linear", "tld4_r_2d_v4_f32_f32", image(kF32, 4, 8, 6, 0, kTextureGather),
      sampler(kClamp, kLinear), kPlanBasic);
  add("tld4 r f32x4 as u32", "tld4_r_2d_v4_u32_f32", image(kF32, 4, 8, 6, 0, kTextureGather),
      sampler(kClamp, kPoint), kPlanBasic);
  add("tld4 r f32x4 no gather flag", "tld4_r_2d_v4_f32_f32", image(kF32, 4, 8, 6),
      sampler(kClamp, kPoint), kPlanBasic);
  add("tld4 r f32x4 offset", "tld4_r_2d_v4_f32_f32_offset", image(kF32, 4, 8, 6, 0, kTextureGather),
      sampler(kClamp, kPoint), kPlanOffset);
  struct Layout {
    const char* geom;
    unsigned h, d, flags, sampler_flags;
  };
  for (const Layout& l :
       {Layout{"a2d", 6, 3, kLayered, 0}, Layout{"cube", 8, 6, kCubemap, kNormalized},
        Layout{"acube", 8, 12, kLayered | kCubemap, kNormalized}})
    for (const char* comp : {"r", "a"})
      for (bool gather : {true, false}) {
        if (!gather && comp[0] == 'a') continue;
        add(std::string("tld4 ") + comp + " " + l.geom + (gather ? "" : " no gather flag"),
            std::string("tld4_") + comp + "_" + l.geom + "_v4_f32_f32",
            image(kF32, 4, 8, l.h, l.d, l.flags | (gather ? kTextureGather : 0)),
            sampler(kClamp, kPoint, l.sampler_flags), kPlanBasic);
      }

  // f16 results (.v4.f16, .v2.f16x2).
  for (const char* k : {"tex_2d_v4_f16_f32", "tex_2d_v2_f16x2_f32"}) {
    const std::string form =
        std::string(k).find("f16x2") == std::string::npos ? " v4.f16" : " v2.f16x2";
    add("f16" + form + " u8x4 float linear", k, image(kU8, 4, 16, 8), sampler(kClamp, kLinear),
        kPlanBasic);
    add("f16" + form + " s16x4 float linear", k, image(kS16, 4, 16, 8), sampler(kClamp, kLinear),
        kPlanBasic);
    add("f16" + form + " f16x4 linear", k, image(kF16, 4, 16, 8), sampler(kClamp, kLinear),
        kPlanBasic);
    add("f16" + form + " f32x4 specials point", k, image(kF32, 4, 16, 8, 0, 0, kSpecials),
        sampler(kClamp, kPoint), kPlanBasic);
  }

  // Offsets (operand e, §9.7.10.3).
  add("offset 1d linear", "tex_1d_v4_f32_f32_offset", image(kF32, 1, 16, 0, 0, 0, kRamp),
      sampler(kClamp, kLinear), kPlanOffset);
  add("offset 2d linear", "tex_2d_v4_f32_f32_offset", image(kF32, 2, 16, 8, 0, 0, kRamp),
      sampler(kClamp, kLinear), kPlanOffset);
  add("offset 2d point normalized wrap", "tex_2d_v4_f32_f32_offset",
      image(kF32, 2, 16, 8, 0, 0, kRamp), sampler(kWrap, kPoint, kNormalized), kPlanOffset);
  add("offset 3d linear", "tex_3d_v4_f32_f32_offset", image(kF32, 4, 8, 8, 8, 0, kRamp),
      sampler(kClamp, kLinear), kPlanOffset);
  add("offset a2d linear", "tex_a2d_v4_f32_f32_offset", image(kF32, 4, 16, 8, 3, kLayered, kRamp),
      sampler(kClamp, kLinear), kPlanOffset);
  add("offset 2d s32", "tex_2d_v4_f32_s32_offset", image(kF32, 2, 16, 8, 0, 0, kRamp),
      sampler(kClamp, kPoint), kPlanOffset);
  add("offset level 2d", "tex_level_2d_v4_f32_f32_offset", mip2d, mip_sampler(kLinear, kLinear, 6),
      kPlanOffset);
  {
    Sampler s = mip_sampler(kLinear, kLinear, 6);
    s.max_anisotropy = 16;
    add("offset grad 2d", "tex_grad_2d_v4_f32_f32_offset", mipg, s, kPlanOffset);
  }

  // The depth-compare operand f on ordinary and depth arrays.
  for (unsigned flags : {0u, kDepthTexture})
    for (unsigned filter : {kPoint, kLinear})
      add(std::string("compare f32x1 ") + filter_name(filter) + (flags ? " depth array" : ""),
          "tex_2d_v4_f32_f32_compare", image(kF32, 1, 8, 4, 0, flags), sampler(kClamp, filter),
          kPlanCompare);

  for (unsigned flags : {0u, kDepthTexture})
    add(std::string("compare tld4 r f32x1") + (flags ? " depth array" : ""),
        "tld4_r_2d_v4_f32_f32_compare", image(kF32, 1, 8, 4, 0, kTextureGather | flags),
        sampler(kClamp, kPoint), kPlanCompare);
  // The destination predicate p (§9.7.10.3): whether the texels are resident.
  add("pred 2d f32x4 point", "tex_2d_v4_f32_f32_pred", image(kF32, 4, 16, 8),
      sampler(kClamp, kPoint), kPlanBasic);

  // txq's texture and sampler queries and txq.level (§9.7.10.5) of each kind of texture;
  // .force_unnormalized_coords; istypep (§9.7.10.6).
  {
    Sampler many = with_border(sampler(kWrap, kLinear, kNormalized), kBorderColour);
    many.address[1] = kMirror, many.address[2] = kBorder;
    struct Query {
      const char* name;
      Image image;
      Sampler sampler;
    };
    const Query queries[] = {
        {"1d u8x1 point", image(kU8, 1, 8), sampler(kClamp, kPoint)},
        {"2d f32x4 linear wrap/mirror/border", image(kF32, 4, 8, 4), many},
        {"3d u16x2 int", image(kU16, 2, 4, 4, 4), sampler(kBorder, kPoint, kReadAsInteger)},
        {"a1d s8x1", image(kS8, 1, 8, 0, 3, kLayered), sampler(kMirror, kLinear, kNormalized)},
        {"a2d f16x4", image(kF16, 4, 8, 4, 5, kLayered), sampler(kClamp, kLinear)},
        {"cube f32x1 seamless", image(kF32, 1, 8, 8, 6, kCubemap),
         sampler(kClamp, kLinear, kNormalized | kSeamlessCubemap)},
        {"acube s32x2", image(kS32, 2, 8, 8, 12, kLayered | kCubemap),
         sampler(kClamp, kPoint, kNormalized | kReadAsInteger)},
        {"mipmapped 2d", mip2d, mip_sampler(kLinear, kLinear, 6)},
        {"mipmapped 3d 13x7x5", mipmapped(kF32, 4, 4, 13, 7, 5), mip_sampler(kLinear, kPoint, 4)},
        {"linear u8x4", linear(kU8, 4, 40), sampler(kClamp, kPoint)},
        {"pitch2d f32x1", pitch2d(kF32, 1, 13, 7), sampler(kWrap, kLinear, kNormalized)},
        {"srgb u8x4", image(kU8, 4, 8, 4), sampler(kClamp, kLinear, kSrgb)},
        {"u32x4 gather", image(kU32, 4, 8, 4, 0, kTextureGather),
         sampler(kClamp, kPoint, kReadAsInteger)}};
    for (const Query& q : queries) {
      add(std::string("txq ") + q.name, "query_txq", q.image, q.sampler, kPlanQuery);
      add(std::string("txq.level ") + q.name, "txq_level", q.image, q.sampler, kPlanQuery);
    }
    add("istypep texture", "query_istypep", image(kF32, 1, 8, 4), sampler(kClamp, kPoint), kPlanQuery);
  }
  return v;
}

inline std::vector<SurfCase> surface_cases() {
  using namespace detail;
  std::vector<SurfCase> v;
  auto add = [&](const std::string& name, const std::string& kernel, const Image& im, Plan plan) {
    v.push_back({name, kernel, im, plan});
  };
  struct Shape {
    const char* geom;
    unsigned w, h, d, flags;
  };
  const Shape shapes[] = {{"1d", 16, 0, 0, 0},
                          {"2d", 8, 4, 0, 0},
                          {"3d", 4, 3, 3, 0},
                          {"a1d", 16, 0, 3, kLayered},
                          {"a2d", 8, 4, 3, kLayered}};
  auto shape = [&](const std::string& geom) {
    for (const Shape& s : shapes)
      if (geom == s.geom) return s;
    throw std::invalid_argument("no shape " + geom);
  };
  auto surface = [&](const std::string& geom, unsigned format, unsigned channels) {
    const Shape s = shape(geom);
    return image(format, channels, s.w, s.h, s.d, s.flags | kSurfaceLdst);
  };
  // suld.b/sust.b (vector, element type) and the format whose element it moves.
  struct Form {
    const char *vec, *type;
    unsigned format, channels;
  };
  const Form forms[] = {{"", "b8", kU8, 1},     {"", "b16", kU16, 1},   {"", "b32", kU32, 1},
                        {"", "b64", kU32, 2},   {"v2", "b8", kU8, 2},   {"v2", "b16", kU16, 2},
                        {"v2", "b32", kF32, 2}, {"v2", "b64", kU32, 4}, {"v4", "b8", kU8, 4},
                        {"v4", "b16", kF16, 4}, {"v4", "b32", kF32, 4}};
  auto form_kernel = [](const char* op, const std::string& geom, const Form& f, const char* clamp) {
    return std::string(op) + "_" + geom + (f.vec[0] ? std::string("_") + f.vec : "") + "_" +
           f.type + "_" + clamp;
  };
  auto form_name = [](const Form& f) {
    return std::string(f.vec[0] ? f.vec : "v1") + "." + f.type;
  };

  // Every geometry, access and clamp mode: .trap in range only (out of range traps, below).
  for (const char* op : {"suld_b", "sust_b"})
    for (const Shape& s : shapes)
      for (const Form& f : forms)
        for (const char* clamp : {"trap", "clamp", "zero"})
          add(std::string(op[2] == 'l' ? "suld " : "sust ") + s.geom + " " + form_name(f) + " " +
                  clamp,
              form_kernel(op, s.geom, f, clamp), surface(s.geom, f.format, f.channels),
              clamp[0] == 't' ? kPlanSurfInRange : kPlanSurfEdges);
  // x off the access's alignment (§9.7.11.1: undefined; it may trap).
  for (const char* op : {"suld_b", "sust_b"})
    for (unsigned i : {1u, 2u, 10u})
      for (const char* clamp : {"trap", "clamp", "zero"})
        add(std::string(op[2] == 'l' ? "suld" : "sust") + " 2d " + form_name(forms[i]) + " " +
                clamp + " misaligned",
            form_kernel(op, "2d", forms[i], clamp),
            surface("2d", forms[i].format, forms[i].channels), kPlanSurfMisaligned);
  // Accesses larger or smaller than the element, at every byte offset.
  for (const char* clamp : {"clamp", "zero"}) {
    add(std::string("suld 2d v1.b32 on u8x1 ") + clamp,
        form_kernel("suld_b", "2d", forms[2], clamp), surface("2d", kU8, 1), kPlanSurfBytes);
    add(std::string("suld 2d v1.b8 on f32x1 ") + clamp,
        form_kernel("suld_b", "2d", forms[0], clamp), surface("2d", kF32, 1), kPlanSurfBytes);
    add(std::string("suld 2d v4.b32 on u8x4 ") + clamp,
        form_kernel("suld_b", "2d", forms[10], clamp), surface("2d", kU8, 4), kPlanSurfBytes);
    add(std::string("suld 2d v1.b64 on u16x2 ") + clamp,
        form_kernel("suld_b", "2d", forms[3], clamp), surface("2d", kU16, 2), kPlanSurfBytes);
  }
  // .trap out of range: one lookup each.
  struct Trap {
    const char* geom;
    Plan plan;
    const char* what;
  };
  for (const Trap& t :
       {Trap{"1d", kPlanSurfOobX, "x past"}, Trap{"1d", kPlanSurfOobXNeg, "x before"},
        Trap{"2d", kPlanSurfOobX, "x past"}, Trap{"2d", kPlanSurfOobY, "y past"},
        Trap{"3d", kPlanSurfOobZ, "z past"}, Trap{"a1d", kPlanSurfOobLayer, "layer past"},
        Trap{"a2d", kPlanSurfOobLayer, "layer past"}})
    for (const char* op : {"suld_b", "sust_b"})
      add(std::string(op[2] == 'l' ? "suld " : "sust ") + t.geom + " v1.b32 trap " + t.what,
          form_kernel(op, t.geom, forms[2], "trap"), surface(t.geom, kU32, 1), t.plan);
  add("suld 2d v4.b32 trap x past", form_kernel("suld_b", "2d", forms[10], "trap"),
      surface("2d", kF32, 4), kPlanSurfOobX);

  // sust.p (formatted): every format and channel count, then the other geometries and clamps.
  for (unsigned f : kFormats)
    for (unsigned ch : {1u, 2u, 4u})
      add("sust.p 2d v4 clamp " + image_name(f, ch), "sust_p_2d_v4_b32_clamp", surface("2d", f, ch),
          kPlanSurfEdges);
  for (const Shape& s : shapes)
    for (const char* clamp : {"trap", "clamp", "zero"}) {
      if (std::string(s.geom) == "2d" && clamp[0] == 'c') continue;
      for (unsigned f : {kF32, kU8})
        add(std::string("sust.p ") + s.geom + " v4 " + clamp + " " + image_name(f, 4),
            std::string("sust_p_") + s.geom + "_v4_b32_" + clamp, surface(s.geom, f, 4),
            clamp[0] == 't' ? kPlanSurfInRange : kPlanSurfEdges);
    }
  add("sust.p 2d v1 clamp u8x4", "sust_p_2d_b32_clamp", surface("2d", kU8, 4), kPlanSurfEdges);
  add("sust.p 2d v2 clamp f16x4", "sust_p_2d_v2_b32_clamp", surface("2d", kF16, 4), kPlanSurfEdges);

  // sured.b and sured.p (§9.7.11.3) on surfaces of the operation's type.
  struct Reduction {
    const char *op, *type;
    unsigned format, channels;
  };
  for (const Reduction& r : {Reduction{"add", "u32", kU32, 1}, Reduction{"add", "s32", kS32, 1},
                             Reduction{"add", "u64", kU32, 2}, Reduction{"min", "u32", kU32, 1},
                             Reduction{"min", "s32", kS32, 1}, Reduction{"min", "u64", kU32, 2},
                             Reduction{"min", "s64", kS32, 2}, Reduction{"max", "u32", kU32, 1},
                             Reduction{"max", "s32", kS32, 1}, Reduction{"max", "u64", kU32, 2},
                             Reduction{"max", "s64", kS32, 2}, Reduction{"and", "b32", kU32, 1},
                             Reduction{"or", "b32", kU32, 1}}) {
    add(std::string("sured.b ") + r.op + "." + r.type + " 2d clamp",
        std::string("sured_b_") + r.op + "_2d_" + r.type + "_clamp",
        surface("2d", r.format, r.channels), kPlanSurfEdges);
    add(std::string("sured.b ") + r.op + "." + r.type + " 1d zero",
        std::string("sured_b_") + r.op + "_1d_" + r.type + "_zero",
        surface("1d", r.format, r.channels), kPlanSurfEdges);
  }
  add("sured.b add.u32 1d clamp", "sured_b_add_1d_u32_clamp", surface("1d", kU32, 1),
      kPlanSurfEdges);
  add("sured.b add.u32 3d clamp", "sured_b_add_3d_u32_clamp", surface("3d", kU32, 1),
      kPlanSurfEdges);
  add("sured.b add.u32 2d trap", "sured_b_add_2d_u32_trap", surface("2d", kU32, 1),
      kPlanSurfInRange);
  for (const char* op : {"add", "min", "max", "and", "or"})
    for (unsigned f : {kU32, kS32})
      add(std::string("sured.p ") + op + ".b32 1d clamp " + image_name(f, 1),
          std::string("sured_p_") + op + "_1d_b32_clamp", surface("1d", f, 1), kPlanSurfEdges);
  for (const char* op : {"min", "max"})
    for (unsigned f : {kU32, kS32})
      add(std::string("sured.p ") + op + ".b64 1d clamp " + image_name(f, 2),
          std::string("sured_p_") + op + "_1d_b64_clamp", surface("1d", f, 2), kPlanSurfEdges);

  // suq (§9.7.11.4) of each geometry, and istypep.
  for (const Shape& s : shapes)
    add(std::string("suq ") + s.geom + " f32x4", "query_suq", surface(s.geom, kF32, 4), kPlanQuery);
  add("suq 2d u8x1", "query_suq", surface("2d", kU8, 1), kPlanQuery);
  add("suq 2d s16x2", "query_suq", surface("2d", kS16, 2), kPlanQuery);
  add("istypep surface", "query_istypep", surface("2d", kF32, 1), kPlanQuery);
  return v;
}

}  // namespace ptxvm_hw_texture
