// Clusters (src/exec/engine.h Cluster, src/units/cluster; PTX §2.2.2-2.2.3, 001_23fdd5978b24a3ed.txt):
// the special registers, the cluster barrier across CTAs, shared::cluster addressing (mapa,
// getctarank, ld/st/atom on another CTA's shared memory), remote mbarriers, st.async/red.async,
// multicast bulk copies, the reports of undefined uses and deadlocks, and the launch rules.
// tests/units/cluster_hw_test.cpp compares the same machinery with an H100's results.
#include <gtest/gtest.h>

#include "harness.h"

namespace ptxvm::test {
namespace {

// Runs `body` in CTAs of 128 threads: %r1 = %tid.x, %rd2 = &out[global thread], %r20 = the
// shared address of buf (256 words), %r22 = &buf[tid], %r30 = %cluster_ctarank,
// %r31 = %cluster_nctarank, %r32 = (rank + 1) % nctarank.
struct Run {
  Dim3 grid{2}, cluster{2};
  unsigned threads = 1;
  bool non_portable = false;
  std::vector<uint32_t> in = {0};  // the words %rd_in points at
};
LaunchResult run(const std::string& body, std::vector<uint32_t>* out = nullptr, Run how = {}) {
  Harness h;
  h.load(kernel_ptx(".shared .align 16 .b32 buf[256];\n.shared .align 8 .b64 bar[4];\n"
                    "mov.u32 %r1, %tid.x;\nmov.u32 %r40, %ctaid.x;\nmov.u32 %r41, %nctaid.x;\n"
                    "mov.u32 %r42, %ctaid.y;\nmad.lo.u32 %r40, %r42, %r41, %r40;\n"
                    "mad.lo.u32 %r43, %r40, 128, %r1;\nmul.wide.u32 %rd1, %r43, 4;\nadd.s64 %rd2, %rd_out, %rd1;\n"
                    "mov.u32 %r20, buf;\nshl.b32 %r21, %r1, 2;\nadd.u32 %r22, %r20, %r21;\n"
                    "mov.u32 %r30, %cluster_ctarank;\nmov.u32 %r31, %cluster_nctarank;\n"
                    "add.u32 %r32, %r30, 1;\nrem.u32 %r32, %r32, %r31;\n" + body));
  const uint64_t ctas = uint64_t{how.grid.x} * how.grid.y * how.grid.z;
  const uint64_t o = h.buffer(std::vector<uint32_t>(128 * ctas, 0xffffffffu));
  LaunchConfig c;
  c.grid = how.grid;
  c.block = {128};
  c.cluster = how.cluster;
  c.threads = how.threads;
  c.non_portable_cluster = how.non_portable;
  c.step_limit = 1000000;
  LaunchResult r = h.module->launch("k", c, {arg(o), arg(h.buffer(how.in))});
  if (out) *out = h.read<uint32_t>(o, 128 * ctas);
  return r;
}

TEST(Cluster, SpecialRegistersNameTheClusterAndTheRank) {  // §10.11-§10.17
  std::vector<uint32_t> out;
  auto r = run(R"(
    mov.u32 %r2, %cluster_ctaid.x;
    mov.u32 %r3, %cluster_ctaid.y;
    mov.u32 %r4, %clusterid.x;
    mov.u32 %r5, %clusterid.y;
    mov.u32 %r6, %nclusterid.x;
    mov.u32 %r7, %nclusterid.y;
    mov.u32 %r8, %cluster_nctaid.x;
    mov.u32 %r9, %cluster_nctaid.y;
    mov.pred %p1, %is_explicit_cluster;
    selp.u32 %r10, 1, 0, %p1;
    setp.lt.u32 %p2, %r1, 10;
    @!%p2 bra DONE;
    setp.eq.u32 %p3, %r1, 0;  @%p3 st.global.u32 [%rd2], %r2;
    setp.eq.u32 %p3, %r1, 1;  @%p3 st.global.u32 [%rd2], %r3;
    setp.eq.u32 %p3, %r1, 2;  @%p3 st.global.u32 [%rd2], %r4;
    setp.eq.u32 %p3, %r1, 3;  @%p3 st.global.u32 [%rd2], %r5;
    setp.eq.u32 %p3, %r1, 4;  @%p3 st.global.u32 [%rd2], %r6;
    setp.eq.u32 %p3, %r1, 5;  @%p3 st.global.u32 [%rd2], %r7;
    setp.eq.u32 %p3, %r1, 6;  @%p3 st.global.u32 [%rd2], %r30;
    setp.eq.u32 %p3, %r1, 7;  @%p3 st.global.u32 [%rd2], %r31;
    setp.eq.u32 %p3, %r1, 8;  @%p3 st.global.u32 [%rd2], %r8;
    setp.eq.u32 %p3, %r1, 9;  @%p3 st.global.u32 [%rd2], %r10;
  DONE:
  )", &out, {{4, 6}, {2, 3}});
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t y = 0; y < 6; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      const uint32_t* o = &out[(y * 4 + x) * 128];
      const uint32_t want[10] = {x % 2, y % 3, x / 2, y / 3, 2, 2, (y % 3) * 2 + x % 2, 6, 2, 1};
      for (int i = 0; i < 10; ++i) EXPECT_EQ(o[i], want[i]) << "CTA (" << x << ", " << y << ") word " << i;
    }
  // Without a cluster shape each CTA is a cluster of one, not explicit.
  r = run("mov.pred %p1, %is_explicit_cluster;\nselp.u32 %r10, 1, 0, %p1;\nadd.u32 %r10, %r10, %r31;\n"
          "st.global.u32 [%rd2], %r10;\n", &out, {{2}, {1}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(out[0], 1u);
  EXPECT_EQ(out[128], 1u);
}

// Each thread writes its word, arrives, waits, then reads the word of the next CTA of its cluster
// through mapa and ld.shared::cluster, and through a generic mapa address.
TEST(Cluster, TheClusterBarrierOrdersSharedMemoryAcrossCtas) {  // §9.7.13.3, §9.7.9.23
  for (unsigned threads : {1u, 2u}) {
    std::vector<uint32_t> out;
    auto r = run(R"(
      mad.lo.u32 %r2, %r30, 1000, %r1;
      st.shared.u32 [%r22], %r2;
      barrier.cluster.arrive.release.aligned;
      barrier.cluster.wait.acquire.aligned;
      mapa.shared::cluster.u32 %r3, %r22, %r32;
      ld.shared::cluster.u32 %r4, [%r3];
      cvta.shared.u64 %rd3, buf;
      mul.wide.u32 %rd4, %r1, 4;
      add.s64 %rd3, %rd3, %rd4;
      mapa.u64 %rd5, %rd3, %r32;
      ld.u32 %r5, [%rd5];
      sub.u32 %r5, %r5, %r4;
      mad.lo.u32 %r4, %r5, 100000, %r4;
      barrier.cluster.arrive.aligned;
      barrier.cluster.wait.aligned;
      st.global.u32 [%rd2], %r4;
    )", &out, {{8}, {4}, threads});
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t cta = 0; cta < 8; ++cta)
      for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(out[cta * 128 + t], (cta % 4 + 1) % 4 * 1000 + t) << cta << " " << t;
  }
}

TEST(Cluster, GetctarankNamesTheCtaOfAnAddress) {  // §9.7.9.24
  std::vector<uint32_t> out;
  auto r = run(R"(
    rem.u32 %r2, %r1, %r31;
    mapa.shared::cluster.u32 %r3, %r20, %r2;
    getctarank.shared::cluster.u32 %r4, %r3;
    getctarank.shared::cluster.u32 %r5, %r20;
    cvta.shared.u64 %rd3, buf;
    mapa.u64 %rd4, %rd3, %r2;
    getctarank.u64 %r6, %rd4;
    getctarank.u64 %r7, %rd3;
    mad.lo.u32 %r4, %r5, 10, %r4;
    mad.lo.u32 %r4, %r6, 100, %r4;
    mad.lo.u32 %r4, %r7, 1000, %r4;
    st.global.u32 [%rd2], %r4;
  )", &out, {{4}, {4}});
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t cta = 0; cta < 4; ++cta)
    for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(out[cta * 128 + t], t % 4 + cta * 10 + t % 4 * 100 + cta * 1000) << cta << " " << t;
}

// Every thread of a cluster of four adds into rank 0's counters: atom and red on shared::cluster
// addresses and on generic ones.
TEST(Cluster, AtomicsReachAnotherCtasSharedMemory) {  // §9.7.13.5-6 on .shared::cluster
  std::vector<uint32_t> out;
  auto r = run(R"(
    st.shared.u32 [%r22], 0;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    mapa.shared::cluster.u32 %r3, %r20, 0;
    atom.shared::cluster.add.u32 %r4, [%r3], 1;
    red.shared::cluster.add.u32 [%r3+4], %r1;
    atom.shared::cluster.max.u32 %r5, [%r3+8], %r1;
    cvta.shared.u64 %rd3, buf;
    mapa.u64 %rd4, %rd3, 0;
    atom.add.u32 %r6, [%rd4+12], 2;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    ld.shared.u32 %r7, [%r22];
    st.global.u32 [%rd2], %r7;
  )", &out, {{4}, {4}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(out[0], 512u);
  EXPECT_EQ(out[1], 4u * (127 * 128 / 2));
  EXPECT_EQ(out[2], 127u);
  EXPECT_EQ(out[3], 1024u);
  for (uint32_t i = 128; i < 512; ++i) EXPECT_EQ(out[i], 0u) << i;
}

// Rank 0's barrier expects every thread of the cluster: the others arrive on it remotely.
TEST(Cluster, RemoteArrivesCompleteAnotherCtasMbarrier) {  // §9.7.13.15.13
  std::vector<uint32_t> out;
  auto r = run(R"(
    mov.u32 %r2, bar;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 mbarrier.init.shared::cta.b64 [%r2], 256;
    fence.mbarrier_init.release.cluster;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    st.shared.u32 [%r22], %r30;
    mapa.shared::cluster.u32 %r3, %r2, 0;
    mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r3];
    setp.ne.u32 %p2, %r30, 0;
    @%p2 bra OUT;
  WAIT:
    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p3, [%r2], 0;
    @!%p3 bra WAIT;
  OUT:
    selp.u32 %r4, 7, 9, %p2;
    st.global.u32 [%rd2], %r4;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t i = 0; i < 256; ++i) EXPECT_EQ(out[i], i < 128 ? 9u : 7u) << i;
}

