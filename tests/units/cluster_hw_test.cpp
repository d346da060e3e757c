// Replays the cluster launches recorded on an H100 by tests/hw/cluster (record_cluster.cu): the
// same PTX (cluster_kernels.ptx, nvcc's for cluster_kernels.cu) runs on ptxvm with the same
// inputs, launch shapes and tensor maps (ptxvm's encoder), on one host thread and on two, and
// every data word must be the GPU's: cluster special registers, DSMEM loads/stores/atomics through
// mapa and generic map_shared_rank pointers, remote mbarrier hand-offs, st.async, red.async,
// multicast and shared->shared bulk copies, multicast TMA. Launches the driver refuses, ptxvm
// refuses; accesses outside the cluster the GPU stops, ptxvm reports.
//
// Shared addresses are compared bit for bit: ptxvm forms them as the H100 does (rank in bits
// 31:24, user shared memory from 0x400, mem::cluster_shared_address). Only the high halves of
// generic shared addresses are not: the H100 picks its shared window's base per process
// (tests/hw/cluster/README.md), so those words must be one value in each record, not the GPU's.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/cluster/launches.h"
#include "../sem/hw_records.h"
#include "harness.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::test {
namespace {

namespace hw = ptxvm_hw_cluster;

std::string hw_dir() { return (std::filesystem::path(__FILE__).parent_path() / "../hw/cluster").string(); }

KernelArg map_of(const hw::TensorMap& f, uint64_t address) {
  units::tma::TensorMap m;
  m.type = static_cast<units::tma::DataType>(f.type);
  m.rank = f.rank;
  m.address = address;
  for (unsigned i = 0; i < f.rank; ++i) m.dims[i] = f.dims[i], m.box[i] = f.box[i], m.element_strides[i] = f.element_strides[i];
  for (unsigned i = 0; i + 1 < f.rank; ++i) m.strides[i] = f.strides[i];
  m.swizzle = static_cast<units::tma::Swizzle>(f.swizzle);
  EXPECT_EQ(units::tma::validate(m), "");
  const auto bytes = units::tma::encode(m);
  KernelArg a;
  a.bytes.assign(bytes.begin(), bytes.end());
  return a;
}

// The words of a cluster_ids record that hold the high half of a generic shared address: per
// thread, header words 24 and 26 and words 3 and 6 of each rank's.
std::set<size_t> window_words(const hw::Launch& l, size_t words) {
  std::set<size_t> at;
  const size_t per_thread = words / (hw::volume(l.grid) * hw::volume(l.block));
  for (size_t base = 0; base < words; base += per_thread) {
    for (size_t w : {24, 26}) at.insert(base + w);
    for (size_t r = hw::kIdsHeader; r < per_thread; r += hw::kIdsPerRank)
      for (size_t w : {3, 6}) at.insert(base + r + w);
  }
  return at;
}

TEST(ClusterHardware, RecordedLaunchesGiveTheH100sWords) {  // §2.2.2-2.2.3, §5.1.7, §9.7.9.23-24
  std::ifstream f(hw_dir() + "/cluster_kernels.ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::vector<Recorded> records = read_records(hw_dir() + "/cluster.bin.xz");
  ASSERT_EQ(records.size(), hw::kLaunchCount);
  size_t compared = 0, launches = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const Recorded& rec = records[i];
    const hw::Launch& l = hw::kLaunches[i];
    ASSERT_EQ(rec.insn, l.name);
    // Not compared: ub_mapa_range (ranks outside the cluster: undefined, and ptxvm reports them).
    if (l.expect == hw::kUndefined) continue;
    for (unsigned threads : {1u, 2u}) {
      Harness h;
      h.load(kernel_module(ss.str(), l.kernel));
      const uint64_t in = h.buffer(hw::inputs(l));
      const uint64_t out = h.buffer(std::vector<uint32_t>(l.out_words, 0xdeadbeefu));
      LaunchConfig c;
      c.grid = {l.grid.x, l.grid.y, l.grid.z};
      c.block = {l.block.x, l.block.y, l.block.z};
      if (hw::volume(l.cluster)) {
        c.cluster = {l.cluster.x, l.cluster.y, l.cluster.z};
        c.explicit_cluster = true;
      }
      c.non_portable_cluster = l.non_portable;
      c.shared_bytes = l.dynamic_smem;
      c.threads = threads;
      c.step_limit = 50'000'000;
      std::vector<KernelArg> args{arg(in), arg(out), arg(l.param)};
      if (l.has_map) args.insert(args.begin(), map_of(l.map, in));
      const LaunchResult r = h.module->launch(l.kernel, c, args);
      ++launches;
      if (l.expect == hw::kLaunchError) {
        EXPECT_FALSE(r.ok) << l.name << ": the driver refuses this launch";
        EXPECT_FALSE(r.guest_fault) << l.name << ": refused at launch, not faulted: " << r.error;
        continue;
      }
      if (l.expect == hw::kFault) {
        EXPECT_FALSE(r.ok) << l.name << ": the H100 stops this kernel";
        EXPECT_TRUE(r.guest_fault) << l.name << ": " << r.error;
        continue;
      }
      ASSERT_TRUE(r.ok) << l.name << ": " << r.error;
      std::vector<uint32_t> got = h.read<uint32_t>(out, l.out_words);
      ASSERT_EQ(got.size(), rec.out.size()) << l.name;
      std::vector<uint64_t> gpu = rec.out;
      if (std::string(l.kernel).rfind("cluster_ids", 0) == 0) {
        const std::set<size_t> window = window_words(l, got.size());
        const uint32_t base = got[*window.begin()];
        for (size_t w : window) {
          EXPECT_EQ(got[w], base) << l.name << " word " << w << ": one shared window";
          got[w] = uint32_t(gpu[w]);
        }
      }
      const WordDiff d = diff_words(got, gpu);
      compared += got.size();
      EXPECT_EQ(d.bad, 0u) << l.name << " on " << threads << " host threads: " << d.bad << " of " << got.size()
                           << " words differ" << d.first;
    }
  }
  std::printf("cluster: %zu launches, %zu words compared\n", launches, compared);
}

}  // namespace
}  // namespace ptxvm::test
