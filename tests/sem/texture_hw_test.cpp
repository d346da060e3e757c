// Replays the texture and surface vectors recorded on an H100 (sm_90) by
// tests/hw/texture/record_texture.cu: the same kernels (tests/hw/texture/texture_kernels.ptx) run
// on ptxvm over the same images, samplers and lookups (tests/hw/texture/cases.h), built with
// ptxvm's texture and surface objects (include/ptxvm/texture.h), and every recorded word must be
// the GPU's. PTX §9.7.10, §9.7.11, §5.3 (001_23fdd5978b24a3ed.txt).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/texture/cases.h"
#include "harness.h"
#include "hw_records.h"

namespace ptxvm::test {
namespace {

namespace hw = ptxvm_hw_texture;

std::string hw_dir() { return (std::filesystem::path(__FILE__).parent_path() / "../hw/texture").string(); }

TextureResource resource_of(const hw::Image& im) {
  TextureResource r;
  r.kind = static_cast<TextureResource::Kind>(im.resource);
  r.format = static_cast<ChannelFormat>(im.format);
  r.channels = static_cast<uint8_t>(im.channels);
  r.width = im.width;
  r.height = im.height;
  r.depth = im.depth;
  r.layered = im.flags & hw::kLayered;
  r.cubemap = im.flags & hw::kCubemap;
  r.surface = im.flags & hw::kSurfaceLdst;
  r.levels = im.levels;
  r.pitch = im.pitch;
  r.bytes = hw::image_bytes(im);
  return r;
}

TextureSampler sampler_of(const hw::Sampler& s) {
  TextureSampler t;
  for (unsigned i = 0; i < 3; ++i) t.address[i] = static_cast<AddressMode>(s.address[i]);
  t.filter = static_cast<FilterMode>(s.filter);
  t.mipmap_filter = static_cast<FilterMode>(s.mip_filter);
  t.read_as_integer = s.flags & hw::kReadAsInteger;
  t.normalized_coordinates = s.flags & hw::kNormalized;
  t.srgb = s.flags & hw::kSrgb;
  t.seamless_cubemap = s.flags & hw::kSeamlessCubemap;
  t.exact_trilinear = s.flags & hw::kNoTrilinearOptimization;
  for (unsigned i = 0; i < 4; ++i) t.border_color[i] = std::bit_cast<float>(s.border[i]);
  t.max_anisotropy = s.max_anisotropy;
  t.mipmap_level_bias = s.level_bias;
  t.min_mipmap_level_clamp = s.min_level_clamp;
  t.max_mipmap_level_clamp = s.max_level_clamp;
  return t;
}

// The image's texels in device memory (a pitch-linear image with its rows `pitch` apart), and
// its resource pointing there.
TextureResource upload(Harness& h, const hw::Image& im, const std::vector<uint8_t>& texels) {
  TextureResource r = resource_of(im);
  if (im.resource == hw::kResPitch2D) {
    const size_t row = size_t(im.width) * hw::texel_bytes(im), rows = std::max(1u, im.height);
    std::vector<uint8_t> pitched(size_t(im.pitch) * rows, 0);
    for (size_t y = 0; y < rows; ++y) std::copy_n(texels.begin() + long(y * row), row, pitched.begin() + long(y * im.pitch));
    r.address = h.buffer(pitched);
  } else {
    r.address = h.buffer(texels);
  }
  return r;
}

struct Tally {
  size_t records = 0, words = 0, bad_words = 0;
  std::map<std::string, size_t> differing;  // case name -> words that differ
  std::map<std::string, std::string> details;  // case name -> its first differing lookups
};

// Each kernel as a module of its own, loaded at first use, so that one that ptxvm refuses fails
// its cases only.
struct Kernels {
  std::string all;
  std::map<std::string, std::unique_ptr<Module>> loaded;
  Module* get(Device& dev, const std::string& name, std::string& diags) {
    auto it = loaded.find(name);
    if (it == loaded.end()) it = loaded.emplace(name, dev.load_module(kernel_module(all, name), name, &diags)).first;
    return it->second.get();
  }
};

LaunchResult launch(Module& m, const std::string& kernel, unsigned blocks, std::vector<KernelArg> args) {
  LaunchConfig c;
  c.grid = {blocks};
  c.block = {128};
  c.step_limit = 10'000'000;
  return m.launch(kernel, c, args);
}

// One case's run on ptxvm against its record; the words ptxvm produced.
template <typename Case>
void replay(Harness& h, Kernels& kernels, const Case& c, const Recorded& rec, Tally& t) {
  const hw::Kernel& k = hw::kernel(c.kernel);
  std::string diags;
  Module* m = kernels.get(h.dev, k.name, diags);
  if (!m) {
    ADD_FAILURE() << c.name << ": " << diags;
    return;
  }
  const std::vector<uint8_t> texels = hw::texels(c.image, c.name);
  uint64_t handle = 0;
  TextureResource r = upload(h, c.image, texels);
  std::string refused;
  try {
    if constexpr (std::is_same_v<Case, hw::TexCase>) handle = h.dev.create_texture(r, sampler_of(c.sampler));
    else handle = h.dev.create_surface(r);
  } catch (const std::invalid_argument& e) {
    refused = e.what();
  }
  if (rec.insn.ends_with(" refused") && (c.image.flags & (hw::kTextureGather | hw::kDepthTexture))) return;
  if (rec.insn.ends_with(" refused")) {
    EXPECT_NE(refused, "") << c.name << ": the CUDA driver refuses this object (CUresult " << rec.out.at(0) << ")";
    return;
  }
  if (!refused.empty()) {
    ADD_FAILURE() << c.name << ": ptxvm refuses what the driver accepts: " << refused;
    return;
  }
  const std::vector<uint32_t> lookups = hw::lookups(c);
  const size_t n = lookups.size() / 16;
  std::vector<uint64_t> got;
  bool faulted = false;
  if (!hw::stores(k)) {
    const uint64_t coords = h.buffer(lookups);
    const uint64_t out = h.buffer(std::vector<uint32_t>(n * k.result_words, 0xdeadbeef));
    const LaunchResult res = launch(*m, k.name, unsigned((n + 127) / 128), {arg(handle), arg(coords), arg(out), arg(uint32_t(n))});
    faulted = !res.ok;
    if (res.ok)
      for (uint32_t w : h.read<uint32_t>(out, n * k.result_words)) got.push_back(w);
    else if (!rec.out.empty())
      ADD_FAILURE() << c.name << ": " << res.error;
  } else {
    const size_t words = (texels.size() + 3) / 4;
    for (size_t i = 0; i < n && !faulted; ++i) {
      const uint64_t coords = h.buffer(std::vector<uint32_t>(lookups.begin() + long(16 * i), lookups.begin() + long(16 * i + 16)));
      const LaunchResult res = launch(*m, k.name, 1, {arg(handle), arg(coords), arg(uint64_t{0}), arg(uint32_t{1})});
      if (!res.ok) {
        faulted = true;
        if (!rec.out.empty()) ADD_FAILURE() << c.name << " lookup " << i << ": " << res.error;
        break;
      }
      std::vector<uint8_t> image = h.read<uint8_t>(r.address, texels.size());
      image.resize(words * 4, 0);
      for (size_t w = 0; w < words; ++w) {
        uint32_t v;
        std::memcpy(&v, image.data() + 4 * w, 4);
        got.push_back(v);
      }
    }
  }
  ++t.records;
  if (rec.out.empty()) {  // the GPU stopped this launch with an error
    EXPECT_TRUE(faulted) << c.name << ": the H100 faults";
    return;
  }
  if (faulted) return;
  t.words += got.size();
  size_t bad = 0, first = SIZE_MAX;
  for (size_t i = 0; i < std::min(got.size(), rec.out.size()); ++i)
    if (got[i] != rec.out[i]) bad += 1, first = std::min(first, i);
  // PTXVM_TEXTURE_DUMP=<case name>: every lookup of that case, ptxvm's words and the H100's.
  if (const char* dump = std::getenv("PTXVM_TEXTURE_DUMP"); dump && c.name == dump) {
    const size_t per = hw::stores(k) ? (texels.size() + 3) / 4 : k.result_words;
    for (size_t at = 0; at < n; ++at) {
      std::printf("%zu:", at);
      for (unsigned j = 0; j < 16; ++j) std::printf(" %08x", lookups[16 * at + j]);
      std::printf(" |");
      for (size_t j = at * per; j < (at + 1) * per && j < got.size() && j < rec.out.size(); ++j)
        if (!hw::stores(k) || got[j] != rec.out[j])
          std::printf(" [%zu] %08x/%08x", j - at * per, unsigned(got[j]), unsigned(rec.out[j]));
      std::printf("\n");
    }
  }
  if (got.size() != rec.out.size() || bad) {
    t.differing[c.name] = bad + (got.size() > rec.out.size() ? got.size() - rec.out.size() : rec.out.size() - got.size());
    t.bad_words += t.differing[c.name];
    if (std::getenv("PTXVM_TEXTURE_DUMP")) return;
    std::ostringstream s;
    s << c.name << " (" << k.name << "): " << bad << " of " << rec.out.size() << " words differ" << std::hex;
    const size_t per = hw::stores(k) ? (texels.size() + 3) / 4 : k.result_words;
    size_t shown = 0;
    for (size_t at = 0; at * per < std::min(got.size(), rec.out.size()) && shown < 2; ++at) {
      bool differs = false;
      for (size_t j = at * per; j < (at + 1) * per && j < got.size(); ++j) differs |= got[j] != rec.out[j];
      if (!differs) continue;
      ++shown;
      s << "\n  lookup " << std::dec << at << std::hex << ":";
      for (unsigned j = 0; j < 16 && !hw::stores(k); ++j) s << " " << lookups[16 * at + j];
      s << "\n    ptxvm";
      for (size_t j = at * per; j < (at + 1) * per && j < got.size(); ++j) s << " " << got[j];
      s << "\n    H100 ";
      for (size_t j = at * per; j < (at + 1) * per && j < rec.out.size(); ++j) s << " " << rec.out[j];
    }
    t.details[c.name] = s.str();
  }
}

TEST(TextureHardware, EveryCaseMatchesTheH100) {
  std::ifstream f(hw_dir() + "/texture_kernels.ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  Harness h;
  Kernels kernels{ss.str(), {}};
  std::map<std::string, hw::TexCase> textures;
  std::map<std::string, hw::SurfCase> surfaces;
  for (const hw::TexCase& c : hw::texture_cases()) textures.emplace(c.name, c);
  for (const hw::SurfCase& c : hw::surface_cases()) surfaces.emplace(c.name, c);
  const std::vector<Recorded> records = read_records(hw_dir() + "/texture.bin.xz");
  ASSERT_FALSE(records.empty());
  Tally t;
  for (const Recorded& rec : records) {
    const std::string name = rec.insn.ends_with(" refused") ? rec.insn.substr(0, rec.insn.size() - 8) : rec.insn;
    if (auto it = textures.find(name); it != textures.end()) replay(h, kernels, it->second, rec, t);
    else if (auto su = surfaces.find(name); su != surfaces.end()) replay(h, kernels, su->second, rec, t);
    else ADD_FAILURE() << "a record of no case: " << rec.insn;
  }
  std::printf("texture: %zu records, %zu words compared; %zu records (%zu words) differ\n", t.records, t.words,
              t.differing.size(), t.bad_words);
  for (const auto& [name, words] : t.differing) ADD_FAILURE() << name << ": " << words << " words differ\n" << t.details[name];
}

}  // namespace
}  // namespace ptxvm::test
