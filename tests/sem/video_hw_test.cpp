// Replays the video-instruction vectors recorded on an H200 (sm_90) by
// tests/hw/video/record_video.cu: each recorded text runs through ptxvm in the same kernel
// (inputs.h's kernel()) over the operands regenerated from the same seed, and every result
// must equal the GPU's bit for bit.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../hw/video/inputs.h"
#include "hw_texts.h"

namespace ptxvm::test {
namespace {

using namespace ptxvm_hw_video;

// Replays the recorded texts whose mnemonic is one of `mnemonics`.
void replay(std::initializer_list<const char*> mnemonics) {
  static const std::vector<Recorded> recorded = read_records(
      (std::filesystem::path(__FILE__).parent_path() / "../hw/video/video.bin.xz").string());
  ASSERT_FALSE(recorded.empty()) << "no vectors in tests/hw/video/video.bin.xz";
  const Operands o = operands();
  std::vector<uint32_t> in(o.a);
  in.insert(in.end(), o.b.begin(), o.b.end());
  in.insert(in.end(), o.c.begin(), o.c.end());
  const size_t texts = replay_texts(recorded, mnemonics, in, kCount, kernel, [&](size_t i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "a=%08x b=%08x c=%08x", o.a[i], o.b[i], o.c[i]);
    return std::string(buf);
  });
  EXPECT_GT(texts, 0u);
  std::printf("[hw video] %zu texts, %zu values compared\n", texts, texts * kCount);
}

TEST(VideoHw, Shifts) {
  replay({"vshl", "vshr"});
}
TEST(VideoHw, Vmad) {
  replay({"vmad"});
}
TEST(VideoHw, Scalar) {
  replay({"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vset"});
}
TEST(VideoHw, Simd) {
  replay({"vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vset2", "vadd4", "vsub4",
          "vavrg4", "vabsdiff4", "vmin4", "vmax4", "vset4"});
}

}  // namespace
}  // namespace ptxvm::test
