// Stack manipulation (PTX §9.7.17, 000_70a4b524dfe259fa.txt): alloca returns aligned,
// per-thread local memory; stacksave/stackrestore free it; misuse faults.
#include <gtest/gtest.h>

#include "harness.h"

namespace ptxvm::test {
namespace {

TEST(Stack, AllocaSaveRestorePerThread) {
  // Each thread allocates blocks of thread-dependent size, fills them, checks alignment, frees
  // them with stackrestore, and allocates again at the same place.
  Harness h;
  h.load(kernel_ptx(
      "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 64;\nadd.s64 %rd2, %rd_out, %rd1;\n"
      "stacksave.u64 %rd3;\n"
      "mul.wide.u32 %rd4, %r1, 4;\nadd.s64 %rd4, %rd4, 4;\n"  // size 4*tid+4
      "alloca.u64 %rd5, %rd4, 16;\nalloca.u64 %rd6, 8;\nalloca.u64 %rd7, 1, 256;\n"
      "st.local.u32 [%rd5], %r1;\nadd.s64 %rd8, %rd5, %rd4;\nst.local.u32 [%rd8+-4], %r1;\n"
      "st.local.u64 [%rd6], %rd4;\nst.local.u8 [%rd7], 0x5a;\n"
      "cvta.local.u64 %rd9, %rd5;\nld.u32 %r2, [%rd9];\nld.local.u64 %rd10, [%rd6];\nld.local.u8 %r3, [%rd7];\n"
      "stackrestore.u64 %rd3;\nstacksave.u64 %rd12;\nalloca.u64 %rd13, %rd4, 16;\n"
      "stacksave.u32 %r4;\nalloca.u32 %r5, 12;\nst.local.u32 [%r5+8], 9;\nld.local.u32 %r6, [%r5+8];\n"
      "stackrestore.u32 %r4;\n"
      "and.b64 %rd14, %rd5, 15;\nand.b64 %rd15, %rd7, 255;\nsub.s64 %rd16, %rd12, %rd3;\nsub.s64 %rd17, %rd13, %rd5;\n"
      "sub.s64 %rd18, %rd6, %rd5;\n"
      "st.global.v2.u32 [%rd2], {%r2, %r3};\nst.global.u64 [%rd2+8], %rd10;\nst.global.u64 [%rd2+16], %rd14;\n"
      "st.global.u64 [%rd2+24], %rd15;\nst.global.u64 [%rd2+32], %rd16;\nst.global.u64 [%rd2+40], %rd17;\n"
      "st.global.u64 [%rd2+48], %rd18;\n"
      "st.global.u32 [%rd2+60], %r6;\n"));
  const uint32_t n = 40;
  uint64_t out = h.buffer(std::vector<uint64_t>(n * 8, 0));
  auto r = h.launch("k", {2}, {n}, {arg(out), arg(uint64_t{0})}, 2);
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint64_t>(out, n * 8);
  for (uint32_t t = 0; t < n; ++t) {
    const uint64_t* e = &v[t * 8];
    EXPECT_EQ(e[0], t | uint64_t{0x5a} << 32) << t;
    EXPECT_EQ(e[1], 4ull * t + 4) << t;
    EXPECT_EQ(e[2], 0u) << t;  // 16-byte aligned
    EXPECT_EQ(e[3], 0u) << t;  // 256-byte aligned
    EXPECT_EQ(e[4], 0u) << t;  // stackrestore restored the saved pointer
    EXPECT_EQ(e[5], 0u) << t;  // the same request lands at the same place again
    EXPECT_GE(e[6], 4ull * t + 4) << t;  // blocks do not overlap
    EXPECT_EQ(e[7] >> 32, 9u) << t;
  }
}

TEST(Stack, AllocaReleasedWhenTheFunctionReturns) {
  // §9.7.17.3: alloca memory "is automatically deallocated when the function exits". f allocates
  // 64 bytes and returns the pointer; after the call the caller's stack pointer is where it was,
  // and an access through the returned pointer is out of bounds.
  const std::string ptx =
      ".version 8.7\n.target sm_90\n.address_size 64\n"
      ".func (.param .u64 r) f()\n{\n.reg .b64 %rd<4>;\nalloca.u64 %rd1, 64;\nst.local.u32 [%rd1], 7;\n"
      "st.param.u64 [r], %rd1;\nret;\n}\n"
      ".visible .entry k(.param .u64 out, .param .u32 touch)\n{\n.reg .b64 %rd<8>;\n.reg .b32 %r<4>;\n"
      ".reg .pred %p<2>;\nld.param.u64 %rd1, [out];\nld.param.u32 %r1, [touch];\n"
      "stacksave.u64 %rd2;\n{\n.param .u64 ret0;\ncall (ret0), f, ();\nld.param.u64 %rd3, [ret0];\n}\n"
      "stacksave.u64 %rd4;\nsub.s64 %rd5, %rd4, %rd2;\nst.global.u64 [%rd1], %rd5;\n"
      "setp.ne.u32 %p1, %r1, 0;\n@%p1 ld.local.u32 %r2, [%rd3];\nret;\n}\n";
  Harness h;
  h.load(ptx);
  uint64_t out = h.buffer(std::vector<uint64_t>(1, 99));
  auto r = h.launch("k", {1}, {1}, {arg(out), arg(uint32_t{0})});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint64_t>(out, 1)[0], 0u);  // the stack pointer is back
  auto bad = h.launch("k", {1}, {1}, {arg(out), arg(uint32_t{1})});
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.error.find("out-of-bounds 4-byte local"), std::string::npos) << bad.error;
}

TEST(Stack, MisuseFaults) {
  struct Case {
    const char* body;
    const char* expect;
  };
  for (const Case& c :
       {Case{"stacksave.u64 %rd1;\nalloca.u64 %rd2, 16;\nstackrestore.u64 %rd1;\nst.local.u32 [%rd2], 1;",
             "out-of-bounds 4-byte local"},
        Case{"alloca.u64 %rd2, 0x10000000;", "overflows"},
        Case{"stacksave.u64 %rd1;\nadd.s64 %rd1, %rd1, 64;\nstackrestore.u64 %rd1;", "stackrestore to local address"},
        Case{"alloca.u64 %rd2, 8;\nst.local.u32 [%rd2+8], 1;", "out-of-bounds 4-byte local"}}) {
    Harness h;
    h.load(kernel_ptx(c.body));
    auto r = h.launch("k", {1}, {1}, {arg(uint64_t{0}), arg(uint64_t{0})});
    EXPECT_FALSE(r.ok) << c.body;
    EXPECT_NE(r.error.find(c.expect), std::string::npos) << r.error;
  }
  Device dev;
  std::string diags;
  EXPECT_FALSE(dev.load_module(kernel_ptx("alloca.u64 %rd2, 8, 12;"), "t.ptx", &diags));
  EXPECT_NE(diags.find("power of two"), std::string::npos) << diags;
}

}  // namespace
}  // namespace ptxvm::test
