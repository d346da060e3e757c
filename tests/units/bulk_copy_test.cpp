// Bulk asynchronous copies (src/units/bulk_copy, PTX §9.7.9.25.4, 001_23fdd5978b24a3ed.txt):
// global -> shared completing on an mbarrier, shared -> global on a bulk async-group, prefetch, and
// the rules ptxvm reports. The bytes are exact; these tests fix when they move.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness.h"

namespace ptxvm::test {
namespace {

// `body` run by 64 threads over `.shared .b64 bar` and `.shared buf[256]`; `in` holds 64 words
// 0x1000 + i; returns the first `n` words of out (64 words of 0xffffffff before the launch).
LaunchResult run(const std::string& body, std::vector<uint32_t>* out_words, const std::string& target = "sm_90") {
  Harness h;
  h.load(kernel_ptx(".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[256];\n"
                    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %rd_out, %rd1;\n"
                    "mov.u32 %r20, bar;\nmov.u32 %r21, buf;\nshl.b32 %r22, %r1, 2;\nadd.u32 %r23, %r21, %r22;\n"
                    "setp.eq.u32 %p1, %r1, 0;\n" + body, target));
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = 0x1000 + i;
  uint64_t out = h.buffer(std::vector<uint32_t>(64, 0xffffffffu)), din = h.buffer(in);
  auto r = h.launch("k", {1}, {64}, {arg(out), arg(din)});
  if (out_words) *out_words = h.read<uint32_t>(out, 64);
  return r;
}

// Thread 0 expects 256 bytes on the barrier and starts the copy; every thread reads its word of
// buf before waiting (undefined: ptxvm still shows the old zero) and after.
TEST(BulkCopy, GlobalToSharedLandsWhenTheBarrierPhaseIsObserved) {  // §9.7.9.25.4.1
  std::vector<uint32_t> out;
  auto r = run(R"(
    st.shared.u32 [%r23], 0;
    @%p1 mbarrier.init.shared::cta.b64 [bar], 1;
    bar.sync 0;
    @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 256;
    @%p1 cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [buf], [%rd_in], 256, [bar];
    ld.shared.u32 %r2, [%r23];
    bar.sync 0;
  WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
    @!%p2 bra WAIT;
    ld.shared.u32 %r3, [%r23];
    add.u32 %r4, %r2, %r3;
    st.global.u32 [%rd2], %r4;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], 0x1000 + t) << t;
}

// The .shared::cluster destination of a CTA outside any cluster is its own shared memory.
TEST(BulkCopy, SharedClusterDestinationIsTheCtasOwn) {  // §9.7.9.25.4.1
  std::vector<uint32_t> out;
  auto r = run(R"(
    @%p1 mbarrier.init.shared.b64 [bar], 1;
    bar.sync 0;
    @%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], 128;
    @%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd_in], 128, [bar];
  WAIT:
    mbarrier.try_wait.parity.shared.b64 %p2, [bar], 0;
    @!%p2 bra WAIT;
    setp.lt.u32 %p3, %r1, 32;
    @%p3 ld.shared.u32 %r3, [%r23];
    @%p3 st.global.u32 [%rd2], %r3;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], 0x1000 + t) << t;
  EXPECT_EQ(out[32], 0xffffffffu);
}

