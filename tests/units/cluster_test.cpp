// Clusters of one CTA (src/units/cluster, PTX §2.2.2-2.2.3, 001_23fdd5978b24a3ed.txt): the split
// cluster barrier, mapa and getctarank on a CTA that is its own cluster, the undefined uses ptxvm
// reports, and the refusal of a launch that asks for clusters of several CTAs.
#include <gtest/gtest.h>

#include "harness.h"

namespace ptxvm::test {
namespace {

LaunchResult run(const std::string& body, std::vector<uint32_t>* out = nullptr, Dim3 cluster = {1, 1, 1}) {
  Harness h;
  h.load(kernel_ptx(".shared .align 16 .b32 buf[128];\n"
                    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %rd_out, %rd1;\n"
                    "mov.u32 %r20, buf;\nshl.b32 %r21, %r1, 2;\nadd.u32 %r22, %r20, %r21;\n" + body));
  const uint64_t o = h.buffer(std::vector<uint32_t>(128, 0xffffffffu));
  LaunchConfig c;
  c.grid = {2};
  c.block = {128};
  c.cluster = cluster;
  c.step_limit = 1000000;
  LaunchResult r = h.module->launch("k", c, {arg(o), arg(uint64_t{0})});
  if (out) *out = h.read<uint32_t>(o, 128);
  return r;
}

// Each thread writes its word, arrives, reads nothing yet, waits, then reads its neighbour's.
TEST(Cluster, TheSplitBarrierOrdersTheWholeCta) {  // §9.7.13.3
  std::vector<uint32_t> out;
  auto r = run(R"(
    add.u32 %r2, %r1, 1000;
    st.shared.u32 [%r22], %r2;
    barrier.cluster.arrive.release.aligned;
    mov.u32 %r3, %cluster_nctarank;
    barrier.cluster.wait.acquire.aligned;
    add.u32 %r4, %r1, 1;
    and.b32 %r4, %r4, 127;
    shl.b32 %r5, %r4, 2;
    add.u32 %r6, %r20, %r5;
    ld.shared.u32 %r7, [%r6];
    add.u32 %r7, %r7, %r3;
    st.global.u32 [%rd2], %r7;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(out[t], 1000 + (t + 1) % 128 + 1) << t;
}

TEST(Cluster, MapaAndGetctarankSeeAClusterOfOne) {  // §9.7.9.23, §9.7.9.24
  std::vector<uint32_t> out;
  auto r = run(R"(
    cvta.shared.u64 %rd3, buf;
    mapa.u64 %rd4, %rd3, 0;
    sub.s64 %rd5, %rd4, %rd3;
    getctarank.u64 %r2, %rd4;
    mapa.shared::cluster.u32 %r3, %r20, 0;
    sub.u32 %r4, %r3, %r20;
    cvt.u32.u64 %r5, %rd5;
    add.u32 %r6, %r5, %r4;
    add.u32 %r6, %r6, %r2;
    st.global.u32 [%rd2], %r6;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(out[t], 0u) << t;
}

// An mbarrier named by a .shared::cluster address is the CTA's own (§9.7.13.15).
TEST(Cluster, SharedClusterMbarriersAreTheCtasOwn) {
  std::vector<uint32_t> out;
  auto r = run(R"(
    setp.eq.u32 %p1, %r1, 0;
    @%p1 mbarrier.init.shared::cta.b64 [buf+256], 128;
    bar.sync 0;
    mapa.shared::cluster.u32 %r2, %r20, 0;
    add.u32 %r2, %r2, 256;
    mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r2];
  WAIT:
    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p2, [buf+256], 0;
    @!%p2 bra WAIT;
    st.global.u32 [%rd2], 7;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(out[t], 7u) << t;
}

TEST(Cluster, UndefinedUsesAreReported) {  // §9.7.13.3, §9.7.9.23, §9.7.9.24
  struct Case {
    const char* body;
    const char* report;
  } cases[] = {
      {"barrier.cluster.arrive;\nbarrier.cluster.arrive;\n", "already arrived in the cluster barrier's current phase"},
      {"barrier.cluster.wait;\n", "without a barrier.cluster.arrive before it"},
      {"mapa.u64 %rd4, %rd_out, 1;\n", "CTA rank 1 is outside the cluster of 1 CTA"},
      {"getctarank.u64 %r2, %rd_out;\n", "is not in the cluster's shared memory"},
  };
  for (const Case& c : cases) {
    auto r = run(c.body);
    ASSERT_FALSE(r.ok) << c.body;
    EXPECT_NE(r.error.find(c.report), std::string::npos) << r.error;
  }
}

TEST(Cluster, ClustersOfSeveralCtasAreRefused) {
  auto r = run("", nullptr, {2, 1, 1});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("unsupported: a cluster of more than one CTA"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ptxvm::test
