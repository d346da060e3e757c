// tcgen05.cp (PTX §9.7.16.9.2, 000_70a4b524dfe259fa.txt): every shape and multicast, and the
// 6- and 4-bit decompressions. The source is rows of 16-byte chunks under a shared-memory
// descriptor (K-major, 128-bit elements: 8-row groups SBO apart, chunks LBO apart); row r lands in
// the lanes the shape gives it, chunk c in columns 4c .. 4c + 3. Where rows go is CUTLASS's
// (SM100_UTCCP copy traits, cute/atom/copy_traits_sm100.hpp; the ISA draws it only in figures):
//   .128x256b / .128x128b   row r to lane r
//   .4x256b                 row r to lane 32r (one lane per sub-partition)
//   .64x128b.warpx2::02_13  row r to lanes r and r + 64 (warps 0 and 2, or 1 and 3)
//   .64x128b.warpx2::01_23  row r to lanes r + 32 (r / 32) and that + 32 (warps 0 and 1, or 2 and 3)
//   .32x128b.warpx4         row r to lanes r, r + 32, r + 64, r + 96
// Decompression unpacks a chunk's 16 packed elements (element i in bits n*i .. n*i + n - 1, the
// padding last) to one byte each, zero-extended (§9.7.16.9.1).
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"

namespace ptxvm::test {
namespace {

constexpr uint32_t kSbo = 128, kLbo = 2048;  // 8 rows of 16 bytes; the second chunks after 128 rows

// The source image: byte b of chunk c of row r.
uint8_t source(unsigned r, unsigned c, unsigned b) { return static_cast<uint8_t>(r * 7 + c * 93 + b * 11 + 5); }
uint32_t offset(unsigned r, unsigned c) { return (r % 8) * 16 + (r / 8) * kSbo + c * kLbo; }

// Thread 0 copies with `cp` into columns 0.. of a fresh allocation, commits, everyone waits; warp
// w reads its 32 lanes' 8 columns into out[lane][8].
std::vector<uint32_t> copy(const std::string& cp) {
  std::vector<uint8_t> img(4096, 0);
  for (unsigned r = 0; r < 128; ++r)
    for (unsigned c = 0; c < 2; ++c)
      for (unsigned b = 0; b < 16; ++b) img[offset(r, c) + b] = source(r, c, b);
  std::vector<uint32_t> words(img.size() / 4);
  std::memcpy(words.data(), img.data(), img.size());
  Harness h;
  h.load(R"(
.version 8.7
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in, .param .u64 desc)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 1024 .b8 smem[4096];
  .shared .align 8 .b64 mbar;
  .shared .align 4 .b32 slot;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  setp.eq.u32 %p1, %r2, 0;
  setp.eq.u32 %p2, %r1, 0;
  ld.param.u64 %rd1, [in];
  mov.u32 %r3, %r1;
COPY:
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd2, %rd1, %rd2;
  ld.global.u32 %r4, [%rd2];
  mov.u32 %r5, smem;
  mad.lo.u32 %r5, %r3, 4, %r5;
  st.shared.u32 [%r5], %r4;
  add.u32 %r3, %r3, 128;
  setp.lt.u32 %p3, %r3, 1024;
  @%p3 bra COPY;
  @%p1 tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
  @%p2 mbarrier.init.shared::cta.b64 [mbar], 1;
  fence.proxy.async.shared::cta;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  ld.shared.u32 %r6, [slot];
  ld.param.u64 %rd3, [desc];
  mov.u32 %r16, smem;  // the descriptor's start counts from smem: its shared address added
  shr.u32 %r16, %r16, 4;
  cvt.u64.u32 %rd6, %r16;
  add.s64 %rd3, %rd3, %rd6;
  @!%p2 bra WAIT;
  )" + cp + R"( [%r6], %rd3;
  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [mbar], 0;
  @!%p3 bra WAIT;
  tcgen05.fence::after_thread_sync;
  shl.b32 %r7, %r2, 21;
  add.u32 %r7, %r7, %r6;
  tcgen05.ld.sync.aligned.32x32b.x8.b32 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, [%r7];
  tcgen05.wait::ld.sync.aligned;
  ld.param.u64 %rd4, [out];
  mul.wide.u32 %rd5, %r1, 32;
  add.s64 %rd5, %rd4, %rd5;
  st.global.v4.u32 [%rd5], {%r8, %r9, %r10, %r11};
  st.global.v4.u32 [%rd5+16], {%r12, %r13, %r14, %r15};
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  @%p1 tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r6, 32;
  ret;
}
)");
  // Table 40: start 0 (the kernel adds smem's address), LBO, SBO, the fixed 0b001, no swizzle.
  const uint64_t desc = uint64_t{kLbo >> 4} << 16 | uint64_t{kSbo >> 4} << 32 | uint64_t{1} << 46;
  const uint64_t in = h.buffer(words), out = h.buffer(std::vector<uint32_t>(128 * 8, 0));
  const LaunchResult r = h.launch("k", {1}, {128}, {arg(out), arg(in), arg(desc)});
  EXPECT_TRUE(r.ok) << r.error;
  return h.read<uint32_t>(out, 128 * 8);
}

