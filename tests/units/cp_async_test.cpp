// Non-bulk asynchronous copies (PTX §9.7.9.25.3, 001_23fdd5978b24a3ed.txt): cp.async with every
// cp-size, src-size and ignore-src, cache hints; cp.async.commit_group, wait_group, wait_all;
// when the copied bytes become visible; faults.
#include <gtest/gtest.h>

#include <cstring>

#include "harness.h"

namespace ptxvm::test {
namespace {

std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(0x11 + 7 * i);
  return v;
}

// `body` runs with `.shared s` (2048 bytes, 0xee) in %r_s; dumps s[0, dump) to out afterwards.
std::vector<uint8_t> run(const std::string& body, const std::vector<uint8_t>& in, size_t dump, unsigned threads = 1,
                         std::string* error = nullptr) {
  const std::string prologue = R"(
    .shared .align 16 .b8 s[2048];
    .reg .b32 %r_s, %r_t, %r_i;
    .reg .b64 %rd_t;
    .reg .pred %p_0;
    mov.u32 %r_s, s;
    mov.u32 %r_t, %tid.x;
    mov.u32 %r_i, %r_t;
  FILL:
    shl.b32 %r60, %r_i, 2;
    add.u32 %r61, %r_s, %r60;
    st.shared.u32 [%r61], 0xeeeeeeee;
    add.u32 %r_i, %r_i, %ntid.x;
    setp.lt.u32 %p_0, %r_i, 512;
    @%p_0 bra FILL;
    bar.sync 0;
  )";
  const std::string epilogue = R"(
    bar.sync 0;
    setp.ne.u32 %p_0, %r_t, 0;
    @%p_0 bra DONE;
    mov.u32 %r_i, 0;
  DUMP:
    add.u32 %r61, %r_s, %r_i;
    ld.shared.u8 %r62, [%r61];
    cvt.u64.u32 %rd_t, %r_i;
    add.s64 %rd_t, %rd_out, %rd_t;
    st.global.u8 [%rd_t], %r62;
    add.u32 %r_i, %r_i, 1;
    setp.lt.u32 %p_0, %r_i, )" + std::to_string(dump) + R"(;
    @%p_0 bra DUMP;
  DONE:
  )";
  Harness h;
  h.load(kernel_ptx(prologue + body + epilogue));
  uint64_t out = h.buffer(std::vector<uint8_t>(dump, 0)), din = h.buffer(in);
  auto r = h.launch("k", {1}, {threads}, {arg(out), arg(din)});
  if (error) *error = r.error;
  else EXPECT_TRUE(r.ok) << r.error;
  return h.read<uint8_t>(out, dump);
}

// cp-size bytes at shared `at`: the first `from` from in[src..], zeros to cp-size.
void expect_copy(const std::vector<uint8_t>& s, const std::vector<uint8_t>& in, size_t at, size_t src, size_t size,
                 size_t from, const char* what) {
  for (size_t i = 0; i < size; ++i) EXPECT_EQ(s[at + i], i < from ? in[src + i] : 0) << what << " byte " << i;
}

TEST(AsyncCopy, EveryCopySizeSourceSizeAndIgnoreSrc) {  // §9.7.9.25.3.1
  auto in = pattern(64);
  auto s = run(R"(
    cp.async.ca.shared.global [%r_s], [%rd_in], 4;
    cp.async.ca.shared::cta.global [%r_s+8], [%rd_in+8], 8;
    cp.async.ca.shared.global [%r_s+16], [%rd_in+16], 16;
    cp.async.cg.shared.global [%r_s+32], [%rd_in+32], 16;
    cp.async.cg.shared.global [%r_s+48], [%rd_in+48], 16, 5;
    mov.u32 %r2, 11;
    cp.async.ca.shared.global [%r_s+64], [%rd_in], 16, %r2;
    setp.eq.u32 %p1, %r2, 11;
    cp.async.ca.shared.global [%r_s+80], [%rd_in], 16, %p1;
    cp.async.ca.shared.global [%r_s+96], [%rd_in+16], 16, !%p1;
    createpolicy.fractional.L2::evict_last.b64 %rd5, 1.0;
    cp.async.cg.shared.global.L2::cache_hint.L2::128B [%r_s+112], [%rd_in+32], 16, %rd5;
    cp.async.ca.shared.global.L2::cache_hint [%r_s+128], [%rd_in+4], 4, 3, %rd5;
    cp.async.ca.shared.global.L2::256B [%r_s+136], [%rd_in+8], 8, 0;
    cp.async.wait_all;
  )", in, 160);
  expect_copy(s, in, 0, 0, 4, 4, "ca 4");
  for (int i = 4; i < 8; ++i) EXPECT_EQ(s[i], 0xee) << "untouched byte " << i;
  expect_copy(s, in, 8, 8, 8, 8, "ca 8");
  expect_copy(s, in, 16, 16, 16, 16, "ca 16");
  expect_copy(s, in, 32, 32, 16, 16, "cg 16");
  expect_copy(s, in, 48, 48, 16, 5, "src-size 5");
  expect_copy(s, in, 64, 0, 16, 11, "src-size %r2 = 11");
  expect_copy(s, in, 80, 0, 16, 0, "ignore-src true");
  expect_copy(s, in, 96, 16, 16, 16, "ignore-src !true");
  expect_copy(s, in, 112, 32, 16, 16, "cache hint and prefetch size");
  expect_copy(s, in, 128, 4, 4, 3, "src-size 3 with a cache hint");
  expect_copy(s, in, 136, 8, 8, 0, "src-size 0");
  for (int i = 144; i < 160; ++i) EXPECT_EQ(s[i], 0xee) << "untouched byte " << i;
}

