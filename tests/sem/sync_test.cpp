// Memory ordering (PTX §9.7.13.4), griddepcontrol (§9.7.13.13) and the §9.7.19 miscellany
// (brkpt, nanosleep, pmevent, trap), 001_23fdd5978b24a3ed.txt. The CTA barriers are a unit:
// tests/units/barrier_test.cpp.
#include <gtest/gtest.h>

#include "harness.h"

namespace ptxvm::test {
namespace {

const char* kTid =
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "mul.wide.u32 %rd1, %r4, 16;\nadd.s64 %rd2, %rd_out, %rd1;\n";

TEST(Sync, FencesOrderFlagPublicationAcrossHostThreads) {
  // CTA 0 writes data, fences, then sets a flag; CTA 1 (another host thread) spins on the flag
  // with strong loads, fences, and reads the data. Every fence form is accepted.
  Harness h;
  h.load(kernel_ptx("mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nsetp.ne.u32 %p1, %r2, 0;\n@%p1 bra END;\n"
                    "setp.eq.u32 %p2, %r1, 1;\n@%p2 bra READ;\n"
                    "st.global.u32 [%rd_out+8], 42;\nst.global.u32 [%rd_out+12], 43;\n"
                    "membar.gl;\nmembar.cta;\nmembar.sys;\nfence.sc.gpu;\nfence.acq_rel.cta;\nfence.sc.cluster;\n"
                    "fence.proxy.alias;\nfence.proxy.async;\nfence.proxy.async.shared::cta;\nmembar.proxy.alias;\n"
                    "fence.mbarrier_init.release.cluster;\nfence.release.sys;\n"
                    "st.release.gpu.global.u32 [%rd_out], 1;\nbra END;\n"
                    "READ:\nld.acquire.gpu.global.u32 %r3, [%rd_out];\nnanosleep.u32 10;\n"
                    "setp.eq.u32 %p3, %r3, 0;\n@%p3 bra READ;\nfence.acquire.gpu;\n"
                    "ld.global.u32 %r4, [%rd_out+8];\nld.volatile.global.u32 %r5, [%rd_out+12];\n"
                    "add.s32 %r6, %r4, %r5;\nst.relaxed.sys.global.u32 [%rd_out+4], %r6;\npmevent 3;\npmevent.mask 0x5;\nEND:\n",
                    "sm_90"));
  uint64_t out = h.buffer(std::vector<uint32_t>(4, 0));
  auto r = h.launch("k", {2}, {32}, {arg(out), arg(uint64_t{0})}, 2);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint32_t>(out, 4), (std::vector<uint32_t>{1, 85, 42, 43}));
}

TEST(Sync, BrkptAndTrapStopTheLaunch) {
  for (auto [inst, expect] : {std::pair{"brkpt;", "brkpt executed"}, std::pair{"trap;", "trap instruction executed"}}) {
    Harness h;
    h.load(kernel_ptx(std::string("mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 5;\n@%p1 ") + inst));
    auto r = h.launch("k", {1}, {32}, {arg(uint64_t{0}), arg(uint64_t{0})});
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.guest_fault);
    EXPECT_NE(r.error.find(expect), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("lane 5"), std::string::npos) << r.error;
  }
}

// griddepcontrol (§9.7.13.13) across two dependent launches: the second's .wait sees every store
// of the first, which signalled .launch_dependents before its last store.
TEST(Sync, GriddepcontrolOrdersDependentLaunches) {
  Harness h;
  h.load(kernel_ptx(std::string(kTid) +
                    "griddepcontrol.wait;\nld.global.u32 %r5, [%rd2];\nadd.u32 %r5, %r5, %r4;\n"
                    "griddepcontrol.launch_dependents;\nst.global.u32 [%rd2], %r5;\n"));
  uint64_t out = h.buffer(std::vector<uint32_t>(4 * 256, 1));
  for (int launch = 0; launch < 2; ++launch)
    ASSERT_TRUE(h.launch("k", {4}, {64}, {arg(out), arg(uint64_t{0})}).ok);
  std::vector<uint32_t> got = h.read<uint32_t>(out, 4 * 256);
  for (uint32_t t = 0; t < 256; ++t) EXPECT_EQ(got[t * 4], 1 + 2 * t) << t;
}

// setmaxnreg is a hint this device needs not act on, but its .sync.aligned rule holds: all
// threads of a warpgroup of four full warps (§9.7.19.5).
TEST(Sync, SetmaxnregNeedsAWholeWarpgroup) {
  Harness h;
  h.load(kernel_ptx("setmaxnreg.dec.sync.aligned.u32 40;\nsetmaxnreg.inc.sync.aligned.u32 232;\n"
                    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 4;\nadd.u64 %rd1, %rd_out, %rd1;\n"
                    "st.global.u32 [%rd1], %r1;\n", "sm_90a"));
  uint64_t out = h.buffer(std::vector<uint32_t>(256, 0));
  ASSERT_TRUE(h.launch("k", {1}, {256}, {arg(out), arg(uint64_t{0})}).ok);
  EXPECT_EQ(h.read<uint32_t>(out, 256)[255], 255u);
  auto r = h.launch("k", {1}, {96}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("warpgroup of four full warps (§9.7.19.5)"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ptxvm::test
