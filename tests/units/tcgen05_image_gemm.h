// One kernel for the tcgen05.mma tests whose operands include Tensor Memory the test lays out
// itself (scale factors, sparsity metadata, A): the test gives the MMA's text and the images.
#pragma once

#include <string>

#include "ptxvm/ptxvm.h"

namespace ptxvm::test {

// `gemm`, 128 threads. Warp 0 allocates all 512 columns; the CTA copies `img` into shared
// memory; each warp stores its 32 lanes of `tmem` (tcols columns, a multiple of 4) at column 256;
// thread 0 issues `steps` MMAs — `mma`, in which %r8 is d-tmem (column 0), %rd6 and %rd7 the
// descriptors (their start addresses count from the image: the kernel adds its address), %r15 idesc, %r17 %r18 %r19 the Tensor Memory addresses x, y and z (column
// 256 + x_col ...), %p6 enable-input-d (false for the first MMA) — moving the descriptors by
// astep / bstep, x, y, z by their steps in columns and adding idesc_step to idesc each time, and
// commits; every warp reads its 32 lanes of columns [0, ncols) into out[lane][column]. %rd12
// holds the image's shared address >> 4 (for an absolute address in a descriptor).
inline std::string image_gemm(const std::string& mma, const std::string& target = "sm_100a") {
  return R"(
.version 8.8
.target )" + target + R"(
.address_size 64
.visible .entry gemm(.param .u64 img, .param .u32 words, .param .u64 adesc, .param .u64 bdesc,
                     .param .u32 idesc, .param .u64 out, .param .u32 ncols, .param .u32 steps,
                     .param .u64 astep, .param .u64 bstep, .param .u64 tmem, .param .u32 tcols,
                     .param .u32 x_col, .param .u32 y_col, .param .u32 z_col, .param .u32 x_step,
                     .param .u32 y_step, .param .u32 z_step, .param .u32 idesc_step)
{
  .reg .b32 %r<48>;
  .reg .b64 %rd<20>;
  .reg .pred %p<8>;
  .shared .align 1024 .b8 smem[65536];
  .shared .align 8 .b64 mbar;
  .shared .align 4 .b32 slot;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  and.b32 %r3, %r1, 31;
  ld.param.u64 %rd1, [img];
  ld.param.u32 %r4, [words];
  mov.u32 %r5, %r1;
COPY:
  setp.ge.u32 %p1, %r5, %r4;
  @%p1 bra COPIED;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r6, [%rd3];
  mov.u32 %r7, smem;
  mad.lo.u32 %r7, %r5, 4, %r7;
  st.shared.u32 [%r7], %r6;
  add.u32 %r5, %r5, 128;
  bra COPY;
COPIED:
  setp.eq.u32 %p2, %r2, 0;
  @%p2 tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 512;
  setp.eq.u32 %p3, %r1, 0;
  @%p3 mbarrier.init.shared::cta.b64 [mbar], 1;
  fence.proxy.async.shared::cta;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  ld.shared.u32 %r8, [slot];
  ld.param.u64 %rd4, [tmem];
  ld.param.u32 %r9, [tcols];
  shl.b32 %r10, %r2, 21;
  add.u32 %r10, %r10, %r8;
  add.u32 %r10, %r10, 256;
  mad.lo.u32 %r11, %r2, 32, %r3;
  mul.lo.u32 %r11, %r11, %r9;
  mov.u32 %r12, 0;
STS:
  add.u32 %r13, %r11, %r12;
  mul.wide.u32 %rd5, %r13, 4;
  add.s64 %rd5, %rd4, %rd5;
  ld.global.v4.u32 {%r20, %r21, %r22, %r23}, [%rd5];
  add.u32 %r14, %r10, %r12;
  tcgen05.st.sync.aligned.32x32b.x4.b32 [%r14], {%r20, %r21, %r22, %r23};
  add.u32 %r12, %r12, 4;
  setp.lt.u32 %p5, %r12, %r9;
  @%p5 bra STS;
  tcgen05.wait::st.sync.aligned;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  @!%p3 bra WAIT;
  ld.param.u64 %rd6, [adesc];
  ld.param.u64 %rd7, [bdesc];
  mov.u32 %r29, smem;  // the descriptors' start addresses count from smem: its address added
  shr.u32 %r29, %r29, 4;
  cvt.u64.u32 %rd12, %r29;
  add.s64 %rd6, %rd6, %rd12;
  add.s64 %rd7, %rd7, %rd12;
  ld.param.u32 %r15, [idesc];
  ld.param.u32 %r16, [steps];
  ld.param.u64 %rd8, [astep];
  ld.param.u64 %rd9, [bstep];
  add.u32 %r24, %r8, 256;
  ld.param.u32 %r17, [x_col];
  add.u32 %r17, %r17, %r24;
  ld.param.u32 %r18, [y_col];
  add.u32 %r18, %r18, %r24;
  ld.param.u32 %r19, [z_col];
  add.u32 %r19, %r19, %r24;
  ld.param.u32 %r25, [x_step];
  ld.param.u32 %r26, [y_step];
  ld.param.u32 %r27, [z_step];
  ld.param.u32 %r28, [idesc_step];
  setp.ne.u32 %p6, %r16, %r16;
  mov.u32 %r30, 0;
STEP:
  )" + mma + R"(
  setp.eq.u32 %p6, %r30, %r30;
  add.s64 %rd6, %rd6, %rd8;
  add.s64 %rd7, %rd7, %rd9;
  add.u32 %r17, %r17, %r25;
  add.u32 %r18, %r18, %r26;
  add.u32 %r19, %r19, %r27;
  add.u32 %r15, %r15, %r28;
  add.u32 %r30, %r30, 1;
  setp.lt.u32 %p7, %r30, %r16;
  @%p7 bra STEP;
  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [mbar], 0;
  @!%p1 bra WAIT;
  tcgen05.fence::after_thread_sync;
  ld.param.u64 %rd10, [out];
  ld.param.u32 %r31, [ncols];
  shl.b32 %r32, %r2, 21;
  add.u32 %r32, %r32, %r8;
  mad.lo.u32 %r33, %r2, 32, %r3;
  mul.lo.u32 %r33, %r33, %r31;
  mov.u32 %r34, 0;
LD:
  add.u32 %r35, %r32, %r34;
  tcgen05.ld.sync.aligned.32x32b.x8.b32 {%r20, %r21, %r22, %r23, %r36, %r37, %r38, %r39}, [%r35];
  tcgen05.wait::ld.sync.aligned;
  add.u32 %r40, %r33, %r34;
  mul.wide.u32 %rd11, %r40, 4;
  add.s64 %rd11, %rd10, %rd11;
  st.global.v4.u32 [%rd11], {%r20, %r21, %r22, %r23};
  st.global.v4.u32 [%rd11+16], {%r36, %r37, %r38, %r39};
  add.u32 %r34, %r34, 8;
  setp.lt.u32 %p5, %r34, %r31;
  @%p5 bra LD;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  @%p2 tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r8, 512;
  @%p2 tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
  ret;
}
)";
}

// The launch image_gemm's kernel takes: one CTA of 128 threads.
inline LaunchConfig image_gemm_config(uint64_t step_limit = 10'000'000) {
  LaunchConfig cfg;
  cfg.grid = {1};
  cfg.block = {128};
  cfg.step_limit = step_limit;
  return cfg;
}

}  // namespace ptxvm::test
