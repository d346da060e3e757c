// Replays the TMA probes recorded on an H200 by tests/hw/tma/probes/probe.cu (interleaved maps,
// PTX §5.5.6; .im2col_no_offs stores and reductions, §9.7.9.25.5.2): the same kernels
// (probe.ptx) run on ptxvm with maps from ptxvm's encoder, from the fields the recorder gave
// cuTensorMapEncodeTiled/Im2col. A load must complete its mbarrier phase at exactly the byte
// count the GPU's copy completed it at (the largest count that completed there) and leave the
// GPU's shared-memory image, every byte; a store or reduction must leave the GPU's global image;
// a launch the GPU stopped must stop as a guest fault.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/tma/probes/probes.h"
#include "../sem/hw_records.h"
#include "harness.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::test {
namespace {

std::string hw_dir() { return (std::filesystem::path(__FILE__).parent_path() / "../hw/tma/probes").string(); }

std::vector<uint32_t> words_of(const std::string& hex) {
  std::vector<uint32_t> w;
  for (size_t i = 0; i + 8 <= hex.size(); i += 8) w.push_back(uint32_t(std::stoul(hex.substr(i, 8), nullptr, 16)));
  return w;
}

TEST(TmaHardware, ProbedCopies) {  // §5.5.6, §9.7.9.25.5.2
  std::ifstream f(hw_dir() + "/probe.ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  Harness h;
  h.load(ss.str());
  std::map<std::string, const Probe*> by_name;
  for (const Probe& p : kProbes) by_name[p.name] = &p;
  std::istringstream lines(read_xz(hw_dir() + "/probes.txt.xz"));
  size_t launches = 0, words = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, status, flags, image;
    unsigned set;
    fields >> name >> set >> status >> flags >> image;
    const Probe& p = *by_name.at(name);
    const std::string what = name + " " + std::to_string(set);
    const bool im2col = p.dir == 'I' || p.dir == 'J' || p.dir == 'K';
    const size_t tensor_bytes = p.dims[p.rank - 1] * p.strides[p.rank - 2] + 4096;
    std::vector<uint32_t> initial(tensor_bytes / 4);
    for (size_t i = 0; i < initial.size(); ++i) initial[i] = p.dir == 'S' || p.dir == 'J' ? 0x5a5a5a5au : uint32_t(i);
    const uint64_t tensor = h.buffer(initial);
    units::tma::TensorMap m;
    m.type = static_cast<units::tma::DataType>(p.type);
    m.rank = p.rank;
    m.address = tensor;
    for (unsigned i = 0; i < 5; ++i) m.dims[i] = p.dims[i], m.box[i] = p.box[i], m.element_strides[i] = p.estr[i];
    for (unsigned i = 0; i < 4; ++i) m.strides[i] = p.strides[i];
    m.interleave = static_cast<units::tma::Interleave>(p.interleave);
    m.swizzle = static_cast<units::tma::Swizzle>(p.swizzle);
    m.oob = static_cast<units::tma::OobFill>(p.oob);
    if (im2col) {
      m.im2col = true;
      for (unsigned i = 0; i < 3; ++i) m.lower[i] = p.lower[i], m.upper[i] = p.upper[i];
      m.channels = p.channels;
      m.pixels = p.pixels;
    }
    ASSERT_EQ(units::tma::validate(m), "") << what << ": cuTensorMapEncodeTiled accepted this map";
    const auto encoded = units::tma::encode(m);
    KernelArg map;
    map.bytes.assign(encoded.begin(), encoded.end());
    std::vector<KernelArg> args{map};
    const int* c = p.coords[set];
    LaunchConfig config;
    config.grid = {1};
    config.block = {128};
    config.shared_bytes = 4096 + 1024;
    config.step_limit = 10'000'000;
    const std::string rank = std::to_string(p.rank);
    std::string kernel;
    uint64_t out = 0, done = 0;
    const bool load = p.dir == 'L' || p.dir == 'I';
    if (load) {
      // the byte count the copy completed the GPU's phase at: the largest of the expected counts
      // 16, 32, ... that completed (smaller ones complete when partial transactions sum to them)
      const std::vector<uint32_t> completed = words_of(flags);
      uint32_t bytes = 0;
      for (size_t k = 0; k < completed.size(); ++k)
        if (completed[k] == 1) bytes = uint32_t(16 * (k + 1));
      out = h.buffer(std::vector<uint32_t>(1024, 0xdeadbeef));
      done = h.buffer(std::vector<uint32_t>{7});
      for (int i = 0; i < 5; ++i) args.push_back(arg(c[i]));
      for (int i = 0; i < 3; ++i) args.push_back(arg(static_cast<uint16_t>(p.offsets[set][i])));
      for (uint32_t v : {bytes, 0u}) args.push_back(arg(v));  // expect_step, image_cta
      args.push_back(arg(done));
      args.push_back(arg(out));
      kernel = "_Z10load_probeILi" + rank + (p.dir == 'I' ? "ELb1E" : "ELb0E") + "Ev14CUtensorMap_stiiiiitttjjPjS1_";
    } else {
      for (int i = 0; i < 4; ++i) args.push_back(arg(c[i]));
      const bool reduce = p.dir == 'R' || p.dir == 'K';
      kernel = (im2col ? "_Z18im2col_store_probeILi" : "_Z11store_probeILi") + rank + (reduce ? "ELb1E" : "ELb0E") +
               "Ev14CUtensorMap_stiiii";
    }
    const LaunchResult r = h.module->launch(kernel, config, args);
    ++launches;
    if (status != "ok") {  // the GPU stopped the launch: ptxvm reports a guest fault
      EXPECT_FALSE(r.ok) << what << ": the GPU faults (" << status << ")";
      EXPECT_TRUE(r.guest_fault) << what << ": " << r.error;
      continue;
    }
    if (!r.ok) {
      ADD_FAILURE() << what << ": " << r.error;
      continue;
    }
    const std::vector<uint32_t> gpu = words_of(image);
    const std::vector<uint32_t> got = h.read<uint32_t>(load ? out : tensor, gpu.size());
    if (load) {
      EXPECT_EQ(h.read<uint32_t>(done, 1)[0], 1u) << what << ": the phase completes at the GPU's count";
    }
    const WordDiff d = diff_words(got, {gpu.begin(), gpu.end()});
    words += got.size();
    EXPECT_EQ(d.bad, 0u) << what << ": " << d.bad << " of " << got.size() << " words differ" << d.first;
  }
  EXPECT_EQ(launches, 272u);
  std::printf("tma probes: %zu launches, %zu words compared\n", launches, words);
}

}  // namespace
}  // namespace ptxvm::test