TEST(AsyncCopy, BytesLandWhenTheirGroupCompletes) {  // §9.7.9.25.3.2, §9.7.9.25.3.3
  auto in = pattern(16);
  auto s = run(R"(
    cp.async.ca.shared.global [%r_s], [%rd_in], 4;
    cp.async.commit_group;
    cp.async.ca.shared.global [%r_s+4], [%rd_in+4], 4;
    cp.async.commit_group;
    cp.async.ca.shared.global [%r_s+8], [%rd_in+8], 4;
    ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [%r_s];
    st.shared.v4.u32 [%r_s+16], {%r1, %r2, %r3, %r4};
    cp.async.wait_group 1;
    ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [%r_s];
    st.shared.v4.u32 [%r_s+32], {%r1, %r2, %r3, %r4};
    cp.async.wait_group 0;
    ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [%r_s];
    st.shared.v4.u32 [%r_s+48], {%r1, %r2, %r3, %r4};
    cp.async.wait_all;
  )", in, 64);
  auto word = [&](size_t at, int k) { return at + 4 * k; };
  auto expect_words = [&](size_t at, int landed, const char* when) {
    for (int k = 0; k < 4; ++k)
      for (int b = 0; b < 4; ++b)
        EXPECT_EQ(s[word(at, k) + b], k < landed ? in[4 * k + b] : 0xee) << when << " word " << k << " byte " << b;
  };
  expect_words(16, 0, "before any wait");
  expect_words(32, 1, "after wait_group 1: the older group");
  expect_words(48, 2, "after wait_group 0: both groups, not the uncommitted copy");
  expect_words(0, 3, "after wait_all: the uncommitted copy too");
}

// Each thread has its own groups; a thread that exits with copies pending still has them land.
TEST(AsyncCopy, ThreadsWaitForTheirOwnCopies) {
  auto in = pattern(32 * 16 + 16);
  auto s = run(R"(
    shl.b32 %r1, %r_t, 4;
    add.u32 %r2, %r_s, %r1;
    cvt.u64.u32 %rd1, %r1;
    add.s64 %rd2, %rd_in, %rd1;
    cp.async.cg.shared.global [%r2], [%rd2], 16;
    cp.async.commit_group;
    and.b32 %r3, %r_t, 1;
    setp.eq.u32 %p1, %r3, 1;
    @%p1 cp.async.wait_group 0;
    ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r2];
    add.u32 %r8, %r2, 528;
    st.shared.v4.u32 [%r8], {%r4, %r5, %r6, %r7};
    cp.async.wait_all;
    setp.ne.u32 %p2, %r_t, 31;
    @%p2 bra STAY;
    cp.async.ca.shared.global [%r_s+512], [%rd_in+512], 16;
    exit;
  STAY:
  )", in, 528 + 512, 32);
  for (int t = 0; t < 32; ++t)
    for (int b = 0; b < 16; ++b) {
      EXPECT_EQ(s[16 * t + b], in[16 * t + b]) << "thread " << t << " byte " << b;
      EXPECT_EQ(s[528 + 16 * t + b], t % 2 ? in[16 * t + b] : 0xee) << "thread " << t << " before its wait, byte " << b;
    }
  for (int b = 0; b < 16; ++b) EXPECT_EQ(s[512 + b], in[512 + b]) << "copy of an exited thread, byte " << b;
}

TEST(AsyncCopy, MaskedOffSourceIsNeverRead) {  // src-size 0 / ignore-src: no source access
  auto in = pattern(16);
  auto s = run(R"(
    add.s64 %rd1, %rd_in, 4096;
    cp.async.cg.shared.global [%r_s], [%rd1], 16, 0;
    setp.eq.u32 %p1, %r_t, 0;
    cp.async.ca.shared.global [%r_s+16], [%rd1+2], 4, %p1;
    cp.async.wait_all;
  )", in, 32);
  expect_copy(s, in, 0, 0, 16, 0, "src-size 0, out-of-bounds source");
  expect_copy(s, in, 16, 0, 4, 0, "ignore-src, misaligned source");
}

TEST(AsyncCopy, FaultsNameTheRule) {
  auto in = pattern(56);
  struct Case {
    const char* body;
    const char* message;
  } cases[] = {
      {"mov.u32 %r1, 17;\ncp.async.cg.shared.global [%r_s], [%rd_in], 16, %r1;",
       "src-size 17 is greater than cp-size 16 (undefined, PTX §9.7.9.25.3.1)"},
      {"cp.async.ca.shared.global [%r_s+4], [%rd_in], 8;", "misaligned"},
      {"cp.async.ca.shared.global [%r_s], [%rd_in+4], 8;", "misaligned"},
      {"cp.async.cg.shared.global [%r_s], [%rd_in+48], 16;", "out-of-bounds"},
      {"cp.async.cg.shared.global [%r_s], [%rd_in+48], 16, 8;", ""},  // the 8 bytes read are inside
      {"cp.async.cg.shared.global [%r_s+2048], [%rd_in], 16;", "out-of-bounds"},
  };
  for (const Case& c : cases) {
    std::string error;
    run(std::string(c.body) + "\ncp.async.wait_all;\n", in, 16, 1, &error);
    if (*c.message) EXPECT_NE(error.find(c.message), std::string::npos) << c.body << "\n" << error;
    else EXPECT_EQ(error, "") << c.body;
  }
}

}  // namespace
}  // namespace ptxvm::test