// st.async and red.async into the next CTA, completing on its barrier, which expects the bytes:
// lanes 0-63 store {v, v + 1} at words 2L, 2L + 1 of buf, lanes 64-127 add v twice to word
// 128 + L - 64, v = 1000 * rank + L.
TEST(Cluster, AsyncStoresLandOnTheDestinationsBarrier) {  // §9.7.9.12, §9.7.13.7
  std::vector<uint32_t> out;
  auto r = run(R"(
    mov.u32 %r2, bar;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 mbarrier.init.shared::cta.b64 [%r2], 1;
    st.shared.u32 [%r22+512], 5;
    fence.mbarrier_init.release.cluster;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r2], 1024;
    mapa.shared::cluster.u32 %r4, %r2, %r32;
    mad.lo.u32 %r5, %r30, 1000, %r1;
    add.u32 %r6, %r5, 1;
    setp.lt.u32 %p2, %r1, 64;
    shl.b32 %r7, %r1, 3;
    add.u32 %r7, %r20, %r7;
    mapa.shared::cluster.u32 %r3, %r7, %r32;
    @%p2 st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%r3], {%r5, %r6}, [%r4];
    mapa.shared::cluster.u32 %r8, %r22, %r32;
    @!%p2 red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r8+256], %r5, [%r4];
    @!%p2 red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r8+256], %r5, [%r4];
  WAIT:
    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p3, [%r2], 0;
    @!%p3 bra WAIT;
    ld.shared.u32 %r9, [%r22];
    ld.shared.u32 %r10, [%r22+512];
    shl.b32 %r10, %r10, 16;
    selp.u32 %r10, %r10, 0, %p2;
    add.u32 %r9, %r9, %r10;
    st.global.u32 [%rd2], %r9;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t cta = 0; cta < 2; ++cta) {
    const uint32_t base = (cta + 1) % 2 * 1000;  // v of the writing CTA's lane 0
    for (uint32_t t = 0; t < 128; ++t) {
      uint32_t want = base + t / 2 + t % 2;
      if (t < 64) want += (5 + 2 * (base + 64 + t)) << 16;
      EXPECT_EQ(out[cta * 128 + t], want) << cta << " " << t;
    }
  }
}

