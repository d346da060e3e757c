// Replays the TMA vectors recorded on an H100 (sm_90a) by tests/hw/tma/record_tma.cu: the same
// kernels (tests/hw/tma/tma_kernels.ptx) run on ptxvm with tensor maps built by ptxvm's encoder
// (src/units/tma/tensor_map.h) from the fields the recorder gave cuTensorMapEncodeTiled, and every
// recorded word — a load's shared-memory image, a store's global image — must be the GPU's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/tma/texts.h"
#include "../sem/hw_records.h"
#include "harness.h"
#include "units/tma/box.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::test {
namespace {

using ptxvm_hw_tma::Text;

std::string hw_dir() { return (std::filesystem::path(__FILE__).parent_path() / "../hw/tma").string(); }

// The map of text t over the tensor at `address`, with the fields the recorder gave cuTensorMapEncode*.
units::tma::TensorMap fields_of(const Text& t, uint64_t address) {
  units::tma::TensorMap m;
  m.type = static_cast<units::tma::DataType>(t.type);
  m.rank = t.rank;
  m.address = address;
  for (unsigned i = 0; i < 5; ++i) m.dims[i] = t.dims[i], m.box[i] = t.box[i], m.element_strides[i] = t.element_strides[i];
  for (unsigned i = 0; i < 4; ++i) m.strides[i] = t.strides[i];
  m.swizzle = static_cast<units::tma::Swizzle>(t.swizzle);
  m.oob = static_cast<units::tma::OobFill>(t.oob);
  m.interleave = static_cast<units::tma::Interleave>(t.interleave);
  if (t.dir == 'I') {
    m.im2col = true;
    for (unsigned i = 0; i < 3; ++i) m.lower[i] = t.lower[i], m.upper[i] = t.upper[i];
    m.channels = t.channels;
    m.pixels = t.pixels;
  }
  return m;
}

// Replays the records of `file`; an interleaved load's completion flag is not compared (its
// mbarrier expects the box's bytes, which an interleaved copy does not move: whether the phase
// completes is then a race on the GPU, tests/hw/tma/probes/README.md; ProbedCopies
// compares the count), and a launch whose copy
// reads past the tensor's allocation (the GPU reads whatever lies there) must stop as a guest
// fault naming that read.
void replay(const std::string& file) {
  std::ifstream f(hw_dir() + "/tma_kernels.ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  // An interleaved load's kernel expects the box's bytes; it expects what the copy moves here
  // (box.h), so that its waits end at once rather than after 10^6 tries.
  std::string ptx = ss.str();
  for (const Text& t : ptxvm_hw_tma::kTexts) {
    if (!t.interleave || !ptxvm_hw_tma::loads(t)) continue;
    units::tma::Box box;
    box.map = fields_of(t, 0);
    const std::string expect = "expect_tx.shared.b64 _, [bar], ";
    const size_t at = ptx.find(expect, ptx.find(".visible .entry " + std::string(t.kernel) + "(")) + expect.size();
    ptx.replace(at, ptx.find(';', at) - at, std::to_string(box.bytes()));
  }
  Harness h;
  h.load(ptx);
  std::map<std::string, const Text*> by_name;
  for (const Text& t : ptxvm_hw_tma::kTexts) by_name[t.name] = &t;
  const std::vector<Recorded> records = read_records(hw_dir() + "/" + file);
  ASSERT_FALSE(records.empty());
  size_t words = 0, past_end = 0;
  for (const Recorded& rec : records) {
    const size_t sp = rec.insn.find(' ');
    const unsigned set = unsigned(std::stoul(rec.insn.substr(0, sp)));
    const Text& t = *by_name.at(rec.insn.substr(sp + 1));
    const uint64_t tensor = h.buffer(ptxvm_hw_tma::tensor_image(t)), in = h.buffer(ptxvm_hw_tma::shared_source(t));
    const uint64_t out = h.buffer(std::vector<uint32_t>(ptxvm_hw_tma::out_words(t), 0xdeadbeef));
    const units::tma::TensorMap fields = fields_of(t, tensor);
    const std::string refused = units::tma::validate(fields);
    if (rec.bytes == 0) {  // cuTensorMapEncode* refused the map
      EXPECT_NE(refused, "") << rec.insn << ": the CUDA encoder refuses this map";
      continue;
    }
    EXPECT_EQ(refused, "") << rec.insn;
    const auto encoded = units::tma::encode(fields);
    KernelArg map;
    map.bytes.assign(encoded.begin(), encoded.end());
    std::vector<KernelArg> args{map, arg(in), arg(out)};
    for (unsigned i = 0; i < 5; ++i) args.push_back(arg(t.coords[set][i]));
    for (unsigned i = 0; i < 3; ++i) args.push_back(arg(static_cast<uint16_t>(t.offsets[set][i])));
    const LaunchResult r = h.launch(t.kernel, {1}, {128}, args);
    if (rec.out.empty()) {  // the GPU stopped this launch with an error: ptxvm reports a guest fault
      EXPECT_FALSE(r.ok) << rec.insn << ": the H100 faults";
      EXPECT_TRUE(r.guest_fault) << rec.insn << ": " << r.error;
      continue;
    }
    if (!r.ok && t.interleave && r.guest_fault && r.error.find("past the end of the") != std::string::npos) {
      ++past_end;
      continue;
    }
    if (!r.ok) {
      ADD_FAILURE() << rec.insn << ": " << r.error;
      continue;
    }
    const size_t n = std::min(rec.out.size(), ptxvm_hw_tma::compared_words(t) - (t.interleave && ptxvm_hw_tma::loads(t)));
    const std::vector<uint32_t> got = h.read<uint32_t>(ptxvm_hw_tma::loads(t) ? out : tensor, n);
    const WordDiff d = diff_words(got, {rec.out.begin(), rec.out.begin() + long(n)});
    words += got.size();
    EXPECT_EQ(d.bad, 0u) << rec.insn << ": " << d.bad << " of " << got.size() << " words differ" << d.first;
  }
  std::printf("%s: %zu records, %zu words compared, %zu copies reading past the tensor\n", file.c_str(), records.size(),
              words, past_end);
}

TEST(TmaHardware, TileLoadsAndStores) { replay("tma.bin.xz"); }  // §9.7.9.25.5.2, §5.5.3

// Interleaved maps (§5.5.6), the first recording (tests/hw/tma/probes.bin.xz): what
// cuTensorMapEncodeTiled refuses, and the images of the copies it accepts.
TEST(TmaHardware, InterleavedTexts) { replay("interleave.bin.xz"); }

}  // namespace
}  // namespace ptxvm::test
