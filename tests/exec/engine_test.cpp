// The SIMT engine: thread indexing, divergence and reconvergence, barriers, forward progress,
// calls, and guest faults that stop a launch with a report (PTX §2, §3, §9.7.12, §9.7.13).
#include <gtest/gtest.h>

#include <numeric>

#include "harness.h"

namespace ptxvm::test {
namespace {

// out[global thread id] = f(...): the common prologue.
const char* kTid =
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
    "mad.lo.s32 %r4, %r2, %r3, %r1;\nmul.wide.u32 %rd1, %r4, 4;\nadd.s64 %rd2, %rd_out, %rd1;\n";

TEST(Engine, ThreadAndBlockIndices) {  // §10.1–§10.7
  Harness h;
  h.load(kernel_ptx(std::string(kTid) +
                    "mov.u32 %r5, %tid.y;\nmov.u32 %r6, %ctaid.y;\nmov.u32 %r7, %nctaid.x;\n"
                    "mul.lo.s32 %r8, %r6, 1000;\nadd.s32 %r8, %r8, %r5;\nmul.lo.s32 %r9, %r7, 100000;\n"
                    "add.s32 %r8, %r8, %r9;\nmov.u32 %r10, %ntid.x;\nmov.u32 %r11, %tid.y;\n"
                    "mad.lo.s32 %r12, %r11, %r10, %r1;\nmov.u32 %r13, %ctaid.y;\nmov.u32 %r14, %nctaid.x;\n"
                    "mad.lo.s32 %r15, %r13, %r14, %r2;\nmov.u32 %r16, %ntid.y;\nmul.lo.s32 %r17, %r10, %r16;\n"
                    "mad.lo.s32 %r18, %r15, %r17, %r12;\nmul.wide.u32 %rd3, %r18, 4;\nadd.s64 %rd4, %rd_out, %rd3;\n"
                    "st.global.u32 [%rd4], %r8;"));
  uint64_t out = h.buffer(std::vector<uint32_t>(2 * 3 * 8 * 4, 0));
  ASSERT_TRUE(h.launch("k", {2, 3, 1}, {8, 4, 1}, {arg(out), arg(uint64_t{0})}).ok);
  auto v = h.read<uint32_t>(out, 2 * 3 * 8 * 4);
  for (uint32_t by = 0; by < 3; ++by)
    for (uint32_t bx = 0; bx < 2; ++bx)
      for (uint32_t ty = 0; ty < 4; ++ty)
        for (uint32_t tx = 0; tx < 8; ++tx) {
          uint32_t linear = (by * 2 + bx) * 32 + ty * 8 + tx;
          EXPECT_EQ(v[linear], 200000 + by * 1000 + ty) << linear;
        }
}

TEST(Engine, DivergentBranchesReconverge) {
  // Odd lanes take a loop of lane-dependent length; all lanes then meet at a warp shuffle,
  // which needs every lane of the warp (§9.7.9.6).
  Harness h;
  h.load(kernel_ptx(std::string(kTid) +
                    "and.b32 %r5, %r1, 1;\nmov.u32 %r6, 0;\nsetp.eq.u32 %p1, %r5, 0;\n@%p1 bra EVEN;\n"
                    "mov.u32 %r7, 0;\nLOOP:\nadd.s32 %r6, %r6, %r1;\nadd.s32 %r7, %r7, 1;\n"
                    "setp.lt.u32 %p2, %r7, %r1;\n@%p2 bra LOOP;\nbra JOIN;\nEVEN:\nmov.u32 %r6, 7;\n"
                    "JOIN:\nshfl.sync.bfly.b32 %r8, %r6, 1, 31, -1;\nadd.s32 %r9, %r6, %r8;\n"
                    "st.global.u32 [%rd2], %r9;"));
  uint64_t out = h.buffer(std::vector<uint32_t>(32, 0));
  ASSERT_TRUE(h.launch("k", {1}, {32}, {arg(out), arg(uint64_t{0})}).ok);
  auto v = h.read<uint32_t>(out, 32);
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t odd = (l | 1) * (l | 1);  // the odd lane of the pair sums its id id times
    EXPECT_EQ(v[l], 7 + odd) << l;
  }
}

TEST(Engine, BarrierOrdersSharedMemory) {  // §9.7.13.1
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
         ".shared .align 4 .b32 s[256];\n"
         "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
         "mov.u64 %rd3, s;\nadd.s64 %rd4, %rd3, %rd2;\nst.shared.u32 [%rd4], %r1;\nbar.sync 0;\n"
         "sub.s32 %r2, 255, %r1;\nmul.wide.u32 %rd5, %r2, 4;\nadd.s64 %rd6, %rd3, %rd5;\n"
         "ld.shared.u32 %r3, [%rd6];\nadd.s64 %rd7, %rd1, %rd2;\nst.global.u32 [%rd7], %r3;\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(256, 0));
  ASSERT_TRUE(h.launch("k", {1}, {256}, {arg(out)}).ok);
  auto v = h.read<uint32_t>(out, 256);
  for (uint32_t i = 0; i < 256; ++i) EXPECT_EQ(v[i], 255 - i);
}

TEST(Engine, SpinWaitOnAnotherWarpMakesProgress) {
  // Warp 1 waits for a flag that warp 0 sets after a long loop: time slicing must let warp 0 run.
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<4>;\n"
         ".shared .align 4 .b32 flag;\n"
         "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n@%p1 bra WAIT;\n"
         "mov.u32 %r2, 0;\nWORK:\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p2, %r2, 20000;\n@%p2 bra WORK;\n"
         "st.volatile.shared.u32 [flag], %r2;\nbra DONE;\n"
         "WAIT:\nld.volatile.shared.u32 %r3, [flag];\nsetp.eq.u32 %p3, %r3, 0;\n@%p3 bra WAIT;\n"
         "st.global.u32 [%rd1], %r3;\nDONE:\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(1, 0));
  LaunchResult r = h.launch("k", {1}, {64}, {arg(out)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint32_t>(out, 1)[0], 20000u);
}

TEST(Engine, SpinWaitWithinOneWarpMakesProgress) {
  // Lane 1 waits for lane 0 of the same warp (independent thread scheduling, sm_70+).
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<4>;\n"
         ".shared .align 4 .b32 flag;\n"
         "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 1;\n@%p1 bra WAIT;\n"
         "setp.ne.u32 %p2, %r1, 0;\n@%p2 bra DONE;\n"
         "mov.u32 %r2, 0;\nWORK:\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p3, %r2, 10000;\n@%p3 bra WORK;\n"
         "st.volatile.shared.u32 [flag], %r2;\nbra DONE;\n"
         "WAIT:\nld.volatile.shared.u32 %r3, [flag];\nsetp.eq.u32 %p3, %r3, 0;\n@%p3 bra WAIT;\n"
         "st.global.u32 [%rd1], %r3;\nDONE:\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(1, 0));
  LaunchResult r = h.launch("k", {1}, {32}, {arg(out)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint32_t>(out, 1)[0], 10000u);
}

TEST(Engine, SpinWaitOnAnotherCtaMakesProgress) {
  // CTA 0 waits for a flag in global memory that the last CTA sets: resident CTAs interleave.
  Harness h;
  h.load(kernel_ptx("mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nsetp.ne.u32 %p1, %r2, 0;\n@%p1 bra DONE;\n"
                    "mov.u32 %r3, %nctaid.x;\nsub.s32 %r3, %r3, 1;\nsetp.eq.u32 %p2, %r1, %r3;\n@%p2 bra SET;\n"
                    "setp.ne.u32 %p3, %r1, 0;\n@%p3 bra DONE;\n"
                    "WAIT:\nld.volatile.global.u32 %r4, [%rd_out];\nsetp.eq.u32 %p4, %r4, 0;\n@%p4 bra WAIT;\n"
                    "st.global.u32 [%rd_out+4], %r4;\nbra DONE;\n"
                    "SET:\nst.volatile.global.u32 [%rd_out], 77;\nDONE:"));
  for (bool cooperative : {false, true}) {
    uint64_t out = h.buffer(std::vector<uint32_t>(2, 0));
    LaunchConfig c;
    c.grid = {8};
    c.block = {32};
    c.threads = 1;
    c.cooperative = cooperative;
    c.step_limit = 10'000'000;
    LaunchResult r = h.module->launch("k", c, {arg(out), arg(uint64_t{0})});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(h.read<uint32_t>(out, 2)[1], 77u);
  }
}

TEST(Engine, RecursiveCallsAndIndirectCalls) {  // §9.7.12.5, §7
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".func (.param .b32 r) fib(.param .b32 n)\n{\n.reg .b32 %r<8>;\n.reg .pred %p1;\n"
         "ld.param.b32 %r1, [n];\nsetp.lt.s32 %p1, %r1, 2;\n@%p1 bra BASE;\n"
         "sub.s32 %r2, %r1, 1;\n{\n.param .b32 a;\n.param .b32 b;\nst.param.b32 [a], %r2;\n"
         "call (b), fib, (a);\nld.param.b32 %r3, [b];\n}\n"
         "sub.s32 %r4, %r1, 2;\n{\n.param .b32 a;\n.param .b32 b;\nst.param.b32 [a], %r4;\n"
         "call (b), fib, (a);\nld.param.b32 %r5, [b];\n}\n"
         "add.s32 %r1, %r3, %r5;\nBASE:\nst.param.b32 [r], %r1;\nret;\n}\n"
         ".func (.param .b32 r) twice(.param .b32 n)\n{\n.reg .b32 %r1;\nld.param.b32 %r1, [n];\n"
         "shl.b32 %r1, %r1, 1;\nst.param.b32 [r], %r1;\nret;\n}\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"
         "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
         "{\n.param .b32 a;\n.param .b32 b;\nst.param.b32 [a], %r1;\ncall (b), fib, (a);\n"
         "ld.param.b32 %r2, [b];\n}\n"
         "mov.u64 %rd2, twice;\n{\n.param .b32 a;\n.param .b32 b;\nst.param.b32 [a], %r2;\n"
         "p: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (b), %rd2, (a), p;\n"
         "ld.param.b32 %r3, [b];\n}\n"
         "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\nst.global.u32 [%rd4], %r3;\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(16, 0));
  LaunchResult r = h.launch("k", {1}, {16}, {arg(out)});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 16);
  uint32_t fib[16] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(v[i], 2 * fib[i]) << i;
}

// A struct passed by value through a function pointer: nvcc declares the prototype's parameter as
// an unnamed byte array (§11.3.3, §9.7.12.5).
TEST(Engine, IndirectCallPassesAStructByValue) {
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".func f(.param .b64 out, .param .align 4 .b8 s[16])\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd1;\n"
         "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [s];\nld.param.u32 %r2, [s+4];\n"
         "ld.param.u32 %r3, [s+8];\nld.param.u32 %r4, [s+12];\n"
         "add.s32 %r1, %r1, %r2;\nadd.s32 %r1, %r1, %r3;\nmul.lo.s32 %r4, %r4, 10;\nadd.s32 %r1, %r1, %r4;\n"
         "st.global.u32 [%rd1], %r1;\nret;\n}\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd<3>;\n"
         "ld.param.u64 %rd1, [out];\nmov.u64 %rd2, f;\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;\n"
         "{\n.param .b64 a;\n.param .align 4 .b8 b[16];\nst.param.b64 [a], %rd1;\n"
         "st.param.u32 [b], %r1;\nst.param.u32 [b+4], %r2;\nst.param.u32 [b+8], %r1;\nst.param.u32 [b+12], %r2;\n"
         "p: .callprototype ()_ (.param .b64 _, .param .align 4 .b8 _[16]);\ncall %rd2, (a, b), p;\n}\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(1, 0));
  LaunchResult r = h.launch("k", {1}, {1}, {arg(out)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint32_t>(out, 1)[0], 0u + 1 + 0 + 10 * 1);
}

TEST(Engine, ManyCtasOnSeveralHostThreads) {
  Harness h;
  h.load(kernel_ptx(std::string(kTid) + "st.global.u32 [%rd2], %r4;"));
  const uint32_t n = 64 * 128;
  uint64_t out = h.buffer(std::vector<uint32_t>(n, 0));
  ASSERT_TRUE(h.launch("k", {64}, {128}, {arg(out), arg(uint64_t{0})}, 4).ok);
  auto v = h.read<uint32_t>(out, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(v[i], i);
}

// A host thread keeps finished CTAs for later launches (src/exec/engine.cpp): a block of
// another size, fresh barriers and registers each time.
TEST(Engine, LaterLaunchesOfOtherBlockSizesReuseCtas) {  // §9.7.13.1
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
         ".shared .align 4 .b32 s[256];\n"
         "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r4, %ntid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
         "setp.eq.u32 %p1, %r1, 0;\n@%p1 mov.u32 %r5, 1000;\n"  // %r5: 1000 in thread 0, else never written
         "mov.u64 %rd3, s;\nadd.s64 %rd4, %rd3, %rd2;\nst.shared.u32 [%rd4], %r1;\nbar.sync 0;\n"
         "sub.s32 %r2, %r4, %r1;\nsub.s32 %r2, %r2, 1;\nmul.wide.u32 %rd5, %r2, 4;\nadd.s64 %rd6, %rd3, %rd5;\n"
         "ld.shared.u32 %r3, [%rd6];\nadd.s32 %r3, %r3, %r5;\nadd.s64 %rd7, %rd1, %rd2;\n"
         "st.global.u32 [%rd7], %r3;\nret;\n}\n"
         ".visible .entry no_barrier(.param .u64 out)\n{\nret;\n}\n");
  ASSERT_TRUE(h.launch("no_barrier", {1}, {32}, {arg(uint64_t{0})}).ok);  // a Cta that met no barrier
  for (uint32_t block : {256u, 64u, 32u, 96u, 256u}) {
    uint64_t out = h.buffer(std::vector<uint32_t>(block * 4, 0xffffffffu));
    ASSERT_TRUE(h.launch("k", {4}, {block}, {arg(out)}, 2).ok) << block;
    auto v = h.read<uint32_t>(out, block);
    for (uint32_t i = 0; i < block; ++i) ASSERT_EQ(v[i], block - 1 - i + (i == 0 ? 1000 : 0)) << block << " " << i;
  }
}

// Registers start at 0 in every CTA, also where a reused CTA's last thread wrote them, and also
// when another lane reads them: a shfl.sync source lane outside the rendezvous supplies its
// register as it stands (§9.7.9.6). Every path to the shfl writes %r9 in its own lane, so only
// the cross-lane read makes it a register to zero: lanes 16..31 of CTAs 16..31 leave before
// writing it, and those CTAs run on the buffers of CTAs 0..15 (16 resident CTAs per host thread),
// whose lanes 16..31 did write it.
TEST(Engine, RegistersReadAcrossLanesStartAtZeroInReusedCtas) {
  Harness h;
  h.load(kernel_ptx(R"(
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    setp.lt.u32 %p1, %r1, 16;
    setp.lt.u32 %p2, %r2, 16;
    or.pred %p3, %p1, %p2;
    @!%p3 bra DONE;
    add.u32 %r9, %r1, 1000;
    @!%p1 bra DONE;
    add.u32 %r5, %r1, 16;
    shfl.sync.idx.b32 %r6, %r9, %r5, 31, 0xffff;
    mad.lo.u32 %r7, %r2, 16, %r1;
    mul.wide.u32 %rd1, %r7, 4;
    add.s64 %rd2, %rd_out, %rd1;
    st.global.u32 [%rd2], %r6;
  DONE:
  )"));
  uint64_t out = h.buffer(std::vector<uint32_t>(32 * 16, 0xffffffffu));
  ASSERT_TRUE(h.launch("k", {32}, {32}, {arg(out), arg(uint64_t{0})}, 1).ok);
  auto v = h.read<uint32_t>(out, 32 * 16);
  for (uint32_t cta = 0; cta < 32; ++cta)
    for (uint32_t l = 0; l < 16; ++l) EXPECT_EQ(v[cta * 16 + l], cta < 16 ? 1016 + l : 0u) << cta << " " << l;
}

// ---- guest faults: a report naming kernel, CTA, warp, lane, PC and PTX line ----

TEST(Engine, AdoptedHostMemoryIsUsedInPlace) {  // Device::adopt, the model of cuMemHostRegister
  Harness h;
  h.load(kernel_ptx(std::string(kTid) + "st.global.u32 [%rd2], %r4;"));
  alignas(64) uint32_t host[72] = {};
  const uint64_t out = h.dev.adopt(host + 4, 64 * sizeof(uint32_t));  // 16 bytes into a 64-byte line
  EXPECT_EQ(out % 64, 16u);  // as aligned as the host memory
  ASSERT_TRUE(h.launch("k", {2}, {32}, {arg(out), arg(uint64_t{0})}).ok);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(host[4 + i], i);  // written in place, no copy back
  EXPECT_EQ(host[3], 0u);
  EXPECT_EQ(host[68], 0u);
  // the bounds are the adopted range's
  const LaunchResult r = h.launch("k", {3}, {32}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("out-of-bounds 4-byte global access"), std::string::npos) << r.error;
  EXPECT_EQ(host[68], 0u);
  h.dev.free(out);
}

TEST(Engine, AdoptedHostMemoryKeepsItsAddress) {  // unified addressing: pointers stay valid
  Harness h;
  h.load(kernel_ptx(std::string(kTid) + "st.global.u32 [%rd2], %r4;"));
  std::vector<uint32_t> host(32);
  const uint64_t out = h.dev.adopt(host.data(), host.size() * sizeof(uint32_t));
  EXPECT_EQ(out, reinterpret_cast<uintptr_t>(host.data()));
  ASSERT_TRUE(h.launch("k", {1}, {32}, {arg(out), arg(uint64_t{0})}).ok);
  EXPECT_EQ(host[31], 31u);
  // the same range again: device memory already, so another address, as aligned
  const uint64_t again = h.dev.adopt(host.data(), host.size() * sizeof(uint32_t));
  EXPECT_NE(again, out);
  EXPECT_EQ(again % 4096, out % 4096);
  h.dev.free(again);
  h.dev.free(out);
}

TEST(Engine, ModuleVariablesByName) {  // Module::variable, what cuModuleGetGlobal finds
  Harness h;
  Module& m = h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
                     ".visible .global .align 4 .u32 g[4];\n.visible .const .align 4 .u32 c[4] = {1, 2, 3, 4};\n"
                     ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                     "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 4;\nmov.u64 %rd2, c;\nadd.u64 %rd2, %rd2, %rd1;\n"
                     "ld.const.u32 %r2, [%rd2];\nmov.u64 %rd3, g;\nadd.u64 %rd3, %rd3, %rd1;\n"
                     "st.global.u32 [%rd3], %r2;\nret;\n}\n");
  EXPECT_FALSE(m.variable("nothing"));
  const auto g = m.variable("g"), c = m.variable("c");
  ASSERT_TRUE(g && c);
  EXPECT_EQ(g->size, 16u);
  EXPECT_EQ(c->size, 16u);
  ASSERT_TRUE(h.launch("k", {1}, {4}, {}).ok);
  EXPECT_EQ(h.read<uint32_t>(g->address, 4), (std::vector<uint32_t>{1, 2, 3, 4}));
  // the constant bank is device memory: the host writes it between launches
  const uint32_t fresh[4] = {10, 20, 30, 40};
  h.dev.copy_to_device(c->address, fresh, sizeof fresh);
  ASSERT_TRUE(h.launch("k", {1}, {4}, {}).ok);
  EXPECT_EQ(h.read<uint32_t>(g->address, 4), (std::vector<uint32_t>{10, 20, 30, 40}));
}

TEST(Faults, OutOfBoundsGlobalStore) {
  Harness h;
  h.load(kernel_ptx(std::string(kTid) + "st.global.u32 [%rd2], %r4;"));
  uint64_t out = h.buffer(std::vector<uint32_t>(40, 0));  // 40 elements, 64 threads
  LaunchResult r = h.launch("k", {2}, {32}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(r.guest_fault);
  EXPECT_NE(r.error.find("kernel 'k' stopped: out-of-bounds 4-byte global access"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("test.ptx:21: st.global.u32 [%rd2], %r4;"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("CTA (1, 0, 0), warp 0, lane 8, pc 8"), std::string::npos) << r.error;
  // The host process is healthy and the device usable: the buffer is intact up to its end.
  auto v = h.read<uint32_t>(out, 40);
  EXPECT_EQ(v[0], 0u);
}

TEST(Faults, FreedAllocationInALaterLaunch) {
  // The first launch's warps remember the allocation they stored to; a later launch must not.
  Harness h;
  h.load(kernel_ptx(std::string(kTid) + "st.global.u32 [%rd2], %r4;"));
  uint64_t out = h.buffer(std::vector<uint32_t>(64, 0));
  ASSERT_TRUE(h.launch("k", {2}, {32}, {arg(out), arg(uint64_t{0})}).ok);
  h.dev.free(out);
  LaunchResult r = h.launch("k", {2}, {32}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(r.guest_fault);
  EXPECT_NE(r.error.find("global access"), std::string::npos) << r.error;
}

TEST(Faults, MisalignedLoad) {  // §5.4.5
  Harness h;
  h.load(kernel_ptx("add.s64 %rd1, %rd_out, 2;\nld.global.u32 %r1, [%rd1];"));
  uint64_t out = h.buffer(std::vector<uint32_t>(4, 0));
  LaunchResult r = h.launch("k", {1}, {1}, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("misaligned 4-byte global access"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("ld.global.u32 %r1, [%rd1];"), std::string::npos) << r.error;
}

TEST(Faults, NullPointer) {
  Harness h;
  h.load(kernel_ptx("ld.u32 %r1, [%rd_in];"));
  LaunchResult r = h.launch("k", {1}, {1}, {arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("out-of-bounds 4-byte global access at address 0x0"), std::string::npos) << r.error;
}

TEST(Faults, Trap) {  // §9.7.19.4
  Harness h;
  h.load(kernel_ptx("mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 5;\n@%p1 trap;"));
  LaunchResult r = h.launch("k", {1}, {32}, {arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("trap instruction executed"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("lane 5"), std::string::npos) << r.error;
}

TEST(Faults, DeadlockAtBarrier) {
  // Only warp 0 reaches the barrier that all 64 threads are expected at; warp 1 waits forever
  // on a flag nobody sets... instead it parks at a second barrier id: a true deadlock.
  Harness h;
  h.load(kernel_ptx("mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bar.sync 0;\n"
                    "@!%p1 bar.sync 1;"));
  LaunchResult r = h.launch("k", {1}, {64}, {arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("deadlock"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("in a barrier"), std::string::npos) << r.error;
}

TEST(Faults, DeviceAssert) {
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".extern .func __assertfail(.param .b64 m, .param .b64 f, .param .b32 l, .param .b64 fn, .param .b64 c);\n"
         ".global .align 1 .b8 msg[4] = {120, 62, 48, 0};\n.global .align 1 .b8 file[5] = {97, 46, 99, 117, 0};\n"
         ".visible .entry k()\n{\n.reg .b64 %rd<4>;\nmov.u64 %rd1, msg;\ncvta.global.u64 %rd2, %rd1;\n"
         "mov.u64 %rd1, file;\ncvta.global.u64 %rd3, %rd1;\n{\n.param .b64 a;\n.param .b64 b;\n.param .b32 c;\n"
         ".param .b64 d;\n.param .b64 e;\nst.param.b64 [a], %rd2;\nst.param.b64 [b], %rd3;\n"
         "st.param.b32 [c], 42;\nst.param.b64 [d], %rd2;\nst.param.b64 [e], 1;\n"
         "call.uni __assertfail, (a, b, c, d, e);\n}\nret;\n}\n");
  LaunchResult r = h.launch("k", {1}, {1}, {});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("device assertion failed: a.cu:42: x>0: Assertion `x>0` failed."), std::string::npos) << r.error;
}

// __assertfail's `line` is a .b32 parameter: read as 4 bytes, memcheck finds no access past it
// (an 8-byte read of it ran into the padding before `fn`).
TEST(Faults, DeviceAssertReadsEachParameterWithItsSize) {
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".extern .func __assertfail(.param .b64 m, .param .b64 f, .param .b32 l, .param .b64 fn, .param .b64 c);\n"
         ".global .align 1 .b8 msg[2] = {120, 0};\n"
         ".visible .entry k()\n{\n.reg .b64 %rd<3>;\nmov.u64 %rd1, msg;\ncvta.global.u64 %rd2, %rd1;\n"
         "{\n.param .b64 a;\n.param .b64 b;\n.param .b32 c;\n.param .b64 d;\n.param .b64 e;\n"
         "st.param.b64 [a], %rd2;\nst.param.b64 [b], %rd2;\nst.param.b32 [c], 7;\nst.param.b64 [d], %rd2;\n"
         "st.param.b64 [e], 1;\ncall.uni __assertfail, (a, b, c, d, e);\n}\nret;\n}\n");
  LaunchConfig c;
  c.grid = {1};
  c.block = {1};
  c.checks.memcheck = true;
  LaunchResult r = h.module->launch("k", c, {});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("x:7: x: Assertion `x` failed."), std::string::npos) << r.error;
  for (const CheckReport& report : r.reports) ADD_FAILURE() << report.render("test.ptx");
  EXPECT_EQ(r.error.find("past the end"), std::string::npos) << r.error;
}

TEST(Faults, RunawayLoopHitsTheStepLimit) {
  Harness h;
  h.load(kernel_ptx("L:\nbra L;"));
  LaunchResult r = h.launch("k", {1}, {1}, {arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("step limit exceeded"), std::string::npos) << r.error;
}

TEST(Faults, RunawayRecursionIsAStackOverflowReport) {
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n.func forever()\n{\ncall forever, ();\nret;\n}\n"
         ".visible .entry k()\n{\ncall forever, ();\nret;\n}\n");
  LaunchResult r = h.launch("k", {1}, {1}, {});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("call stack overflow: more than 4096 nested calls"), std::string::npos) << r.error;
}

TEST(Faults, WatchdogStopsALivelock) {
  // Every thread waits for a flag nobody sets: no barrier is involved, so only the watchdog
  // can tell; the report names the kernel and a waiting thread's line.
  Harness h;
  h.load(kernel_ptx("W:\nld.volatile.global.u32 %r1, [%rd_out];\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra W;"));
  uint64_t out = h.buffer(std::vector<uint32_t>(1, 0));
  LaunchConfig c;
  c.grid = {2};
  c.block = {32};
  c.threads = 1;
  c.watchdog_seconds = 0.2;
  LaunchResult r = h.module->launch("k", c, {arg(out), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("kernel 'k' stopped: deadlock: watchdog: the launch ran longer than"),
            std::string::npos) << r.error;
  EXPECT_NE(r.error.find("ran longer than 0.2 s"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("at test.ptx:1"), std::string::npos) << r.error;  // inside the W loop
}

TEST(Api, LaunchValidation) {
  Harness h;
  h.load(kernel_ptx(""));
  EXPECT_NE(h.launch("nope", {1}, {1}, {}).error.find("no kernel named 'nope'"), std::string::npos);
  EXPECT_NE(h.launch("k", {1}, {1}, {arg(uint64_t{0})}).error.find("takes 2 arguments, 1 given"),
            std::string::npos);
  EXPECT_NE(h.launch("k", {1}, {1}, {arg(uint32_t{0}), arg(uint64_t{0})}).error.find("is 8 bytes; 4 given"),
            std::string::npos);
  EXPECT_NE(h.launch("k", {1}, {2048}, {arg(uint64_t{0}), arg(uint64_t{0})}).error.find("block x is 2048; sm_90 allows 1 to 1024"),
            std::string::npos);
  EXPECT_THROW(h.dev.copy_to_device(12345, "x", 1), std::out_of_range);
  LaunchConfig big;
  big.shared_bytes = 1u << 30;
  EXPECT_NE(h.module->launch("k", big, {arg(uint64_t{0}), arg(uint64_t{0})}).error.find(
                "sm_90's opt-in maximum of 232448 bytes per CTA"),
            std::string::npos);
}

TEST(Api, UnsupportedInstructionIsALoadTimeDiagnostic) {
  Device dev;
  std::string diags;
  auto m = dev.load_module(".version 8.7\n.target sm_90\n.global .texref t;\n.entry k()\n{\n"
                           ".reg .f32 %f<4>;\n.reg .b32 %r1;\n"
                           "tex.2dms.v4.f32.s32 {%f0, %f1, %f2, %f3}, [t, {%r1, %r1, %r1, %r1}];\n}\n",
                           "t.ptx", &diags);
  EXPECT_FALSE(m);
  EXPECT_NE(diags.find("unsupported: tex"), std::string::npos) << diags;
  EXPECT_NE(diags.find("(PTX §9.7.10"), std::string::npos) << diags;
  EXPECT_NE(diags.find("multisample"), std::string::npos) << diags;
}

}  // namespace
}  // namespace ptxvm::test