// Rank 0 multicasts 256 bytes from global memory to ranks 0, 1 and 3 (ctaMask 0b1011), each
// completing its own barrier; then each CTA copies those bytes from its shared memory into the
// next CTA's (buf + 512), completing the next CTA's second barrier.
TEST(Cluster, MulticastBulkCopiesFillEveryCtaOfTheMask) {  // §9.7.9.25.4.1
  std::vector<uint32_t> in(64), out;
  for (uint32_t i = 0; i < 64; ++i) in[i] = 0x1000 + i * 3;
  auto r = run(R"(
    mov.u32 %r2, bar;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 mbarrier.init.shared::cta.b64 [%r2], 1;
    @%p1 mbarrier.init.shared::cta.b64 [%r2+8], 1;
    st.shared.u32 [%r22], 0;
    st.shared.u32 [%r22+512], 0;
    fence.mbarrier_init.release.cluster;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    setp.ne.u32 %p5, %r30, 2;
    and.pred %p6, %p1, %p5;
    @%p6 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r2], 256;
    @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r2+8], 256;
    setp.eq.u32 %p4, %r30, 0;
    and.pred %p7, %p1, %p4;
    mov.u16 %h1, 11;
    @%p7 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r20], [%rd_in], 256, [%r2], %h1;
    @!%p5 bra COPY;
  WAIT:
    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p3, [%r2], 0;
    @!%p3 bra WAIT;
  COPY:
    mapa.shared::cluster.u32 %r3, %r20, %r32;
    mapa.shared::cluster.u32 %r4, %r2, %r32;
    @%p1 cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r3+512], [%r20], 256, [%r4+8];
  WAIT2:
    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p3, [%r2+8], 0;
    @!%p3 bra WAIT2;
    ld.shared.u32 %r9, [%r22];
    ld.shared.u32 %r10, [%r22+512];
    shl.b32 %r10, %r10, 16;
    add.u32 %r9, %r9, %r10;
    st.global.u32 [%rd2], %r9;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
  )", &out, {{4}, {4}, 1, false, in});
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t cta = 0; cta < 4; ++cta) {
    const uint32_t from = (cta + 3) % 4;  // the CTA that copied into this one
    for (uint32_t t = 0; t < 128; ++t) {
      const uint32_t mine = cta != 2 && t < 64 ? in[t] : 0, theirs = from != 2 && t < 64 ? in[t] : 0;
      EXPECT_EQ(out[cta * 128 + t], mine + (theirs << 16)) << cta << " " << t;
    }
  }
}

