// Cluster launch control (src/units/cluster/launch_control.cpp, PTX §9.7.13.17-18, sm_100): a
// persistent kernel, as §9.7.13.17's example writes it, steals clusters that have not started;
// every cluster's work must be done exactly once, some of it by CTAs that stole it.
#include <gtest/gtest.h>

#include <numeric>

#include "harness.h"

namespace ptxvm::test {
namespace {

// One thread per CTA, clusters of two along x: CTA rank r works on CTA (first + r) of the cluster
// it holds (out[ctaid] += 1), rank 0 asks for the next unstarted cluster, multicasting the answer.
// started[ctaid] marks the CTAs that were launched rather than stolen.
const char* kPersistent = R"(
.version 8.7
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 started)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .b128 %q;
  .reg .pred %p<4>;
  .shared .align 16 .b8 resp[16];
  .shared .align 8 .b64 mbar;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd5, [started];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %cluster_ctaid.x;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd6, %rd5, %rd6;
  st.global.u32 [%rd6], 1;
  mbarrier.init.shared::cta.b64 [mbar], 1;
  fence.mbarrier_init.release.cluster;
  mov.u32 %r3, 0;
  barrier.cluster.arrive.relaxed;
LOOP:
  barrier.cluster.wait.acquire;
  mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 %rd2, [mbar], 16;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [resp], [mbar];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  atom.global.add.u32 %r5, [%rd4], 1;
WAIT:
  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p2, [mbar], %r3;
  @!%p2 bra WAIT;
  xor.b32 %r3, %r3, 1;
  ld.shared.b128 %q, [resp];
  clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p3, %q;
  @!%p3 bra DONE;
  clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r6, %r7, _, _}, %q;
  clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 %r8, %q;
  add.u32 %r1, %r6, %r2;
  add.u32 %r1, %r1, %r7;
  add.u32 %r1, %r1, %r8;
  barrier.cluster.arrive.relaxed;
  bra LOOP;
DONE:
  ret;
}
)";

TEST(LaunchControl, APersistentKernelDoesEveryClustersWorkOnce) {  // §9.7.13.17-18
  for (unsigned threads : {1u, 2u}) {
    Harness h;
    h.load(kPersistent);
    constexpr uint32_t kCtas = 256;
    const uint64_t out = h.buffer(std::vector<uint32_t>(kCtas, 0)), started = h.buffer(std::vector<uint32_t>(kCtas, 0));
    LaunchConfig c;
    c.grid = {kCtas};
    c.block = {1};
    c.cluster = {2};
    c.threads = threads;
    c.step_limit = 10'000'000;
    const LaunchResult r = h.module->launch("k", c, {arg(out), arg(started)});
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<uint32_t> work = h.read<uint32_t>(out, kCtas), launched = h.read<uint32_t>(started, kCtas);
    for (uint32_t i = 0; i < kCtas; ++i) EXPECT_EQ(work[i], 1u) << "CTA " << i << " on " << threads << " threads";
    const uint32_t n = std::accumulate(launched.begin(), launched.end(), 0u);
    EXPECT_LT(n, kCtas) << "no cluster was stolen";
    EXPECT_GT(n, 0u);
    for (uint32_t i = 0; i < kCtas; i += 2) EXPECT_EQ(launched[i], launched[i + 1]) << "a cluster starts whole";
  }
}

TEST(LaunchControl, UndefinedUsesAreReported) {  // §9.7.13.18
  Harness h;
  std::string ptx = kPersistent;
  // Asking for the first CTA of a failed request's response.
  ptx.replace(ptx.find("@!%p3 bra DONE;"), 15, "");
  h.load(ptx);
  const uint64_t out = h.buffer(std::vector<uint32_t>(4, 0)), started = h.buffer(std::vector<uint32_t>(4, 0));
  LaunchConfig c;
  c.grid = {4};
  c.block = {1};
  c.cluster = {2};
  c.threads = 1;
  const LaunchResult r = h.module->launch("k", c, {arg(out), arg(started)});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("on the response of a request that cancelled no cluster"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ptxvm::test
