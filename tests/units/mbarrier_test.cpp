// mbarrier objects (PTX §9.7.13.15, 001_23fdd5978b24a3ed.txt): phases, arrival and tx counts,
// state tokens and parities, arrive_drop, cp.async.mbarrier.arrive, and the undefined uses ptxvm
// reports.
#include <gtest/gtest.h>

#include "harness.h"

namespace ptxvm::test {
namespace {

// `body` with `.shared .b64 bar` (its shared address in %r_b, generic in %rd_b) run by `block`
// threads; returns `n` words of out.
std::vector<uint32_t> run(const std::string& body, uint32_t block, size_t n, std::string* error = nullptr) {
  Harness h;
  h.load(kernel_ptx(".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[512];\n"
                    ".reg .b32 %r_b;\n.reg .b64 %rd_b;\nmov.u32 %r_b, bar;\ncvta.shared.u64 %rd_b, bar;\n" +
                    body));
  uint64_t out = h.buffer(std::vector<uint32_t>(n, 0xffffffffu)), in = h.buffer(std::vector<uint32_t>(64, 0));
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t v = 0x1000 + i;
    h.dev.copy_to_device(in + 4 * i, &v, 4);
  }
  auto r = h.launch("k", {1}, {block}, {arg(out), arg(in)});
  if (error) *error = r.error;
  else EXPECT_TRUE(r.ok) << r.error;
  return h.read<uint32_t>(out, n);
}

// Two warps hand data across an mbarrier twice: each thread writes its word, arrives, waits for
// the phase (by state token, then by parity) and reads the word of a thread of the other warp.
TEST(Mbarrier, PhasesSynchronizeTwoWarps) {  // §9.7.13.15.4, §9.7.13.15.6, §9.7.13.15.16
  auto v = run(R"(
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 mbarrier.init.shared.b64 [bar], 64;
    bar.sync 0;
    mov.u32 %r10, buf;
    shl.b32 %r2, %r1, 2;
    add.u32 %r3, %r10, %r2;
    add.u32 %r4, %r1, 100;
    st.shared.u32 [%r3], %r4;
    mbarrier.arrive.shared.b64 %rd1, [bar];
  WAIT0:
    mbarrier.test_wait.shared.b64 %p2, [bar], %rd1;
    @!%p2 bra WAIT0;
    xor.b32 %r5, %r1, 32;
    shl.b32 %r6, %r5, 2;
    add.u32 %r7, %r10, %r6;
    ld.shared.u32 %r8, [%r7];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd_out, %rd2;
    st.global.u32 [%rd3], %r8;
    add.u32 %r4, %r1, 200;
    st.shared.u32 [%r3+256], %r4;
    mbarrier.arrive.release.cta.shared::cta.b64 _, [bar];
  WAIT1:
    mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p3, [bar], 1, 1000;
    @!%p3 bra WAIT1;
    ld.shared.u32 %r9, [%r7+256];
    st.global.u32 [%rd3+256], %r9;
    mbarrier.test_wait.parity.shared.b64 %p4, [bar], 0;  // phase 2 is the current one
    selp.u32 %r11, 1, 0, %p4;
    st.global.u32 [%rd3+512], %r11;
  )", 64, 192);
  for (uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(v[t], (t ^ 32) + 100) << t;
    EXPECT_EQ(v[64 + t], (t ^ 32) + 200) << t;
    EXPECT_EQ(v[128 + t], 0u) << t;
  }
}

TEST(Mbarrier, CountsTokensAndDrops) {  // §9.7.13.15.13, .14, .16, .17
  auto v = run(R"(
    mbarrier.init.b64 [%rd_b], 4;
    mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 2;
    mbarrier.pending_count.b64 %r1, %rd1;
    mbarrier.arrive.noComplete.b64 %rd2, [%rd_b], 1;
    mbarrier.pending_count.b64 %r2, %rd2;
    mbarrier.test_wait.shared.b64 %p1, [bar], %rd1;
    selp.u32 %r3, 1, 0, %p1;
    mbarrier.arrive.shared.b64 %rd3, [bar];
    mbarrier.pending_count.b64 %r4, %rd3;
    mbarrier.test_wait.shared.b64 %p2, [bar], %rd1;
    selp.u32 %r5, 1, 0, %p2;
    mbarrier.test_wait.parity.shared.b64 %p3, [bar], 0;
    selp.u32 %r6, 1, 0, %p3;
    mbarrier.arrive_drop.shared.b64 %rd4, [bar], 3;      // phase 1: expected 4 -> 1, pending 4 -> 1
    mbarrier.test_wait.parity.shared.b64 %p4, [bar], 1;
    selp.u32 %r7, 1, 0, %p4;
    mbarrier.arrive.shared.b64 %rd5, [bar];              // completes phase 1
    mbarrier.arrive.shared.b64 %rd6, [bar];              // phase 2 expects 1: completes it too
    mbarrier.pending_count.b64 %r8, %rd6;
    mbarrier.test_wait.shared.b64 %p5, [bar], %rd6;
    selp.u32 %r9, 1, 0, %p5;
    mbarrier.inval.shared.b64 [bar];
    mbarrier.init.shared::cta.b64 [bar], 2;              // the memory may hold a new object
    mbarrier.arrive_drop.noComplete.shared.b64 %rd7, [bar], 1;
    mbarrier.pending_count.b64 %r10, %rd7;
    st.global.v4.u32 [%rd_out], {%r1, %r2, %r3, %r4};
    st.global.v4.u32 [%rd_out+16], {%r5, %r6, %r7, %r8};
    st.global.v2.u32 [%rd_out+32], {%r9, %r10};
  )", 1, 10);
  EXPECT_EQ(v, (std::vector<uint32_t>{4, 2, 0, 1, 1, 1, 0, 1, 1, 2}));
}

// A phase whose arrivals are all in completes only when its tx-count is back to zero. Waits for a
// completion spin, as real code does: a GPU's test_wait may answer false for a moment after the
// operation that completed the phase.
TEST(Mbarrier, TxCountHoldsThePhase) {  // §9.7.13.15.5, .11, .12
  auto v = run(R"(
    mbarrier.init.shared.b64 [bar], 1;
    mbarrier.expect_tx.relaxed.cta.shared.b64 [bar], 48;
    mbarrier.arrive.shared.b64 %rd1, [bar];
    mbarrier.test_wait.shared.b64 %p1, [bar], %rd1;
    mbarrier.complete_tx.shared.b64 [bar], 16;
    mbarrier.test_wait.shared.b64 %p2, [bar], %rd1;
    mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [bar], 32;
  WAIT0:
    mbarrier.test_wait.shared.b64 %p3, [bar], %rd1;
    @!%p3 bra WAIT0;
    mbarrier.arrive.expect_tx.shared.b64 %rd2, [bar], 8;  // phase 1: pending 0, tx 8
    mbarrier.try_wait.parity.shared.b64 %p4, [bar], 1, 100;
    mbarrier.test_wait.parity.shared.b64 %p5, [bar], 1;
    mbarrier.complete_tx.shared.b64 [bar], 8;
  WAIT1:
    mbarrier.try_wait.shared.b64 %p6, [bar], %rd2, 100;
    @!%p6 bra WAIT1;
    mbarrier.test_wait.parity.shared.b64 %p7, [bar], 1;
    selp.u32 %r1, 1, 0, %p1;
    selp.u32 %r2, 1, 0, %p2;
    selp.u32 %r4, 1, 0, %p4;
    selp.u32 %r5, 1, 0, %p5;
    selp.u32 %r7, 1, 0, %p7;
    st.global.v4.u32 [%rd_out], {%r1, %r2, %r4, %r5};
    st.global.u32 [%rd_out+16], %r7;
  )", 1, 5);
  EXPECT_EQ(v, (std::vector<uint32_t>{0, 0, 0, 0, 1}));
}

// The arrive-on of cp.async.mbarrier.arrive comes with the lane's earlier copies: once the phase
// is seen complete, their bytes are in shared memory (§9.7.13.15.15, §9.7.13.15.16 rule 2).
TEST(Mbarrier, CpAsyncArriveCompletesTheCopies) {
  auto v = run(R"(
    mov.u32 %r10, buf;
    mbarrier.init.shared.b64 [bar], 1;
    cp.async.ca.shared.global [%r10], [%rd_in], 4;
    cp.async.mbarrier.arrive.noinc.shared.b64 [bar];
  WAIT0:
    mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;
    @!%p1 bra WAIT0;
    ld.shared.u32 %r1, [%r10];
    cp.async.cg.shared.global [%r10+16], [%rd_in+16], 16;
    cp.async.mbarrier.arrive.shared.b64 [bar];           // pending +1, then its arrive: no change
    mbarrier.test_wait.parity.shared.b64 %p2, [bar], 1;
    mbarrier.arrive.shared.b64 %rd1, [bar];
  WAIT1:
    mbarrier.test_wait.parity.shared.b64 %p3, [bar], 1;
    @!%p3 bra WAIT1;
    ld.shared.u32 %r2, [%r10+28];
    selp.u32 %r4, 1, 0, %p2;
    st.global.v2.u32 [%rd_out], {%r1, %r2};
    st.global.u32 [%rd_out+8], %r4;
  )", 1, 3);
  EXPECT_EQ(v, (std::vector<uint32_t>{0x1000, 0x1007, 0}));
}

TEST(Mbarrier, UndefinedUsesAreReported) {  // §9.7.13.15
  struct Case {
    const char* body;
    const char* message;
  } cases[] = {
      {"mbarrier.arrive.shared.b64 %rd1, [bar];", "holds no initialized mbarrier object"},
      {"mbarrier.init.shared.b64 [bar], 1;\nmbarrier.init.shared.b64 [bar], 1;", "mbarrier.init on a valid"},
      {"mbarrier.init.shared.b64 [bar], 0;", "expected arrival count would be 0, outside [1, 1048575]"},
      {"mbarrier.init.shared.b64 [bar], 1;\nmbarrier.inval.shared.b64 [bar];\nmbarrier.test_wait.parity.shared.b64 %p1, "
       "[bar], 0;",
       "holds no initialized mbarrier object"},
      {"mbarrier.init.shared.b64 [bar], 2;\nmbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 2;",
       "completes the phase, which .noComplete forbids"},
      {"mbarrier.init.shared.b64 [bar], 2;\nmbarrier.arrive.shared.b64 %rd1, [bar], 3;",
       "pending arrival count would be -1"},
      {"mbarrier.init.shared.b64 [bar], 1;\nmbarrier.arrive.shared.b64 %rd1, [bar];\nmbarrier.arrive.shared.b64 %rd2, "
       "[bar];\nmbarrier.test_wait.shared.b64 %p1, [bar], %rd1;",
       "neither the current nor the one before it"},
      {"mbarrier.init.b64 [%rd_out], 1;", "mbarrier object outside shared memory"},
      {"mbarrier.init.shared.b64 [bar], 1;\nmbarrier.expect_tx.relaxed.cta.shared.b64 [bar], 1048576;",
       "tx-count would be 1048576"},
  };
  for (const Case& c : cases) {
    std::string error;
    run(c.body, 1, 1, &error);
    EXPECT_NE(error.find(c.message), std::string::npos) << c.body << "\n" << error;
  }
}

// A wait loop whose phase can never complete (here more bytes complete than were expected, the
// tx-count below zero) stops the launch with a deadlock report that gives the object's state,
// where it would otherwise spin forever (no step limit here).
TEST(Mbarrier, AWaitThatCanNeverSucceedIsADeadlock) {
  Harness h;
  h.load(kernel_ptx(R"(
    .shared .align 8 .b64 bar;
    mbarrier.init.shared.b64 [bar], 1;
    mbarrier.arrive.expect_tx.shared.b64 _, [bar], 16;
    mbarrier.complete_tx.shared.b64 [bar], 32;
  WAIT:
    mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0;
    @!%p1 bra WAIT;
  )"));
  LaunchConfig c;
  c.grid = {1};
  c.block = {1};
  const LaunchResult r = h.module->launch("k", c, {arg(uint64_t{0}), arg(uint64_t{0})});
  EXPECT_NE(r.error.find("deadlock: 'mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0;' failed 16777216 times while "
                         "nothing arrived "
                         "on, expected or completed bytes on its mbarrier: phase 0, 0 of 1 arrivals pending, tx-count "
                         "-16 (more bytes completed than expected)"),
            std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("lane 0"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ptxvm::test
