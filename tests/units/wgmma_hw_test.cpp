// Replays the warpgroup MMA vectors recorded on an H100 (sm_90a) by tests/hw/wgmma/record_wgmma.cu:
// the same kernels (tests/hw/wgmma/wgmma_kernels.ptx, one per text of texts.inc: an instruction and
// the shared-memory layouts of its operands) run on ptxvm over inputs regenerated from the same
// seeds, and every output word must equal the GPU's, bit for bit, under the default `sm90` tensor
// model. Seed 1 of each arithmetic text is what the model was fitted on; seeds 2 and 3 confirm it.
// wgmma_base: matrices starting inside a swizzle repeat, with various base offsets; wgmma_wg2: CTAs
// of two warpgroups, each running the instruction on its own operands.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/wgmma/texts.h"
#include "../sem/hw_records.h"
#include "harness.h"

namespace ptxvm::test {
namespace {

using ptxvm_hw_wgmma::kTexts;
using ptxvm_hw_wgmma::Text;

std::string hw_dir() { return (std::filesystem::path(__FILE__).parent_path() / "../hw/wgmma").string(); }

void replay(const std::string& group) {
  std::ifstream f(hw_dir() + "/wgmma_kernels.ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string all = ss.str();
  std::map<std::string, const Text*> by_text;
  for (const Text& t : kTexts) by_text[t.text] = &t;
  const std::vector<Recorded> records = read_records(hw_dir() + "/" + group + ".bin.xz");
  ASSERT_FALSE(records.empty()) << group;
  size_t words = 0;
  for (const Recorded& rec : records) {
    const size_t sp = rec.insn.find(' ');
    const unsigned seed = unsigned(std::stoul(rec.insn.substr(0, sp)));
    const std::string text = rec.insn.substr(sp + 1);
    const Text& t = *by_text.at(text);
    const std::vector<uint32_t> in = ptxvm_hw_wgmma::inputs(t, ptxvm_hw_wgmma::seed_of(text, seed));
    Harness h;
    std::string diags;
    h.module = h.dev.load_module(kernel_module(all, t.kernel), text, &diags);
    if (!h.module) {
      ADD_FAILURE() << text << ": does not load:\n" << diags;
      continue;
    }
    const uint64_t din = h.buffer(in);
    const uint64_t dout = h.buffer(std::vector<uint32_t>(rec.out.size(), 0xdeadbeef));
    const LaunchResult r = h.launch(t.kernel, {ptxvm_hw_wgmma::kCtas, 1, 1}, {t.threads, 1, 1}, {arg(din), arg(dout)}, 2);
    if (!r.ok) {
      ADD_FAILURE() << text << ": " << r.error;
      continue;
    }
    const std::vector<uint32_t> out = h.read<uint32_t>(dout, rec.out.size());
    const WordDiff d = diff_words(out, rec.out, "CTA", out.size() / ptxvm_hw_wgmma::kCtas);
    words += out.size();
    EXPECT_EQ(d.bad, 0u) << "seed " << seed << " " << text << ": " << d.bad << " of " << out.size()
                         << " words differ" << d.first;
  }
  std::printf("%s: %zu records, %zu output words compared\n", group.c_str(), records.size(), words);
}

TEST(WgmmaHardware, Float) { replay("wgmma_float"); }
TEST(WgmmaHardware, Fp8) { replay("wgmma_fp8"); }
TEST(WgmmaHardware, Int) { replay("wgmma_int"); }
TEST(WgmmaHardware, Layouts) { replay("wgmma_layout"); }
TEST(WgmmaHardware, Sparse) { replay("wgmma_sp"); }
TEST(WgmmaHardware, BaseOffset) { replay("wgmma_base"); }
TEST(WgmmaHardware, TwoWarpgroups) { replay("wgmma_wg2"); }

}  // namespace
}  // namespace ptxvm::test