struct Shape {
  const char* cp;
  unsigned rows, chunks;
  std::vector<unsigned> (*lanes)(unsigned row);
  unsigned packed = 8;  // bits of a source element
};

std::vector<unsigned> one(unsigned r) { return {r}; }
std::vector<unsigned> quarters(unsigned r) { return {32 * r}; }
std::vector<unsigned> pairs02_13(unsigned r) { return {r, r + 64}; }
std::vector<unsigned> pairs01_23(unsigned r) { return {r % 32 + 64 * (r / 32), r % 32 + 64 * (r / 32) + 32}; }
std::vector<unsigned> all4(unsigned r) { return {r, r + 32, r + 64, r + 96}; }

class Tcgen05Copy : public ::testing::TestWithParam<Shape> {};

TEST_P(Tcgen05Copy, RowsLandWhereTheShapeSays) {
  const Shape& s = GetParam();
  const std::vector<uint32_t> d = copy(s.cp);
  std::vector<int> want(128 * 8 * 4, -1);  // byte b of column c of lane l, or -1: untouched (zero)
  for (unsigned r = 0; r < s.rows; ++r)
    for (unsigned lane : s.lanes(r))
      for (unsigned c = 0; c < s.chunks; ++c)
        for (unsigned b = 0; b < 16; ++b) {
          int v = source(r, c, b);
          if (s.packed != 8) {  // element b of the chunk's packed bits
            const unsigned at = s.packed * b;
            const unsigned word = source(r, c, at / 8) | (at / 8 + 1 < 16 ? source(r, c, at / 8 + 1) << 8 : 0);
            v = static_cast<int>((word >> (at % 8)) & ((1u << s.packed) - 1));
          }
          want[(lane * 8 + 4 * c) * 4 + b] = v;
        }
  for (unsigned lane = 0; lane < 128; ++lane)
    for (unsigned byte = 0; byte < 32; ++byte) {
      const int w = want[lane * 32 + byte];
      const unsigned got = (d[lane * 8 + byte / 4] >> (8 * (byte % 4))) & 0xff;
      ASSERT_EQ(got, static_cast<unsigned>(w < 0 ? 0 : w)) << s.cp << " lane " << lane << " byte " << byte;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, Tcgen05Copy,
    ::testing::Values(Shape{"tcgen05.cp.cta_group::1.128x256b", 128, 2, one},
                      Shape{"tcgen05.cp.cta_group::1.128x128b", 128, 1, one},
                      Shape{"tcgen05.cp.cta_group::1.4x256b", 4, 2, quarters},
                      Shape{"tcgen05.cp.cta_group::1.64x128b.warpx2::02_13", 64, 1, pairs02_13},
                      Shape{"tcgen05.cp.cta_group::1.64x128b.warpx2::01_23", 64, 1, pairs01_23},
                      Shape{"tcgen05.cp.cta_group::1.32x128b.warpx4", 32, 1, all4},
                      Shape{"tcgen05.cp.cta_group::1.128x256b.b8x16.b6x16_p32", 128, 2, one, 6},
                      Shape{"tcgen05.cp.cta_group::1.128x128b.b8x16.b4x16_p64", 128, 1, one, 4}),
    [](const ::testing::TestParamInfo<Shape>& i) {
      std::string n = std::string(i.param.cp).substr(24);
      for (char& ch : n)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return n;
    });

}  // namespace
}  // namespace ptxvm::test
