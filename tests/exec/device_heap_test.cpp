// CUDA's device-side malloc and free (mem/device_heap.h), as nvcc's PTX calls them: blocks that
// outlive their launch, a heap bounded by cudaLimitMallocHeapSize (malloc answers 0 past it), and
// reports for an access past a block, a block freed twice and free of another address.
#include <gtest/gtest.h>

#include "harness.h"

namespace ptxvm::test {
namespace {

// What nvcc declares for malloc and free, and two kernels: `make` gives each thread a block of
// %tid.x + 1 words holding its id and stores the pointer in out[tid]; `take` sums the first words
// into in[0] with atom.add and frees every block.
const std::string kHeap =
    ".version 8.7\n.target sm_90\n.address_size 64\n"
    ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
    ".extern .func free(.param .b64 free_param_0);\n"
    ".visible .entry make(.param .u64 out, .param .u64 words)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n.reg .pred %p1;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd6, [words];\nmov.u32 %r1, %tid.x;\n"
    "cvt.u64.u32 %rd2, %r1;\nadd.s64 %rd3, %rd2, %rd6;\nshl.b64 %rd3, %rd3, 2;\n"
    "{\n.param .b64 p0;\nst.param.b64 [p0], %rd3;\n.param .b64 r0;\ncall.uni (r0), malloc, (p0);\n"
    "ld.param.b64 %rd4, [r0];\n}\n"
    "setp.eq.u64 %p1, %rd4, 0;\n@%p1 bra STORE;\nst.u32 [%rd4], %r1;\nSTORE:\n"
    "mul.wide.u32 %rd5, %r1, 8;\nadd.s64 %rd5, %rd1, %rd5;\nst.global.u64 [%rd5], %rd4;\nret;\n}\n"
    ".visible .entry take(.param .u64 in, .param .u64 sum)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [in];\nld.param.u64 %rd6, [sum];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.u64 %rd3, [%rd2];\n"
    "ld.u32 %r2, [%rd3];\natom.global.add.u32 %r3, [%rd6], %r2;\n"
    "{\n.param .b64 p0;\nst.param.b64 [p0], %rd3;\ncall.uni free, (p0);\n}\nret;\n}\n";

TEST(DeviceHeap, BlocksOutliveTheirLaunchUntilFreed) {
  Harness h;
  h.load(kHeap);
  const uint64_t pointers = h.buffer(std::vector<uint64_t>(64, 0)), sum = h.buffer(std::vector<uint32_t>(1, 0));
  ASSERT_TRUE(h.launch("make", {1}, {64}, {arg(pointers), arg(uint64_t{1})}).ok);
  const std::vector<uint64_t> p = h.read<uint64_t>(pointers, 64);
  for (int i = 0; i < 64; ++i) {
    EXPECT_NE(p[i], 0u) << i;
    EXPECT_EQ(p[i] % 16, 0u) << i;  // "aligned on a 16-byte boundary"
  }
  // thread i's block of i + 1 words counts in 16-byte units: 16 ceil((i + 1) / 4) bytes
  EXPECT_EQ(h.dev.malloc_heap_used(), 16u * 4 * (16 * 17 / 2));
  EXPECT_THROW(h.dev.free(p[0]), std::invalid_argument);  // the guest's to free, not the host's
  LaunchResult r = h.launch("take", {1}, {64}, {arg(pointers), arg(sum)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint32_t>(sum, 1)[0], 63u * 64 / 2);
  EXPECT_EQ(h.dev.malloc_heap_used(), 0u);
}

TEST(DeviceHeap, MallocAnswersNullPastTheHeapSize) {
  Harness h;
  EXPECT_EQ(h.dev.malloc_heap_size(), uint64_t{8} << 20);  // cudaLimitMallocHeapSize's default
  h.dev.set_malloc_heap_size(1000);
  h.load(kHeap);
  const uint64_t pointers = h.buffer(std::vector<uint64_t>(4, 0));
  // four blocks of 256 + i words, each over 1000 bytes: none fits
  ASSERT_TRUE(h.launch("make", {1}, {4}, {arg(pointers), arg(uint64_t{256})}).ok);
  for (uint64_t v : h.read<uint64_t>(pointers, 4)) EXPECT_EQ(v, 0u);
  // blocks of 64 + i words (272, 276, 280, 284 bytes, counted in 16-byte units: 272, 288, 288,
  // 288): the first three fit in 1000 bytes, the fourth does not
  ASSERT_TRUE(h.launch("make", {1}, {4}, {arg(pointers), arg(uint64_t{64})}).ok);
  const std::vector<uint64_t> p = h.read<uint64_t>(pointers, 4);
  EXPECT_NE(p[0], 0u);
  EXPECT_NE(p[1], 0u);
  EXPECT_NE(p[2], 0u);
  EXPECT_EQ(p[3], 0u);
}

TEST(DeviceHeap, FreeingTwiceIsReported) {
  Harness h;
  h.load(kHeap);
  const uint64_t pointers = h.buffer(std::vector<uint64_t>(1, 0)), sum = h.buffer(std::vector<uint32_t>(1, 0));
  ASSERT_TRUE(h.launch("make", {1}, {1}, {arg(pointers), arg(uint64_t{1})}).ok);
  const uint64_t block = h.read<uint64_t>(pointers, 1)[0];
  ASSERT_TRUE(h.launch("take", {1}, {1}, {arg(pointers), arg(sum)}).ok);
  // the block is gone: reading it faults before the second free is reached
  LaunchResult r = h.launch("take", {1}, {1}, {arg(pointers), arg(sum)});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("ld.u32"), std::string::npos) << r.error;
  // free of an address that is no block
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n.extern .func free(.param .b64 free_param_0);\n"
         ".visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd1;\nld.param.u64 %rd1, [a];\n"
         "{\n.param .b64 p0;\nst.param.b64 [p0], %rd1;\ncall.uni free, (p0);\n}\nret;\n}\n");
  r = h.launch("k", {1}, {1}, {arg(block)});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("no live block of the device-side malloc heap"), std::string::npos) << r.error;
  EXPECT_TRUE(h.launch("k", {1}, {1}, {arg(uint64_t{0})}).ok);  // free(NULL) does nothing
}

TEST(DeviceHeap, AnAccessPastABlockIsReported) {
  Harness h;
  h.load(kHeap);
  const uint64_t pointers = h.buffer(std::vector<uint64_t>(1, 0));
  ASSERT_TRUE(h.launch("make", {1}, {1}, {arg(pointers), arg(uint64_t{1})}).ok);  // one word
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 a)\n{\n.reg .b32 %r1;\n.reg .b64 %rd1;\nld.param.u64 %rd1, [a];\n"
         "ld.u32 %r1, [%rd1+4];\nret;\n}\n");
  LaunchResult r = h.launch("k", {1}, {1}, {arg(h.read<uint64_t>(pointers, 1)[0])});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("out-of-bounds"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ptxvm::test