// Shared -> global on a bulk group: the global bytes change at the wait that retires the group,
// and the copy reads its source then, so a write to buf before the wait shows (undefined).
TEST(BulkCopy, SharedToGlobalLandsAtTheWaitThatRetiresItsGroup) {  // §9.7.9.25.4.1, §9.7.9.25.6
  std::vector<uint32_t> out;
  auto r = run(R"(
    add.u32 %r4, %r1, 7;
    st.shared.u32 [%r23], %r4;
    fence.proxy.async.shared::cta;
    bar.sync 0;
    @%p1 cp.async.bulk.global.shared::cta.bulk_group [%rd_out], [buf], 256;
    @%p1 cp.async.bulk.commit_group;
    @%p1 ld.global.u32 %r5, [%rd_out];
    @%p1 st.shared.u32 [%r23+4], 99;
    @%p1 cp.async.bulk.wait_group.read 0;
    @%p1 st.global.u32 [%rd_out+252], %r5;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(out[0], 7u);
  EXPECT_EQ(out[1], 99u);  // the source as it was at the wait
  for (uint32_t t = 2; t < 63; ++t) EXPECT_EQ(out[t], t + 7) << t;
  EXPECT_EQ(out[63], 0xffffffffu);  // thread 0's read before the wait: the old global word
}

// .cp_mask (sm_100): bit i of byteMask copies byte i of every 16-byte chunk; the other bytes of
// the destination keep what they held.
TEST(BulkCopy, ByteMaskCopiesTheBytesItsBitsName) {  // §9.7.9.25.4.1
  std::vector<uint32_t> out;
  auto r = run(R"(
    mul.lo.u32 %r4, %r1, 0x01010101;
    add.u32 %r4, %r4, 0x40302010;
    st.shared.u32 [%r23], %r4;
    fence.proxy.async.shared::cta;
    bar.sync 0;
    mov.u16 %h1, 0x8421;
    @%p1 cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd_out], [buf], 256, %h1;
    @%p1 cp.async.bulk.commit_group;
    @%p1 cp.async.bulk.wait_group 0;
  )", &out, "sm_100a");
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t source = t * 0x01010101u + 0x40302010u;
    uint32_t expect = 0;
    for (uint32_t b = 0; b < 4; ++b) {
      const uint32_t byte = 4 * t + b;
      expect |= (0x8421u >> byte % 16 & 1 ? source >> 8 * b & 0xff : 0xffu) << 8 * b;
    }
    EXPECT_EQ(out[t], expect) << t;
  }
}

// cp.reduce.async.bulk .add into global memory as an H200 does it (tests/hw/bulk_reduce): f32
// subnormals kept, not flushed as atom.global.add.f32 flushes them, NaNs canonical; f64 NaNs as
// atom.global.add.f64 leaves them (the source's unchanged, else the destination's).
TEST(BulkCopy, ReductionsAddAsTheH200Does) {  // §9.7.9.25.4.2
  std::ifstream f((std::filesystem::path(__FILE__).parent_path() / "../hw/bulk_reduce/records.txt").string());
  size_t cases = 0;
  for (std::string line; std::getline(f, line);) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    if (name.rfind("add.", 0) != 0) continue;
    const bool f64 = name.find("f64") != std::string::npos;
    std::vector<uint64_t> dst, src, gpu;
    for (std::string w; words >> w;) {
      dst.push_back(std::stoull(w.substr(0, w.find(':')), nullptr, 16));
      src.push_back(std::stoull(w.substr(w.find(':') + 1, w.rfind(':') - w.find(':') - 1), nullptr, 16));
      gpu.push_back(std::stoull(w.substr(w.rfind(':') + 1), nullptr, 16));
    }
    const std::string t = f64 ? "64" : "32", bytes = std::to_string(dst.size() * (f64 ? 8 : 4));
    Harness h;
    h.load(kernel_ptx(".shared .align 16 .b8 buf[512];\n.reg .b64 %v;\n"
                      "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, " + std::to_string(f64 ? 8 : 4) + ";\n"
                      "add.s64 %rd2, %rd_in, %rd1;\nld.global.b" + t + " " + (f64 ? "%v" : "%r2") + ", [%rd2];\n"
                      "mov.u32 %r3, buf;\ncvt.u32.u64 %r4, %rd1;\nadd.u32 %r3, %r3, %r4;\n"
                      "st.shared.b" + t + " [%r3], " + (f64 ? "%v" : "%r2") + ";\nfence.proxy.async.shared::cta;\nbar.sync 0;\n"
                      "setp.eq.u32 %p1, %r1, 0;\n"
                      "@%p1 cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f" + t + " [%rd_out], [buf], " + bytes + ";\n"
                      "@%p1 cp.async.bulk.commit_group;\n@%p1 cp.async.bulk.wait_group 0;\n",
                      "sm_90"));
    std::vector<uint8_t> d(dst.size() * (f64 ? 8 : 4)), sv(d.size());
    for (size_t i = 0; i < dst.size(); ++i) {
      std::memcpy(&d[i * (f64 ? 8 : 4)], &dst[i], f64 ? 8 : 4);
      std::memcpy(&sv[i * (f64 ? 8 : 4)], &src[i], f64 ? 8 : 4);
    }
    const uint64_t out = h.buffer(d), in = h.buffer(sv);
    auto r = h.launch("k", {1}, {static_cast<uint32_t>(dst.size())}, {arg(out), arg(in)});
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<uint8_t> got = h.read<uint8_t>(out, d.size());
    for (size_t i = 0; i < dst.size(); ++i) {
      uint64_t v = 0;
      std::memcpy(&v, &got[i * (f64 ? 8 : 4)], f64 ? 8 : 4);
      EXPECT_EQ(v, gpu[i]) << name << " element " << i << ": " << std::hex << dst[i] << " + " << src[i];
    }
    ++cases;
  }
  EXPECT_EQ(cases, 2u);
}

