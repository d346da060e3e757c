// Linear filtering against an H200: the exhaustive probes of tests/hw/texture/filter (its README
// says how each was recorded and what it showed), replayed through ptxvm's sampler lookup for
// lookup — the bilinear and trilinear weights at every weight pair (filter.bin.xz,
// filter3d.bin.xz), the sRGB table and its blends (srgb.bin.xz, srgb_quantum.bin.xz), and blends of
// 8-bit pairs, sRGB and signed (pairs.bin.xz, snorm8.bin.xz). PTX §9.7.10.3 (001_23fdd5978b24a3ed.txt).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "hw_records.h"
#include "texture/sample.h"

namespace ptxvm::texture {
namespace {

// The 32-bit words of tests/hw/texture/filter/`file`.
std::vector<uint32_t> words(const char* file) {
  const std::string data =
      test::read_xz((std::filesystem::path(__FILE__).parent_path() / "../hw/texture/filter" / file).string());
  std::vector<uint32_t> w(data.size() / 4);
  std::memcpy(w.data(), data.data(), 4 * w.size());
  return w;
}

// A texture of one level (an array: clamp, unnormalized coordinates), `channels` channels of
// `format`, its bytes in x-fastest order; linear filtering unless `point`.
struct Texture {
  std::vector<uint8_t> bytes;
  std::vector<Image> levels;
  Object tex;
  Texture(ChannelFormat format, unsigned channels, uint32_t w, uint32_t h, uint32_t d, std::vector<uint8_t> data,
          bool point = false)
      : bytes(std::move(data)) {
    Image img;
    img.data = bytes.data(), img.width = w, img.height = h, img.depth = d;
    img.row_pitch = uint64_t(w) * channels * channel_bytes(format), img.slice_pitch = img.row_pitch * h;
    levels.push_back(img);
    TextureResource& r = tex.resource;
    r.format = format, r.channels = uint8_t(channels), r.width = w, r.height = h, r.depth = d > 1 ? d : 0;
    TextureSampler& s = tex.sampler;
    s.address = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
    s.filter = point ? FilterMode::Point : FilterMode::Linear;
  }
  std::array<uint32_t, 4> at(float x, float y, float z = 0) const {
    Lookup l;
    l.geometry = levels[0].depth > 1 ? Geometry::D3 : Geometry::D2;
    l.f = {x, y, z};
    return sample(tex, levels, l, Result::F32);
  }
};

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// The probes' coordinate for weight a of the upper texel past texel `base`: base + 0.5 + a/256 +
// 2^-10 (the 2^-10 keeps the weights off rounding ties), in the probes' float arithmetic.
float between(int base, int a) { return float(base) + 0.5f + float(a) / 256.0f + 1.0f / 1024; }

// filter.bin.xz: 2 x 2 textures (five u8 read as normalized floats, four f32) sampled at every
// weight pair (a, b) in 0..255; per texture uint32 65,536, then the first channel, b-major.
TEST(TextureFilterWeights, BilinearMatchesTheH200) {
  const std::vector<uint32_t> w = words("filter.bin.xz");
  ASSERT_EQ(w.size(), 9u * 65537);
  const std::vector<std::vector<uint8_t>> u8sets = {{0, 255, 0, 0}, {0, 0, 0, 255}, {0, 255, 255, 255}, {100, 200, 30, 60}, {0, 1, 0, 0}};
  const std::vector<std::vector<float>> f32sets = {{0, 1, 0, 0}, {0, 0, 0, 1}, {1, 3, 7, 5}, {0.1f, 0.7f, 0.3f, 0.9f}};
  size_t wrong = 0;
  for (size_t set = 0; set < 9; ++set) {
    const Texture t = set < 5 ? Texture(ChannelFormat::U8, 1, 2, 2, 1, u8sets[set])
                              : Texture(ChannelFormat::F32, 1, 2, 2, 1, bytes_of(f32sets[set - 5]));
    const uint32_t* hw = &w[set * 65537];
    ASSERT_EQ(hw[0], 65536u);
    for (int b = 0; b < 256; ++b)
      for (int a = 0; a < 256; ++a) {
        const uint32_t got = t.at(between(0, a), between(0, b))[0], want = hw[1 + b * 256 + a];
        if (got != want && wrong++ < 4) ADD_FAILURE() << "set " << set << ", weights (" << a << ", " << b << "): H200 " << std::hex << want << ", ptxvm " << got;
      }
  }
  std::printf("bilinear weights: %zu of %u lookups differ from the H200's\n", wrong, 9 * 65536);
  EXPECT_EQ(wrong, 0u);
}

// filter3d.bin.xz: 2 x 2 x 2 f32 textures, one texel (the corner, x fastest) 1, at every weight
// pair (a, b) and six z weights; per corner and z weight uint32 65,536, then the results, b-major.
TEST(TextureFilterWeights, TrilinearMatchesTheH200) {
  const std::vector<uint32_t> w = words("filter3d.bin.xz");
  const int zs[] = {1, 64, 127, 129, 192, 255};
  ASSERT_EQ(w.size(), 8u * 6 * 65537);
  size_t wrong = 0;
  for (int corner = 0; corner < 8; ++corner) {
    std::vector<float> texels(8, 0.0f);
    texels[size_t(corner)] = 1;
    const Texture t(ChannelFormat::F32, 1, 2, 2, 2, bytes_of(texels));
    for (int k = 0; k < 6; ++k) {
      const uint32_t* hw = &w[size_t(corner * 6 + k) * 65537];
      ASSERT_EQ(hw[0], 65536u);
      for (int b = 0; b < 256; ++b)
        for (int a = 0; a < 256; ++a) {
          const uint32_t got = t.at(between(0, a), between(0, b), between(0, zs[k]))[0], want = hw[1 + b * 256 + a];
          if (got != want && wrong++ < 4)
            ADD_FAILURE() << "corner " << corner << ", weights (" << a << ", " << b << ", " << zs[k] << "): H200 " << std::hex << want << ", ptxvm " << got;
        }
    }
  }
  std::printf("trilinear weights: %zu of %u lookups differ from the H200's\n", wrong, 48 * 65536);
  EXPECT_EQ(wrong, 0u);
}

// probe_row.h's texture: 512 x 1 RGBA8 (signed or not, sRGB or not) read as normalized floats.
Texture row(const std::vector<uint8_t>& texels, bool is_signed, bool srgb) {
  Texture t(is_signed ? ChannelFormat::S8 : ChannelFormat::U8, 4, 512, 1, 1, texels);
  t.tex.sampler.srgb = srgb;
  return t;
}

// Lookups at between(2k, w) of a row texture against `hw`'s float4 results, k-major, w from
// `first` to 255; the count of channels that differ.
size_t row_misses(const Texture& t, const uint32_t* hw, int first, const char* what) {
  size_t wrong = 0, i = 0;
  for (int k = 0; k < 256; ++k)
    for (int w = first; w < 256; ++w, ++i) {
      const std::array<uint32_t, 4> got = t.at(between(2 * k, w), 0.5f);
      for (unsigned c = 0; c < 4; ++c)
        if (got[c] != hw[4 * i + c] && wrong++ < 4)
          ADD_FAILURE() << what << ": k " << k << ", w " << w << ", channel " << c << ": H200 " << std::hex << hw[4 * i + c] << ", ptxvm " << got[c];
    }
  return wrong;
}

// pairs.bin.xz: texel 2k holds k in every channel, texel 2k + 1 (0, 255, 128, 0x55), blended at
// every weight w of the second; an sRGB texture, then a signed one (uint32 2, then per texture
// uint32 65,536 and the float4 results, k-major).
TEST(TextureFilterWeights, EightBitPairsMatchTheH200) {
  const std::vector<uint32_t> w = words("pairs.bin.xz");
  ASSERT_EQ(w.size(), 1u + 2 * (1 + 4 * 65536));
  ASSERT_EQ(w[0], 2u);
  std::vector<uint8_t> texels(512 * 4);
  for (int k = 0; k < 256; ++k)
    for (int c = 0; c < 4; ++c) {
      texels[size_t(8 * k + c)] = uint8_t(k);
      texels[size_t(8 * k + 4 + c)] = uint8_t(c == 0 ? 0 : c == 1 ? 255 : c == 2 ? 128 : 0x55);
    }
  const size_t srgb = row_misses(row(texels, false, true), &w[2], 0, "sRGB");
  const size_t snorm = row_misses(row(texels, true, false), &w[3 + 4 * 65536], 0, "signed");
  std::printf("8-bit pairs: %zu sRGB and %zu signed channels of %u each differ from the H200's\n", srgb, snorm, 4 * 65536);
  EXPECT_EQ(srgb, 0u);
  EXPECT_EQ(snorm, 0u);
}

// snorm8.bin.xz: signed texels a = k - 128 and a + 1 (127 at the top) blended at every weight w,
// so that the raw sum 256 a + w covers -32768 .. 32512 (uint32 65,536, then the R channel).
TEST(TextureFilterWeights, SignedEightBitSumsMatchTheH200) {
  const std::vector<uint32_t> w = words("snorm8.bin.xz");
  ASSERT_EQ(w.size(), 1u + 65536);
  std::vector<uint8_t> texels(512 * 4);
  for (int k = 0; k < 256; ++k)
    for (int c = 0; c < 4; ++c) {
      const int v = k - 128;
      texels[size_t(8 * k + c)] = uint8_t(v), texels[size_t(8 * k + 4 + c)] = uint8_t(v < 127 ? v + 1 : 127);
    }
  const Texture t = row(texels, true, false);
  size_t wrong = 0;
  for (int k = 0; k < 256; ++k)
    for (int x = 0; x < 256; ++x) {
      const uint32_t got = t.at(between(2 * k, x), 0.5f)[0], want = w[1 + size_t(k) * 256 + size_t(x)];
      if (got != want && wrong++ < 4) ADD_FAILURE() << "k " << k << ", w " << x << ": H200 " << std::hex << want << ", ptxvm " << got;
    }
  std::printf("signed 8-bit sums: %zu of 65536 differ from the H200's\n", wrong);
  EXPECT_EQ(wrong, 0u);
}

// srgb.bin.xz: a 256 x 1 sRGB RGBA8 texture whose texel x holds x, point sampled at every texel
// (the decoding table), then blended between x and x + 1 at every weight for eight x (uint32 256
// and the R channels, per run).
TEST(TextureFilterWeights, SrgbTableAndBlendsMatchTheH200) {
  const std::vector<uint32_t> w = words("srgb.bin.xz");
  const int pairs[] = {0, 1, 10, 50, 100, 127, 200, 254};
  ASSERT_EQ(w.size(), 9u * 257);
  std::vector<uint8_t> texels(256 * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i / 4);
  Texture point(ChannelFormat::U8, 4, 256, 1, 1, texels, true), linear(ChannelFormat::U8, 4, 256, 1, 1, texels);
  point.tex.sampler.srgb = linear.tex.sampler.srgb = true;
  size_t wrong = 0;
  for (int run = 0; run < 9; ++run)
    for (int a = 0; a < 256; ++a) {
      const uint32_t got = run == 0 ? point.at(float(a) + 0.5f, 0.5f)[0] : linear.at(between(pairs[run - 1], a), 0.5f)[0];
      const uint32_t want = w[size_t(run) * 257 + 1 + size_t(a)];
      if (got != want && wrong++ < 4) ADD_FAILURE() << "run " << run << ", " << a << ": H200 " << std::hex << want << ", ptxvm " << got;
    }
  std::printf("sRGB table and blends: %zu of %d differ from the H200's\n", wrong, 9 * 256);
  EXPECT_EQ(wrong, 0u);
}

// srgb_quantum.bin.xz: texel 2k holds k in every channel, texel 2k + 1 (1, 5, 20, 0), blended at
// weights 1..255 (uint32 65,280, then the float4 results, k-major).
TEST(TextureFilterWeights, SrgbQuantaMatchTheH200) {
  const std::vector<uint32_t> w = words("srgb_quantum.bin.xz");
  ASSERT_EQ(w.size(), 1u + 4 * 65280);
  const uint8_t second[4] = {1, 5, 20, 0};
  std::vector<uint8_t> texels(512 * 4);
  for (int k = 0; k < 256; ++k)
    for (int c = 0; c < 4; ++c) texels[size_t(8 * k + c)] = uint8_t(k), texels[size_t(8 * k + 4 + c)] = second[c];
  const size_t wrong = row_misses(row(texels, false, true), &w[1], 1, "sRGB quantum");
  std::printf("sRGB quanta: %zu of %u channels differ from the H200's\n", wrong, 4 * 65280);
  EXPECT_EQ(wrong, 0u);
}

}  // namespace
}  // namespace ptxvm::texture
