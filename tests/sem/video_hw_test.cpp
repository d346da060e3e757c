// Replays the video-instruction vectors recorded on an H200 (sm_90) by
// tests/hw/video/record_video.cu: each recorded text runs through ptxvm in the same kernel
// (inputs.h's kernel()) over the operands regenerated from the same seed, and every result
// must equal the GPU's bit for bit.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "../hw/video/inputs.h"
#include "harness.h"
#include "hw_records.h"

namespace ptxvm::test {
namespace {

using namespace ptxvm_hw_video;

std::string hw_file() {
  return (std::filesystem::path(__FILE__).parent_path() / "../hw/video/video.bin.xz").string();
}

// Replays the recorded texts whose mnemonic starts with one of `prefixes`.
void replay(std::initializer_list<const char*> prefixes) {
  static const std::vector<Recorded> recorded = read_records(hw_file());
  ASSERT_FALSE(recorded.empty()) << "no vectors in " << hw_file();
  const Operands o = operands();
  std::vector<uint32_t> in(o.a);
  in.insert(in.end(), o.b.begin(), o.b.end());
  in.insert(in.end(), o.c.begin(), o.c.end());
  static const int show =
      std::getenv("PTXVM_HW_SHOW") ? std::atoi(std::getenv("PTXVM_HW_SHOW")) : 4;
  size_t texts = 0;
  for (const Recorded& v : recorded) {
    const std::string mnemonic = v.insn.substr(0, v.insn.find_first_of(". "));
    bool mine = false;
    for (const char* p : prefixes) mine |= mnemonic == p;
    if (!mine) continue;
    ++texts;
    ASSERT_EQ(v.bytes, 4u);
    ASSERT_EQ(v.out.size(), kCount);
    Harness h;
    h.load(kernel(v.insn));
    const uint64_t din = h.buffer(in), dout = h.buffer(std::vector<uint32_t>(kCount));
    const auto res = h.launch("k", Dim3{static_cast<unsigned>((kCount + 255) / 256), 1, 1},
                              Dim3{256, 1, 1}, {arg(dout), arg(din)});
    ASSERT_TRUE(res.ok) << v.insn << ": " << res.error;
    const std::vector<uint32_t> got = h.read<uint32_t>(dout, kCount);
    size_t bad = 0;
    std::string first;
    for (size_t i = 0; i < kCount; ++i) {
      if (got[i] == v.out[i]) continue;
      if (bad++ < static_cast<size_t>(show)) {
        char buf[120];
        std::snprintf(buf, sizeof buf, " [a=%08x b=%08x c=%08x gpu=%08x ours=%08x]", o.a[i], o.b[i],
                      o.c[i], static_cast<unsigned>(v.out[i]), got[i]);
        first += buf;
      }
    }
    EXPECT_EQ(bad, 0u) << v.insn << ": " << bad << " of " << kCount << first;
  }
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

} // namespace
} // namespace ptxvm::test