// A reduction into shared memory completes on an mbarrier, combining each element then.
TEST(BulkCopy, ReductionIntoSharedMemoryCompletesOnTheBarrier) {  // §9.7.9.25.4.2
  std::vector<uint32_t> out;
  auto r = run(R"(
    st.shared.u32 [%r23], %r1;
    @%p1 mbarrier.init.shared.b64 [bar], 1;
    bar.sync 0;
    @%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], 128;
    @%p1 cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [buf+128], [buf], 128, [bar];
  WAIT:
    mbarrier.try_wait.parity.shared.b64 %p2, [bar], 0;
    @!%p2 bra WAIT;
    ld.shared.u32 %r3, [%r23];
    st.global.u32 [%rd2], %r3;
  )", &out);
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], t) << t;
  for (uint32_t t = 32; t < 64; ++t) EXPECT_EQ(out[t], t + (t - 32)) << t;  // buf[t] += buf[t - 32]
}

TEST(BulkCopy, MisalignedAddressesAndSizesAreReported) {  // §9.7.9.25.4.1
  std::string body = "@%p1 mbarrier.init.shared.b64 [bar], 1;\n";
  auto r = run(body + "@%p1 cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [buf], [%rd_in], 24, [bar];\n", nullptr);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("size 24 is not a multiple of 16"), std::string::npos) << r.error;
  r = run(body + "add.s64 %rd5, %rd_in, 8;\n@%p1 cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [buf], [%rd5], 16, [bar];\n",
          nullptr);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("is not 16-byte aligned"), std::string::npos) << r.error;
  r = run("@%p1 cp.async.bulk.prefetch.L2.global [%rd_in], 512;\n", nullptr);  // past the 256-byte input
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("out-of-bounds"), std::string::npos) << r.error;
}

// A copy that completes on an address holding no mbarrier object is undefined.
TEST(BulkCopy, CompletingOnAnInvalidatedBarrierIsReported) {  // §9.7.13.15
  auto r = run(R"(
    @%p1 mbarrier.init.shared.b64 [bar], 1;
    @%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], 16;
    @%p1 cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [buf], [%rd_in], 16, [bar];
    @%p1 mbarrier.inval.shared.b64 [bar];
    @%p1 mbarrier.init.shared.b64 [bar], 1;
    @%p1 mbarrier.inval.shared.b64 [bar];
  WAIT:
    @%p1 mbarrier.try_wait.parity.shared.b64 %p2, [bar], 0;
  )", nullptr);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("completes on shared address 1024, which no longer holds an initialized mbarrier"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ptxvm::test
