// The launch rules of runtime/launch_limits.h through the public API: each violation names the
// limit, the value and the target; and an interrupted launch reports where its warps were.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "harness.h"

namespace ptxvm::test {
namespace {

const std::vector<KernelArg> kArgs = {arg(uint64_t{0}), arg(uint64_t{0})};

// The error check_launch and launch give for `c` (they must agree).
std::string refusal(Module& m, const LaunchConfig& c) {
  std::string checked = m.check_launch("k", c, kArgs);
  LaunchResult r = m.launch("k", c, kArgs);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(checked, r.error);
  return r.error;
}

LaunchConfig config(Dim3 grid, Dim3 block, uint32_t shared = 0, Dim3 cluster = {}) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.shared_bytes = shared;
  c.cluster = cluster;
  c.threads = 1;
  return c;
}

// A kernel `k` with `directives` between its parameters and body, for `target`.
std::string with(const std::string& directives, const std::string& target = "sm_90") {
  std::string ptx = kernel_ptx("", target);
  return ptx.insert(ptx.find("\n{\n"), "\n" + directives);
}

TEST(LaunchLimits, GridAndBlockRanges) {
  Harness h;
  Module& m = h.load(kernel_ptx(""));
  EXPECT_EQ(refusal(m, config({2147483648u}, {1})), "grid x is 2147483648; sm_90 allows 1 to 2147483647 (%nctaid.x)");
  EXPECT_EQ(refusal(m, config({1, 65536}, {1})), "grid y is 65536; sm_90 allows 1 to 65535 (%nctaid.y)");
  EXPECT_EQ(refusal(m, config({1, 1, 0}, {1})), "grid z is 0; sm_90 allows 1 to 65535 (%nctaid.z)");
  EXPECT_EQ(refusal(m, config({1}, {1, 1, 65})), "block z is 65; sm_90 allows 1 to 64 (%ntid.z)");
  EXPECT_EQ(refusal(m, config({1}, {64, 32})), "block (64, 32, 1) is 2048 threads; a CTA of sm_90 holds at most 1024");
  EXPECT_EQ(m.check_launch("k", config({2147483647u, 65535, 65535}, {1024}), kArgs), "");
}

TEST(LaunchLimits, DynamicSharedMemoryPerTarget) {
  Harness h;
  Module& m = h.load(kernel_ptx(""));  // no .extern .shared: the request still counts
  EXPECT_EQ(m.check_launch("k", config({1}, {1}, 227 * 1024), kArgs), "");
  EXPECT_EQ(refusal(m, config({1}, {1}, 227 * 1024 + 1)),
            "shared memory of 232449 bytes (0 static + 232449 dynamic) exceeds sm_90's opt-in maximum of "
            "232448 bytes per CTA");
  Harness h89;
  Module& m89 = h89.load(kernel_ptx("", "sm_89"));
  EXPECT_NE(refusal(m89, config({1}, {1}, 100 * 1024)).find("sm_89's opt-in maximum of 101376"), std::string::npos);
}

TEST(LaunchLimits, ThreadDirectives) {
  Harness a;
  Module& req = a.load(with(".reqntid 128"));
  EXPECT_EQ(req.check_launch("k", config({1}, {128}), kArgs), "");
  EXPECT_EQ(refusal(req, config({1}, {64, 2})),
            "kernel 'k' declares .reqntid (128, 1, 1); the launch's block is (64, 2, 1)");
  Harness b;
  Module& max = b.load(with(".maxntid 16, 16"));
  EXPECT_EQ(max.check_launch("k", config({1}, {32, 8}), kArgs), "");
  EXPECT_EQ(refusal(max, config({1}, {512})),
            "kernel 'k' declares .maxntid (16, 16, 1) (256 threads); the launch's block (512, 1, 1) is 512");
  Harness c;
  Module& min = c.load(with(".minnctapersm 4"));
  EXPECT_EQ(min.check_launch("k", config({1}, {512}), kArgs), "");
  EXPECT_EQ(refusal(min, config({1}, {1024})),
            "kernel 'k' declares .minnctapersm 4: 4 CTAs of 1024 threads exceed the 2048 threads an SM of "
            "sm_90 holds");
}

TEST(LaunchLimits, Clusters) {
  Harness a;
  Module& m = a.load(kernel_ptx(""));
  EXPECT_EQ(refusal(m, config({16}, {1}, 0, {16})),
            "cluster (16, 1, 1) is 16 CTAs; a cluster of sm_90 holds at most 8 (the portable size; 16 with the "
            "non-portable cluster size allowed)");
  LaunchConfig wide = config({32}, {1}, 0, {16});
  wide.non_portable_cluster = true;
  EXPECT_EQ(m.check_launch("k", wide, kArgs), "");
  wide.cluster = {32};
  EXPECT_EQ(refusal(m, wide), "cluster (32, 1, 1) is 32 CTAs; a cluster of sm_90 holds at most 16 (the non-portable maximum)");
  EXPECT_EQ(refusal(m, config({5}, {1}, 0, {2})), "grid x is 5, not a multiple of cluster x 2");
  Harness b;
  Module& req = b.load(with(".reqnctapercluster 2"));
  EXPECT_EQ(refusal(req, config({4}, {1}, 0, {4})),
            "kernel 'k' declares .reqnctapercluster (2, 1, 1); the launch's cluster is (4, 1, 1)");
  EXPECT_EQ(refusal(req, config({3}, {1})), "grid x is 3, not a multiple of cluster x 2");
  Harness c;
  Module& rank = c.load(with(".maxclusterrank 2"));
  EXPECT_EQ(refusal(rank, config({4}, {1}, 0, {4})),
            "kernel 'k' declares .maxclusterrank 2; the cluster (4, 1, 1) is 4 CTAs");
  Harness e;
  Module& expl = e.load(with(".explicitcluster"));
  EXPECT_EQ(refusal(expl, config({4}, {1})), "kernel 'k' declares .explicitcluster: launch it with a cluster shape");
  LaunchConfig one = config({4}, {1});
  one.explicit_cluster = true;
  EXPECT_EQ(expl.check_launch("k", one, kArgs), "");
  EXPECT_EQ(expl.check_launch("k", config({4}, {1}, 0, {2}), kArgs), "");
  Harness d;
  Module& old = d.load(kernel_ptx("", "sm_80"));
  EXPECT_EQ(refusal(old, config({2}, {1}, 0, {2})), "cluster (2, 1, 1): sm_80 has no clusters (sm_90 and later)");
}

TEST(LaunchLimits, CancelReportsWhereEachWarpWas) {
  Harness h;
  Module& m = h.load(kernel_ptx("LOOP:\nadd.s32 %r1, %r1, 1;\nbra.uni LOOP;"));
  std::atomic<bool> cancel{false};
  LaunchConfig c = config({20}, {64});
  c.threads = 2;
  c.cancel = &cancel;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  LaunchResult r = m.launch("k", c, kArgs);
  stopper.join();
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.guest_fault);
  EXPECT_NE(r.error.find("kernel 'k' stopped: interrupted"), std::string::npos) << r.error;
  // warps at one PC are named together; the two may be at the loop's two instructions
  EXPECT_NE(r.error.find(", 0, 0): warp"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(" at test.ptx:1"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("more CTAs in flight"), std::string::npos) << r.error;  // 20 resident, 8 shown
}

}  // namespace
}  // namespace ptxvm::test
