// The CTA barrier unit (src/units/barrier): bar/barrier .sync, .arrive and .red (PTX §9.7.13.1,
// 001_23fdd5978b24a3ed.txt).
#include <gtest/gtest.h>

#include "harness.h"

namespace ptxvm::test {
namespace {

const char* kTid =
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "mul.wide.u32 %rd1, %r4, 16;\nadd.s64 %rd2, %rd_out, %rd1;\n";

TEST(Sync, BarRedEveryOpAndForm) {
  // p = (tid % 7 == 3) in CTAs of 224 threads (7 warps), so the counts per
  // CTA are known; warps reach the barrier at different times after loops of different length.
  Harness h;
  h.load(kernel_ptx(std::string(kTid) +
                    "rem.u32 %r5, %r1, 7;\nsetp.eq.u32 %p1, %r5, 3;\nsetp.lt.u32 %p2, %r1, 1000;\n"
                    "shr.u32 %r6, %r1, 5;\nmov.u32 %r7, 0;\nLOOP:\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p3, %r7, %r6;\n@%p3 bra LOOP;\n"
                    "bar.red.popc.u32 %r8, 0, %p1;\n"
                    "bar.red.and.pred %p4, 1, %p2;\n"
                    "bar.red.or.pred %p5, 2, !%p2;\n"
                    "barrier.red.or.pred %p6, 3, %p1;\n"
                    "barrier.red.and.aligned.pred %p7, 4, %p1;\n"
                    "barrier.cta.red.popc.aligned.u32 %r9, 5, 224, !%p1;\n"
                    "bar.red.popc.u32 %r10, 0, %p1;\n"  // barrier 0 again: a second generation
                    "selp.u32 %r11, 1, 0, %p4;\nselp.u32 %r12, 2, 0, %p5;\nselp.u32 %r13, 4, 0, %p6;\n"
                    "selp.u32 %r14, 8, 0, %p7;\nor.b32 %r11, %r11, %r12;\nor.b32 %r11, %r11, %r13;\n"
                    "or.b32 %r11, %r11, %r14;\nst.global.v4.u32 [%rd2], {%r8, %r9, %r10, %r11};\n"));
  const uint32_t ctas = 6, threads = 224;
  uint64_t out = h.buffer(std::vector<uint32_t>(ctas * threads * 4, 0));
  auto r = h.launch("k", {ctas}, {threads}, {arg(out), arg(uint64_t{0})}, 3);
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, ctas * threads * 4);
  uint32_t popc = 0;
  for (uint32_t t = 0; t < threads; ++t) popc += t % 7 == 3;
  for (uint32_t i = 0; i < ctas * threads; ++i) {
    EXPECT_EQ(v[i * 4], popc) << i;
    EXPECT_EQ(v[i * 4 + 1], threads - popc) << i;
    EXPECT_EQ(v[i * 4 + 2], popc) << i;
    EXPECT_EQ(v[i * 4 + 3], 1u | 4u) << i;  // and of true; or of false; or of p; and of p is false
  }
}

TEST(Sync, BarrierWithThreadCountAndArrive) {
  // Warps 0 and 1 produce, then bar.arrive 1, 96; warp 2 waits with bar.sync 1, 96 and reads
  // what they wrote. Warp 3 does not take part in barrier 1.
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
         ".shared .align 4 .b32 s[64];\n"
         "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 5;\nand.b32 %r3, %r1, 63;\n"
         "mul.wide.u32 %rd2, %r3, 4;\nmov.u64 %rd3, s;\nadd.s64 %rd4, %rd3, %rd2;\n"
         "setp.eq.u32 %p1, %r2, 3;\n@%p1 bra END;\nsetp.eq.u32 %p2, %r2, 2;\n@%p2 bra CONSUME;\n"
         "mul.lo.s32 %r4, %r1, 3;\nst.shared.u32 [%rd4], %r4;\nbar.arrive 1, 96;\nbra END;\n"
         "CONSUME:\nbarrier.sync 1, 96;\nld.shared.u32 %r5, [%rd4];\nadd.s64 %rd5, %rd1, %rd2;\n"
         "st.global.u32 [%rd5], %r5;\nld.shared.u32 %r6, [%rd4+128];\nst.global.u32 [%rd5+128], %r6;\n"
         "END:\nbar.sync 0;\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(64, 0));
  auto r = h.launch("k", {1}, {128}, {arg(out)});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 64);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(v[i], i * 3) << i;
}

TEST(BarrierUnit, ExitsCompleteABarRedAndItsThreadsReceiveTheReduction) {  // §9.7.13.1
  // Warp 0 reaches bar.red while warp 1 has not exited: the barrier waits for all 64 threads.
  // Warp 1's exit completes it; warp 0's threads then hold the reduction over their 32 arrivals.
  Harness h;
  h.load(kernel_ptx("mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n@%p1 bra DONE;\n"
                    "and.b32 %r2, %r1, 3;\nsetp.eq.u32 %p2, %r2, 0;\n"
                    "bar.red.popc.u32 %r3, 0, %p2;\nbar.red.and.pred %p3, 1, %p2;\nselp.u32 %r4, 1, 0, %p3;\n"
                    "mul.wide.u32 %rd1, %r1, 8;\nadd.u64 %rd2, %rd_out, %rd1;\nst.global.v2.u32 [%rd2], {%r3, %r4};\n"
                    "DONE:"));
  uint64_t out = h.buffer(std::vector<uint32_t>(64, 99));
  ASSERT_TRUE(h.launch("k", {1}, {64}, {arg(out), arg(uint64_t{0})}).ok);
  auto r = h.read<uint32_t>(out, 64);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(r[2 * t], 8u) << t;  // tid % 4 == 0 for 8 of the 32 arrivals
    EXPECT_EQ(r[2 * t + 1], 0u) << t;
  }
}

}  // namespace
}  // namespace ptxvm::test
