// Replays the tensor-core vectors recorded on an H200 (sm_90) by tests/hw/mma/record_mma.cu: the
// same kernels (tests/hw/mma/mma_kernels.ptx, one per instruction text of classes.inc) run on
// ptxvm over inputs regenerated from the same seeds, and every output word must equal the GPU's,
// bit for bit, under the default `sm90` tensor model. Seed 1 of each arithmetic text is what the
// model was fitted on; seeds 2 and 3 confirm it (tests/hw/mma/README.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/mma/classes.h"
#include "../hw/mma/inputs.h"
#include "../hw/mma/plan.h"
#include "harness.h"
#include "hw_records.h"

namespace ptxvm::test {
namespace {

using ptxvm_hw_mma::Class;
using ptxvm_hw_mma::kClasses;

std::string hw_dir() { return (std::filesystem::path(__FILE__).parent_path() / "../hw/mma").string(); }

void replay(const std::string& group) {
  std::ifstream f(hw_dir() + "/mma_kernels.ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string all = ss.str();
  std::map<std::string, const Class*> by_text;
  for (const Class& c : kClasses) by_text[c.text] = &c;
  const std::vector<Recorded> records = read_records(hw_dir() + "/" + group + ".bin.xz");
  ASSERT_FALSE(records.empty()) << group;
  size_t words = 0;
  for (const Recorded& rec : records) {
    const size_t sp = rec.insn.find(' ');
    const unsigned seed = unsigned(std::stoul(rec.insn.substr(0, sp)));
    const std::string text = rec.insn.substr(sp + 1);
    const Class* c = by_text.at(text);
    const ptxvm_hw_mma::Plan p = ptxvm_hw_mma::plan(c->tmpl, c->out_words);
    const std::vector<uint32_t> in = ptxvm_hw_mma::class_inputs(
        c->in_words, c->block_words, c->operands, ptxvm_hw_mma::seed_of(text, seed), p.warps);
    Harness h;
    std::string diags;
    h.module = h.dev.load_module(kernel_module(all, c->kernel), text, &diags);
    if (!h.module) {
      ADD_FAILURE() << text << ": does not load:\n" << diags;
      continue;
    }
    const uint64_t din = h.buffer(in.empty() ? std::vector<uint32_t>(1) : in);
    const uint64_t dout = h.buffer(std::vector<uint32_t>(rec.out.size(), 0xdeadbeef));
    const LaunchResult r = h.launch(c->kernel, {p.warps / 4, 1, 1}, {128, 1, 1}, {arg(din), arg(dout)}, 2);
    if (!r.ok) {
      ADD_FAILURE() << text << ": " << r.error;
      continue;
    }
    const std::vector<uint32_t> out = h.read<uint32_t>(dout, rec.out.size());
    const WordDiff d = diff_words(out, rec.out, "warp", out.size() / p.warps);
    words += out.size();
    EXPECT_EQ(d.bad, 0u) << "seed " << seed << " " << text << ": " << d.bad << " of " << out.size()
                         << " words differ" << d.first;
  }
  std::printf("%s: %zu records, %zu output words compared\n", group.c_str(), records.size(), words);
}

TEST(MmaHardware, MmaFloat) { replay("mma_float"); }
TEST(MmaHardware, MmaFp8) { replay("mma_fp8"); }
TEST(MmaHardware, MmaF64) { replay("mma_f64"); }
TEST(MmaHardware, MmaInt) { replay("mma_int"); }
TEST(MmaHardware, MmaSparse) { replay("mma_sp"); }
TEST(MmaHardware, WmmaMma) { replay("wmma_mma"); }
TEST(MmaHardware, Layouts) { replay("layouts"); }

}  // namespace
}  // namespace ptxvm::test
