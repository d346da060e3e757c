// Replays the warp-specialized cluster GEMM recorded on an H100 by tests/hw/cluster_gemm: CTAs in
// clusters of two, a producer warp multicasting A through TMA into both CTAs and loading B, two
// consumer warpgroups running wgmma from a 4-stage mbarrier ring whose "empty" barriers both CTAs'
// consumers release remotely (mapa + mbarrier.arrive.release.cluster.shared::cluster), setmaxnreg,
// cluster barriers at start and end. Every output word must be the GPU's, launched on one host
// thread and on two.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/cluster_gemm/problem.h"
#include "../sem/hw_records.h"
#include "harness.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::test {
namespace {

namespace gemm = ptxvm_hw_cluster_gemm;

std::string hw_dir() { return (std::filesystem::path(__FILE__).parent_path() / "../hw/cluster_gemm").string(); }

// The map of `f` over the operand at `address`, as ptxvm's encoder builds it.
KernelArg map_of(const gemm::TensorMapFields& f, uint64_t address) {
  units::tma::TensorMap m;
  m.type = static_cast<units::tma::DataType>(f.data_type);
  m.rank = f.rank;
  m.address = address;
  for (unsigned i = 0; i < 2; ++i) m.dims[i] = f.dims[i], m.box[i] = f.box[i], m.element_strides[i] = f.element_strides[i];
  m.strides[0] = f.strides[0];
  m.swizzle = static_cast<units::tma::Swizzle>(f.swizzle);
  EXPECT_EQ(units::tma::validate(m), "");
  const auto bytes = units::tma::encode(m);
  KernelArg a;
  a.bytes.assign(bytes.begin(), bytes.end());
  return a;
}

TEST(ClusterGemmHardware, WarpSpecializedMulticastGemmIsTheH100s) {  // §2.2.2, §9.7.15, §9.7.9.25.5.2
  std::ifstream f(hw_dir() + "/gemm.ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  Harness h;
  h.load(ss.str());
  const std::vector<Recorded> records = read_records(hw_dir() + "/gemm.bin.xz");
  ASSERT_EQ(records.size(), gemm::kNumLaunches);
  for (const Recorded& rec : records) {
    const gemm::Launch* l = nullptr;
    for (const gemm::Launch& c : gemm::kLaunches)
      if (rec.insn == c.name) l = &c;
    ASSERT_NE(l, nullptr) << rec.insn;
    const uint64_t a = h.buffer(gemm::input_a(*l)), b = h.buffer(gemm::input_b(*l));
    unsigned grid[3];
    gemm::grid_of(*l, grid);
    for (unsigned threads : {1u, 2u}) {
      const uint64_t c = h.buffer(std::vector<uint32_t>(size_t(l->m) * l->n, 0x7fc00000u));
      LaunchConfig cfg;
      cfg.grid = {grid[0], grid[1], grid[2]};
      cfg.block = {gemm::kThreads};
      cfg.cluster = {gemm::kClusterX, gemm::kClusterY, gemm::kClusterZ};
      cfg.shared_bytes = gemm::kDynamicSharedBytes;
      cfg.threads = threads;
      const LaunchResult r = h.module->launch(
          l->kernel, cfg, {map_of(gemm::map_a(*l), a), map_of(gemm::map_b(*l), b), arg(c), arg(l->m), arg(l->n), arg(l->k)});
      ASSERT_TRUE(r.ok) << rec.insn << ": " << r.error;
      const std::vector<uint32_t> got = h.read<uint32_t>(c, rec.out.size());
      const WordDiff d = diff_words(got, rec.out, "row", l->n);
      EXPECT_EQ(d.bad, 0u) << rec.insn << " on " << threads << " host threads: " << d.bad << " of " << got.size()
                           << " words differ" << d.first;
    }
  }
}

}  // namespace
}  // namespace ptxvm::test