TEST(Cluster, UndefinedUsesAreReported) {  // §2.2.2, §9.7.13.3, §9.7.9.23, §9.7.9.24
  struct Case {
    const char* body;
    const char* report;
  } cases[] = {
      {"barrier.cluster.arrive;\nbarrier.cluster.arrive;\n", "already arrived in the cluster barrier's current phase"},
      {"barrier.cluster.wait;\n", "without a barrier.cluster.arrive before it"},
      {"mapa.u64 %rd4, %rd_out, 1;\n", "is not in the executing CTA's shared memory"},
      {"cvta.shared.u64 %rd3, buf;\nmapa.u64 %rd4, %rd3, 2;\n", "CTA rank 2 is outside the cluster of 2 CTAs"},
      {"getctarank.u64 %r2, %rd_out;\n", "is not in the cluster's shared memory"},
      // rank 1 exits at once; rank 0 reads its shared memory after a while
      {"setp.ne.u32 %p1, %r30, 0;\n@%p1 exit;\nmov.u32 %r5, 0;\nLOOP:\nadd.u32 %r5, %r5, 1;\n"
       "setp.lt.u32 %p2, %r5, 5000;\n@%p2 bra LOOP;\nmapa.shared::cluster.u32 %r3, %r20, 1;\n"
       "ld.shared::cluster.u32 %r4, [%r3];\n", "CTA rank 1, which has exited"},
      {"mov.u32 %r3, 0x5000000;\nld.shared::cluster.u32 %r4, [%r3];\n", "outside the shared::cluster window"},
  };
  for (const Case& c : cases) {
    auto r = run(c.body);
    ASSERT_FALSE(r.ok) << c.body;
    EXPECT_NE(r.error.find(c.report), std::string::npos) << r.error;
  }
}

// Half of rank 1 waits at a CTA barrier for its other half, which waits at the cluster barrier
// for the first: no CTA of the cluster can move.
TEST(Cluster, ADeadlockReportListsEveryCtaOfTheCluster) {
  auto r = run(R"(
    setp.eq.u32 %p1, %r30, 1;
    setp.lt.u32 %p2, %r1, 64;
    and.pred %p3, %p1, %p2;
    @%p3 barrier.sync 0;
    barrier.cluster.arrive;
    barrier.cluster.wait;
  )");
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("no thread of the cluster can make progress: CTA (0, 0, 0) rank 0: warp 0 (32 threads) "
                         "waits at line"),
            std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("in barrier.cluster.wait, for threads of the cluster that have not arrived"), std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("CTA (1, 0, 0) rank 1:"), std::string::npos) << r.error;
}

TEST(Cluster, LaunchRules) {  // §2.2.2; CUDA's cluster launch rules
  auto r = run("", nullptr, {{3}, {2}});
  EXPECT_NE(r.error.find("grid x is 3, not a multiple of cluster x 2"), std::string::npos) << r.error;
  r = run("", nullptr, {{16}, {16}});
  EXPECT_NE(r.error.find("holds at most 8 (the portable size"), std::string::npos) << r.error;
  r = run("barrier.cluster.arrive;\nbarrier.cluster.wait;\n", nullptr, {{32}, {16}, 1, true});
  EXPECT_TRUE(r.ok) << r.error;
}

}  // namespace
}  // namespace ptxvm::test
