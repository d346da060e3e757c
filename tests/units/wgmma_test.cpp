// The warpgroup MMA unit (src/units/wgmma, PTX §9.7.15, 001_23fdd5978b24a3ed.txt): when results
// land, chains, and the misuse the ISA makes undefined. Every element of A and B here is 1.0, so
// each D element is C + K whatever the layouts; tests/hw/wgmma holds the H100's bits.
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "harness.h"

namespace ptxvm::test {
namespace {

// A kernel of one m64n8k16 f32 <- f16 x f16 wgmma over a shared tile of 1.0s, accumulators
// starting at 5.0; `body` runs between the setup and the end and may store f32 %f1 to out[%rd2].
std::string wgmma_kernel(const std::string& body, bool accumulators = true) {
  return ".version 8.2\n.target sm_90a\n.address_size 64\n"
         ".visible .entry k(.param .u64 out, .param .u64 start)\n{\n"
         ".reg .b32 %r<16>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<16>;\n.reg .pred %p<4>;\n"
         ".shared .align 128 .b8 tile[8192];\n"
         "ld.param.u64 %rd9, [out];\nld.param.u64 %rd5, [start];\n"
         "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.u64 %rd2, %rd9, %rd2;\n"
         // 64 bytes of 1.0 (f16 0x3c00) per thread: the whole tile
         // start counts from the tile: its address added
         "mov.u32 %r2, tile;\ncvt.u64.u32 %rd15, %r2;\nadd.u64 %rd5, %rd5, %rd15;\nshl.b32 %r3, %r1, 6;\nadd.u32 %r3, %r2, %r3;\nmov.u32 %r4, 0;\n"
         "FILL:\nst.shared.u32 [%r3], 0x3c003c00;\nadd.u32 %r3, %r3, 4;\nadd.u32 %r4, %r4, 1;\n"
         "setp.lt.u32 %p1, %r4, 16;\n@%p1 bra FILL;\n"
         "bar.sync 0;\nfence.proxy.async.shared::cta;\n"
         // descriptor: start address >> 4, leading byte offset 128, stride byte offset 256, no swizzle
         "shr.u64 %rd1, %rd5, 4;\nand.b64 %rd1, %rd1, 0x3fff;\nor.b64 %rd1, %rd1, 0x0000001000080000;\n" +
         std::string(accumulators ? "mov.f32 %f1, 0f40A00000;\nmov.f32 %f2, 0f40A00000;\nmov.f32 %f3, 0f40A00000;\n"
                                    "mov.f32 %f4, 0f40A00000;\nmov.f32 %f5, 0f40A00000;\nmov.f32 %f6, 0f40A00000;\n"
                                    "mov.f32 %f7, 0f40A00000;\nmov.f32 %f8, 0f40A00000;\n"
                                  : "") +
         "setp.eq.u32 %p2, %r1, %r1;\n"
         "wgmma.fence.sync.aligned;\n" +
         body + "\nret;\n}\n";
}

const char* kMma = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, %p2, 1, 1, 0, 0;\n";

// One warpgroup's launch of the kernel, with the async check or without it.
LaunchResult launch_with_async_check(Harness& h, uint64_t out, bool checked) {
  LaunchConfig c;
  c.grid = {1};
  c.block = {128};
  c.threads = 1;
  c.checks.async = checked;
  return h.module->launch("k", c, {arg(out), arg(uint64_t{0})});
}

// Reading the accumulators before the wait that retires them is undefined (§9.7.15.7.3), but
// ptxas then serializes the wgmma and the GPU gives the products (tests/kernels
// triton_imprecise90_*, which Triton's max_num_imprecise_acc emits); ptxvm does the same when the
// straight-line code up to the next wait names the registers, and the async check reports it.
TEST(Wgmma, AccumulatorsReadBeforeTheWaitHoldTheProductsAsPtxasSerializes) {  // §9.7.15.7.3
  for (const bool checked : {false, true}) {
    Harness h;
    h.load(wgmma_kernel(std::string(kMma) + kMma +  // a chain of two on the same accumulators
                        "wgmma.commit_group.sync.aligned;\n"
                        "st.global.f32 [%rd2], %f1;\n"  // before the wait
                        "wgmma.wait_group.sync.aligned 0;\n"
                        "st.global.f32 [%rd2+512], %f1;\nst.global.f32 [%rd2+1024], %f4;\n"));
    uint64_t out = h.buffer(std::vector<float>(384, -1.0f));
    auto run = launch_with_async_check(h, out, checked);
    ASSERT_TRUE(run.ok) << run.error;
    auto r = h.read<float>(out, 384);
    for (float v : r) EXPECT_EQ(v, 5.0f + 16 + 16);  // C + K, twice
    EXPECT_EQ(run.reports.empty(), !checked);
    if (checked) EXPECT_EQ(run.reports[0].kind, "register read before an asynchronous operation's completion");
  }
}

TEST(Wgmma, WaitGroupLeavesTheNewestGroupsPending) {  // §9.7.15.7.3
  Harness h;
  h.load(wgmma_kernel(std::string(kMma) + "wgmma.commit_group.sync.aligned;\n" +
                      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f5, %f6, %f7, %f8}, %rd1, %rd1, %p2, 1, 1, 0, 0;\n"
                      "wgmma.commit_group.sync.aligned;\n"
                      "wgmma.wait_group.sync.aligned 1;\nbar.sync 0;\n"
                      "st.global.f32 [%rd2], %f1;\nst.global.f32 [%rd2+512], %f5;\nbar.sync 0;\n"
                      "wgmma.wait_group.sync.aligned 0;\nst.global.f32 [%rd2+1024], %f5;\n"));
  uint64_t out = h.buffer(std::vector<float>(384, -1.0f));
  ASSERT_TRUE(h.launch("k", {1}, {128}, {arg(out), arg(uint64_t{0})}).ok);
  auto r = h.read<float>(out, 384);
  for (int t = 0; t < 128; ++t) {
    EXPECT_EQ(r[t], 21.0f) << t;
    EXPECT_EQ(r[128 + t], 5.0f) << t;  // the newest group is still pending
    EXPECT_EQ(r[256 + t], 21.0f) << t;
  }
}

TEST(Wgmma, ScaleDFalseIgnoresTheAccumulators) {  // §9.7.15.5.2
  Harness h;
  h.load(wgmma_kernel("setp.ne.u32 %p3, %r1, %r1;\n"
                      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, %p3, 1, 1, 0, 0;\n"
                      "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nst.global.f32 [%rd2], %f2;\n"));
  uint64_t out = h.buffer(std::vector<float>(128, -1.0f));
  ASSERT_TRUE(h.launch("k", {1}, {128}, {arg(out), arg(uint64_t{0})}).ok);
  for (float v : h.read<float>(out, 128)) EXPECT_EQ(v, 16.0f);
}

// CUTLASS's mainloops start with scale-d false on accumulators nothing wrote: the landing writes
// them, so initcheck takes them as defined (and reports a store of one never written).
TEST(Wgmma, AccumulatorsTheFirstMmaWritesAreDefined) {  // §9.7.15.5.2, §5.1.1
  for (const bool store_unwritten : {false, true}) {
    Harness h;
    h.load(wgmma_kernel("setp.ne.u32 %p3, %r1, %r1;\n"
                        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, %p3, 1, 1, 0, 0;\n"
                        "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nst.global.f32 [%rd2], " +
                            std::string(store_unwritten ? "%f5" : "%f2") + ";\n",
                        false));
    uint64_t out = h.buffer(std::vector<float>(128, -1.0f));
    LaunchConfig c;
    c.grid = {1};
    c.block = {128};
    c.checks = *Checks::parse("initcheck", nullptr);
    const LaunchResult r = h.module->launch("k", c, {arg(out), arg(uint64_t{0})});
    ASSERT_TRUE(r.ok) << r.error;
    if (store_unwritten) {
      ASSERT_FALSE(r.reports.empty());
      EXPECT_EQ(r.reports[0].kind, "uninitialised value stored to global memory");
    } else {
      std::string text;
      for (const CheckReport& rep : r.reports) text += rep.render("k");
      EXPECT_TRUE(r.reports.empty()) << text;
      for (float v : h.read<float>(out, 128)) EXPECT_EQ(v, 16.0f);
    }
  }
}

TEST(Wgmma, NegatedOperandsNegateTheProducts) {  // imm-scale-a = -1 (§9.7.15.5.2)
  Harness h;
  h.load(wgmma_kernel("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, %p2, -1, 1, 0, 0;\n"
                      "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nst.global.f32 [%rd2], %f3;\n"));
  uint64_t out = h.buffer(std::vector<float>(128, -1.0f));
  ASSERT_TRUE(h.launch("k", {1}, {128}, {arg(out), arg(uint64_t{0})}).ok);
  for (float v : h.read<float>(out, 128)) EXPECT_EQ(v, 5.0f - 16);
}

TEST(Wgmma, SparseASumsHalfOfK) {  // wgmma.mma_async.sp, 2:4 (§9.7.15.6.1, 002_fd7b654cd2816116.txt)
  Harness h;
  h.load(wgmma_kernel("mov.u32 %r5, 0x44444444;\n"
                      "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, %r5, 0, %p2, 1, 1, 0, 0;\n"
                      "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nst.global.f32 [%rd2], %f4;\n"));
  uint64_t out = h.buffer(std::vector<float>(128, -1.0f));
  ASSERT_TRUE(h.launch("k", {1}, {128}, {arg(out), arg(uint64_t{0})}).ok);
  for (float v : h.read<float>(out, 128)) EXPECT_EQ(v, 5.0f + 16);
}

// A write the straight-line code makes before the wait serializes the wgmma too (the async check
// reports it); one past a branch finds the operation still in flight, and is reported whatever the
// checks.
TEST(Wgmma, WritingTheAccumulatorsBeforeTheWaitIsReported) {  // §9.7.15.7.3
  Harness h;
  h.load(wgmma_kernel(std::string(kMma) + "wgmma.commit_group.sync.aligned;\n"
                      "setp.eq.u32 %p3, %r1, 70;\n@%p3 mov.f32 %f3, 0f00000000;\n"
                      "wgmma.wait_group.sync.aligned 0;\nst.global.f32 [%rd2], %f3;\n"));
  uint64_t out = h.buffer(std::vector<float>(128, -1.0f));
  auto r = launch_with_async_check(h, out, true);
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<float>(out, 128);
  for (int t = 0; t < 128; ++t) EXPECT_EQ(v[t], t == 70 ? 0.0f : 21.0f) << t;
  ASSERT_FALSE(r.reports.empty());
  EXPECT_EQ(r.reports[0].kind, "register written before an asynchronous operation's completion");
  Harness past_a_branch;
  past_a_branch.load(wgmma_kernel(std::string(kMma) + "wgmma.commit_group.sync.aligned;\nbra.uni NEXT;\nNEXT:\n"
                                  "setp.eq.u32 %p3, %r1, 70;\n@%p3 mov.f32 %f3, 0f00000000;\n"
                                  "wgmma.wait_group.sync.aligned 0;\n"));
  r = past_a_branch.launch("k", {1}, {128}, {arg(past_a_branch.buffer(std::vector<float>(128))), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("accumulator 2 of warp 2 lane 6 was written after the wgmma.mma_async"), std::string::npos)
      << r.error;
}

// Two chains interleaved, A1 B1 | A2: the write lands between the wait that retires A1 and B1
// and the one that retires A2, which reads the accumulators that A1 left there. The writer is in
// warp 0, the first to wait, or in warp 3, whose write follows the wait of warp 0 that landed A2
// for the whole warpgroup: warp 3's own wait, which retires A2 for it, finds the write.
TEST(Wgmma, WritingAccumulatorsAnInterleavedChainStillReadsIsReported) {  // §9.7.15.7.3
  for (const int writer : {6, 102}) {
    Harness h;
    h.load(wgmma_kernel(std::string(kMma) + "setp.ne.u32 %p0, %r1, %r1;\n"
                        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f5, %f6, %f7, %f8}, %rd1, %rd1, %p0, 1, 1, 0, 0;\n"
                        "wgmma.commit_group.sync.aligned;\n" + kMma + "wgmma.commit_group.sync.aligned;\n"
                        "bra.uni NEXT;\nNEXT:\nwgmma.wait_group.sync.aligned 1;\n"
                        "setp.eq.u32 %p3, %r1, " + std::to_string(writer) + ";\n@%p3 mov.f32 %f3, 0f00000000;\n"
                        "wgmma.wait_group.sync.aligned 0;\n"));
    const LaunchResult r = h.launch("k", {1}, {128}, {arg(h.buffer(std::vector<float>(128))), arg(uint64_t{0})});
    ASSERT_FALSE(r.ok) << writer;
    EXPECT_NE(r.error.find("accumulator 2 of warp " + std::to_string(writer / 32) + " lane 6 was written after the wgmma.mma_async"),
              std::string::npos)
        << r.error;
  }
}

// A warp that writes an operation's accumulators after another warp's wait landed it, before its
// own wait retires it for this warp: reported at that warp's wait whatever the checks.
TEST(Wgmma, WritingAccumulatorsBeforeTheWarpsOwnWaitIsReported) {  // §9.7.15.7.3
  Harness h;
  h.load(wgmma_kernel(std::string(kMma) + "wgmma.commit_group.sync.aligned;\n"
                      "setp.lt.u32 %p3, %r1, 32;\n@%p3 bra WAIT;\n"
                      "bar.sync 1, 128;\n"  // warps 1-3 write after warp 0 waited
                      "setp.eq.u32 %p3, %r1, 70;\n@%p3 mov.f32 %f3, 0f00000000;\n"
                      "bra.uni DONE;\nWAIT:\nwgmma.wait_group.sync.aligned 0;\nbar.arrive 1, 128;\nbra.uni END;\n"
                      "DONE:\nwgmma.wait_group.sync.aligned 0;\nEND:\n"));
  const LaunchResult r = h.launch("k", {1}, {128}, {arg(h.buffer(std::vector<float>(128))), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("accumulator 2 of warp 2 lane 6 was written after the wgmma.mma_async"), std::string::npos)
      << r.error;
}

TEST(Wgmma, DescriptorsDifferingAcrossTheWarpgroupAreReported) {  // §9.7.15.5.2
  Harness h;
  h.load(wgmma_kernel("setp.eq.u32 %p3, %r1, 100;\n@%p3 add.u64 %rd1, %rd1, 8;\n" + std::string(kMma)));
  uint64_t out = h.buffer(std::vector<float>(128, 0.0f));
  auto r = h.launch("k", {1}, {128}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("matrix descriptors of warp 3 lane 4 differ"), std::string::npos) << r.error;
}

TEST(Wgmma, WarpsMeetingAtDifferentInstructionsAreReported) {  // .aligned (§9.7.15)
  Harness h;
  h.load(wgmma_kernel("setp.lt.u32 %p3, %r1, 64;\n@%p3 bra FIRST;\n" + std::string(kMma) +
                      "bra.uni DONE;\nFIRST:\n" + kMma + "DONE:\n"));
  uint64_t out = h.buffer(std::vector<float>(128, 0.0f));
  auto r = h.launch("k", {1}, {128}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("while its warpgroup waits at"), std::string::npos) << r.error;
}

TEST(Wgmma, FenceCommitAndWaitAreAlignedToo) {  // §9.7.15.7
  for (const char* inst : {"wgmma.fence.sync.aligned;", "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;"}) {
    Harness h;
    h.load(wgmma_kernel("setp.ne.u32 %p3, %r1, 37;\n@%p3 " + std::string(inst) + "\n"));
    auto r = h.launch("k", {1}, {128}, {arg(h.buffer(std::vector<float>(128))), arg(uint64_t{0})});
    ASSERT_FALSE(r.ok) << inst;
    EXPECT_NE(r.error.find("lane 5 does not (§9.7.15.7)"), std::string::npos) << r.error;
  }
}

TEST(Wgmma, AWarpgroupIsFourFullWarps) {  // §9.7.15.2
  Harness h;
  h.load(wgmma_kernel(std::string(kMma) + "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n"));
  uint64_t out = h.buffer(std::vector<float>(128, 0.0f));
  auto r = h.launch("k", {1}, {96}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("needs a warpgroup of four full warps"), std::string::npos) << r.error;
}

TEST(Wgmma, EveryThreadOfTheWarpgroupExecutesIt) {  // .aligned (§9.7.15)
  Harness h;
  h.load(wgmma_kernel("setp.ne.u32 %p3, %r1, 7;\n@%p3 " + std::string(kMma)));
  uint64_t out = h.buffer(std::vector<float>(128, 0.0f));
  auto r = h.launch("k", {1}, {128}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("lane 7 does not"), std::string::npos) << r.error;
}

TEST(Wgmma, ADescriptorOutsideSharedMemoryIsReported) {  // §9.7.15.5.1
  Harness h;
  h.load(wgmma_kernel(std::string(kMma) + "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n"));
  uint64_t out = h.buffer(std::vector<float>(128, 0.0f));
  auto r = h.launch("k", {1}, {128}, {arg(out), arg(uint64_t{200000})});  // start past the 8 KiB tile
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("outside the CTA's"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("wgmma.wait_group"), std::string::npos) << r.error;  // where the operation lands
}

}  // namespace
}  // namespace ptxvm::test
