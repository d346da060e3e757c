// Shifting A's rows in Tensor Memory (PTX 000_70a4b524dfe259fa.txt): tcgen05.shift.down
// (§9.7.16.9.3) and tcgen05.mma's .ashift (§9.7.16.10.9.1), both "down by one row, except the
// last": lane r takes lane r + 1's cells, lane 31 of each 32-lane sub-partition keeps its own (the
// direction and the sub-partitions as NVIDIA's CuTe DSL documents them, observed on a B200).
// .ashift shifts after its MMA has read A, over the 8 columns (256 bits) of A it read.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "tcgen05_image_gemm.h"
#include "tcgen05_layouts.h"

namespace ptxvm::test {
namespace {

// Lane r of x after the shift: lane r + 1's, or its own for the last lane of a sub-partition.
unsigned shifted(unsigned r) { return r % 32 == 31 ? r : r + 1; }

TEST(Tcgen05Shift, MovesLanesUpWithinTheWarpsQuarter) {  // §9.7.16.9.3
  Harness h;
  h.load(R"(
.version 8.7
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 mbar;
  .shared .align 4 .b32 slot;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  setp.eq.u32 %p1, %r2, 0;
  setp.eq.u32 %p2, %r1, 0;
  @%p1 tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
  @%p2 mbarrier.init.shared::cta.b64 [mbar], 1;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  ld.shared.u32 %r3, [slot];
  shl.b32 %r4, %r2, 21;
  add.u32 %r4, %r4, %r3;                 // lanes 32w.. of this warp
  mad.lo.u32 %r5, %r1, 100, 7;           // cell (lane t, column c) = 100 t + 7 + c
  add.u32 %r6, %r5, 1;
  add.u32 %r7, %r5, 2;
  add.u32 %r8, %r5, 3;
  add.u32 %r9, %r5, 4;
  add.u32 %r10, %r5, 5;
  add.u32 %r11, %r5, 6;
  add.u32 %r12, %r5, 7;
  add.u32 %r13, %r5, 8;
  tcgen05.st.sync.aligned.32x32b.x16.b32 [%r4], {%r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r5, %r5, %r5, %r5, %r5, %r5, %r5};
  tcgen05.wait::st.sync.aligned;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  @%p2 add.u32 %r14, %r3, 1;             // lanes 0..31, columns 1..8
  @%p2 tcgen05.shift.cta_group::1.down [%r14];
  @%p2 tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];
W:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [mbar], 0;
  @!%p3 bra W;
  tcgen05.fence::after_thread_sync;
  tcgen05.ld.sync.aligned.32x32b.x16.b32 {%r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r15, %r16, %r17, %r18, %r19, %r20, %r21}, [%r4];
  tcgen05.wait::ld.sync.aligned;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 64;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd3+16], {%r9, %r10, %r11, %r12};
  st.global.v4.u32 [%rd3+32], {%r13, %r15, %r16, %r17};
  st.global.v4.u32 [%rd3+48], {%r18, %r19, %r20, %r21};
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  @%p1 tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, 32;
  ret;
}
)");
  const uint64_t out = h.buffer(std::vector<uint32_t>(64 * 16, 0));
  ASSERT_TRUE(h.launch("k", {1}, {64}, {arg(out)}).ok);
  const std::vector<uint32_t> d = h.read<uint32_t>(out, 64 * 16);
  for (unsigned t = 0; t < 64; ++t)
    for (unsigned c = 0; c < 16; ++c) {
      const unsigned written = c < 9 ? 100 * t + 7 + c : 100 * t + 7;
      const bool moved = t < 32 && c >= 1 && c <= 8;  // lanes 0..31, the 8 columns from column 1
      const unsigned source = moved ? shifted(t) : t;
      const unsigned want = c < 9 ? 100 * source + 7 + c : written;
      ASSERT_EQ(d[16 * t + c], want) << "lane " << t << " column " << c;
    }
}

// Two MMAs on the same [a-tmem] with .ashift: the second reads A shifted by the first.
TEST(Tcgen05Shift, AshiftShiftsAAfterTheMma) {  // §9.7.16.10.9.1
  const unsigned M = 128, N = 32, K = 16;  // f16, per MMA
  uint32_t seed = 3;
  auto next = [&] {
    seed = seed * 1103515245u + 12345u;
    return static_cast<int>((seed >> 16) % 7) - 3;
  };
  std::vector<int> A(M * K), B(2 * K * N);  // B: the two MMAs' K x N, one after the other
  for (int& x : A) x = next();
  for (int& x : B) x = next();
  auto half = [](int v) -> uint32_t {
    const _Float16 h = static_cast<_Float16>(v);
    uint16_t u;
    std::memcpy(&u, &h, 2);
    return u;
  };
  std::vector<uint8_t> img(65536, 0);
  uint32_t lbo, sbo;
  canonical_strides(true, Swz::None, 16, N, lbo, sbo);
  for (unsigned j = 0; j < N; ++j)
    for (unsigned k = 0; k < 2 * K; ++k) {
      const uint32_t x = half(B[size_t{k} * N + j]);
      std::memcpy(&img[32768 + canonical(true, Swz::None, 16, lbo, sbo, j, k)], &x, 2);
    }
  std::vector<uint32_t> words(img.size() / 4);
  std::memcpy(words.data(), img.data(), img.size());
  std::vector<uint32_t> tmem(128 * 8, 0);  // A: row i in lane i, 2 per column
  for (unsigned i = 0; i < M; ++i)
    for (unsigned k = 0; k < K; ++k) tmem[i * 8 + k / 2] |= half(A[i * K + k]) << (16 * (k % 2));
  Harness h;
  h.load(image_gemm("tcgen05.mma.cta_group::1.kind::f16.ashift [%r8], [%r17], %rd7, %r15, %p6;"));
  const uint64_t dimg = h.buffer(words), dtmem = h.buffer(tmem), out = h.buffer(std::vector<uint32_t>(128 * N, 0));
  LaunchConfig cfg;
  cfg.grid = {1};
  cfg.block = {128};
  const uint32_t idesc = 1u << 4 | (N >> 3) << 17 | (M >> 4) << 24;
  const LaunchResult r = h.module->launch(
      "gemm", cfg,
      {arg(dimg), arg(static_cast<uint32_t>(words.size())), arg(uint64_t{0}), arg(sdesc(32768, lbo, sbo, Swz::None)),
       arg(idesc), arg(out), arg(N),
       arg(2u), arg(uint64_t{0}), arg(k_step(true, Swz::None, 16, lbo, sbo)), arg(dtmem), arg(8u), arg(0u), arg(0u),
       arg(0u), arg(0u), arg(0u), arg(0u), arg(0u)});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint32_t> d = h.read<uint32_t>(out, 128 * N);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int want = 0;
      for (unsigned k = 0; k < K; ++k)
        want += A[i * K + k] * B[size_t{k} * N + j] + A[shifted(i) * K + k] * B[size_t{K + k} * N + j];
      const float f = static_cast<float>(want);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      ASSERT_EQ(d[i * N + j], bits) << "D[" << i << "][" << j << "]";
    }
}

}  // namespace
}  // namespace ptxvm::test
