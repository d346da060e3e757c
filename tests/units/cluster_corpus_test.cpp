// The corpus's cluster kernels (tests/corpus/cuda/cluster_dsmem.cu, nvcc's PTX for sm_100f and
// a debug build for sm_120f) run on ptxvm with results computed here exactly: a distributed
// histogram through cooperative groups' map_shared_rank atomics, neighbour reads across a 2x2
// cluster, the cluster special registers of a runtime-shaped cluster, and a reduction over the
// partial sums of eight CTAs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness.h"

namespace ptxvm::test {
namespace {

std::string corpus(const std::string& file) {
  std::ifstream f(std::filesystem::path(__FILE__).parent_path() / "../corpus/ptx" / file);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

LaunchConfig config(Dim3 grid, Dim3 block, unsigned threads, Dim3 cluster = {}, uint32_t shared = 0) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.cluster = cluster;
  c.explicit_cluster = cluster.x * cluster.y * cluster.z > 1;
  c.shared_bytes = shared;
  c.threads = threads;
  c.step_limit = 10'000'000;
  return c;
}

class ClusterCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(ClusterCorpus, KernelsGiveExactResults) {
  const bool fused = std::string(GetParam()).find(".G.") == std::string::npos;
  for (unsigned threads : {1u, 2u}) {
    Harness h;
    h.load(corpus(GetParam()));
    // cluster_histogram: __cluster_dims__(4, 1, 1), 64 bins split over the cluster's shared memory.
    const int n = 5000, nbins = 64;
    std::vector<int32_t> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 7919 + 13) % 1000;
    const uint64_t in_d = h.buffer(in), bins_d = h.buffer(std::vector<int32_t>(nbins, 0));
    LaunchResult r = h.module->launch("_Z17cluster_histogramPKiPiii", config({8}, {96}, threads, {}, 16 * 4),
                                      {arg(in_d), arg(bins_d), arg(n), arg(nbins)});
    ASSERT_TRUE(r.ok) << r.error;
    std::vector<int32_t> want(nbins, 0);
    for (int v : in) ++want[v % nbins];
    EXPECT_EQ(h.read<int32_t>(bins_d, nbins), want);

    // cluster_neighbors: __cluster_dims__(2, 2, 1) on a 4x2 grid of 128 threads.
    const uint64_t out_d = h.buffer(std::vector<float>(8 * 128, 0.f));
    r = h.module->launch("_Z17cluster_neighborsPf", config({4, 2}, {128}, threads), {arg(out_d)});
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<float> out = h.read<float>(out_d, 8 * 128);
    for (uint32_t by = 0; by < 2; ++by)
      for (uint32_t bx = 0; bx < 4; ++bx)
        for (uint32_t t = 0; t < 128; ++t) {
          const uint32_t cx = bx % 2, cy = by % 2, rank = cy * 2 + cx, next = (rank + 1) % 4;
          float v = static_cast<float>(next * 1000 + (t + 1) % 128) + static_cast<float>(cx);
          v += static_cast<float>(cy * 2);
          // nvcc -O3 fuses the last product and sum (fma.rn.f32); the -G build keeps mul.f32 and
          // add.f32, which ptxvm, like ptxas without optimization, does not contract
          const float rank_f = static_cast<float>(rank * 128 + t);
          v = fused ? std::fma(rank_f, 1e-3f, v) : v + rank_f * 1e-3f;
          EXPECT_EQ(out[(by * 4 + bx) * 128 + t], v) << bx << " " << by << " " << t;
        }

    // cluster_regs: a cluster of 4 given at launch, and none.
    for (uint32_t size : {4u, 1u}) {
      const uint64_t regs_d = h.buffer(std::vector<uint32_t>(8 * 5, 0));
      r = h.module->launch("_Z12cluster_regsPj", config({8}, {64}, threads, {size}), {arg(regs_d)});
      ASSERT_TRUE(r.ok) << r.error;
      const std::vector<uint32_t> regs = h.read<uint32_t>(regs_d, 8 * 5);
      for (uint32_t b = 0; b < 8; ++b) {
        const std::vector<uint32_t> got(regs.begin() + 5 * b, regs.begin() + 5 * b + 5);
        EXPECT_EQ(got, (std::vector<uint32_t>{b % size, size, b / size, 8 / size, size > 1})) << "CTA " << b;
      }
    }

    // cluster_reduce: __cluster_dims__(8, 1, 1); integer-valued floats, so every order sums exactly.
    const int m = 8 * 64 - 5;
    std::vector<float> values(m);
    float total = 0;
    for (int i = 0; i < m; ++i) total += values[i] = static_cast<float>(i % 17);
    const uint64_t v_d = h.buffer(values), sum_d = h.buffer(std::vector<float>(1, 0.f));
    r = h.module->launch("_Z14cluster_reducePKfPfi", config({16}, {64}, threads), {arg(v_d), arg(sum_d), arg(m)});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(h.read<float>(sum_d, 1)[0], total);
  }
}

INSTANTIATE_TEST_SUITE_P(Builds, ClusterCorpus,
                         ::testing::Values("cluster_dsmem.sm_100f.ptx", "cluster_dsmem.sm_120f.G.ptx"),
                         [](const auto& param) { return std::string(param.index == 0 ? "sm_100f" : "sm_120f_debug"); });

}  // namespace
}  // namespace ptxvm::test
