// tcgen05 (src/units/tcgen05, PTX §9.7.16 of 000_70a4b524dfe259fa.txt): Tensor Memory allocation,
// tcgen05.ld/st, tcgen05.mma and tcgen05.commit in one GEMM kernel, checked against references the
// test computes itself — the operand image laid out in shared memory from the canonical layouts
// of §9.7.16.3.3 (CuTe form, tcgen05_layouts.h), an exact integer GEMM (every element a small
// integer, so every model's sum is exact), and the data-path layouts of §9.7.16.10.5. No
// Blackwell GPU is at hand: the layouts and the references are the judges (ptxas -arch=sm_100a
// accepts the kernels, tcgen05_image_gemm.h's with each MMA text the tests give it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "tcgen05_image_gemm.h"
#include "tcgen05_layouts.h"

namespace ptxvm::test {
namespace {


enum class Elem { F16, BF16, TF32, E4M3, E5M2, S8, U8 };

unsigned bits_of(Elem e) { return e == Elem::F16 || e == Elem::BF16 ? 16 : e == Elem::TF32 ? 32 : 8; }

// A small integer v (|v| <= 8) in the element's encoding.
uint32_t encode(Elem e, int v) {
  const float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  const uint32_t sign = u >> 31, exp = (u >> 23) & 0xff, man = u & 0x7fffff;
  switch (e) {
  case Elem::TF32: return u;
  case Elem::BF16: return u >> 16;
  case Elem::F16: return v == 0 ? 0 : sign << 15 | (exp - 127 + 15) << 10 | man >> 13;
  case Elem::E4M3: return v == 0 ? 0 : sign << 7 | (exp - 127 + 7) << 3 | man >> 20;
  case Elem::E5M2: return v == 0 ? 0 : sign << 7 | (exp - 127 + 15) << 2 | man >> 21;
  default: return static_cast<uint32_t>(v) & 0xff;
  }
}

// idesc (Table 42): dtype, atype, btype, transposes, N >> 3, M >> 4.
uint32_t idesc(unsigned dtype, unsigned atype, unsigned m, unsigned n, bool ta = false, bool tb = false) {
  return dtype << 4 | atype << 7 | atype << 10 | unsigned{ta} << 15 | unsigned{tb} << 16 | (n >> 3) << 17 |
         (m >> 4) << 24;
}

struct Case {
  const char* name;
  const char* kind;
  Elem elem;
  unsigned dtype;  // 0 f16, 1 f32, 2 s32
  unsigned atype;  // the idesc code
  unsigned m, n, steps;
  bool a_k_major = true, b_k_major = true;
  Swz swz = Swz::None;
  bool a_tmem = false;
};

// Lays v out at `base` with the canonical strides the case uses (canonical_strides).
void put(std::vector<uint8_t>& img, uint32_t base, bool k_major, Swz s, unsigned ebits, unsigned mns, unsigned ks,
         const std::vector<int>& v, size_t mn_stride, size_t k_stride, Elem e, uint32_t& lbo, uint32_t& sbo) {
  canonical_strides(k_major, s, ebits, mns, lbo, sbo);
  for (unsigned mn = 0; mn < mns; ++mn)
    for (unsigned k = 0; k < ks; ++k) {
      const uint32_t at = base + canonical(k_major, s, ebits, lbo, sbo, mn, k);
      const uint32_t x = encode(e, v[mn * mn_stride + k * k_stride]);
      std::memcpy(&img[at], &x, ebits / 8);
    }
}

class Tcgen05Gemm : public ::testing::TestWithParam<Case> {};

TEST_P(Tcgen05Gemm, MatchesTheExactProduct) {  // §9.7.16.10.9.1
  const Case& c = GetParam();
  const unsigned ebits = bits_of(c.elem), kstep = 256 / ebits, K = kstep * c.steps;
  const bool integer = c.elem == Elem::S8 || c.elem == Elem::U8;
  std::vector<int> A(size_t{c.m} * K), B(size_t{K} * c.n);  // row-major M x K, K x N
  uint32_t seed = 12345;
  auto next = [&] {
    seed = seed * 1103515245u + 12345u;
    return static_cast<int>((seed >> 16) % 7) - (c.elem == Elem::U8 ? 0 : 3);
  };
  for (int& x : A) x = next();
  for (int& x : B) x = next();
  // Shared-memory image: A at 0 (unless from Tensor Memory), B at 32 KiB; per K step the
  // descriptors move by one step's bytes along K.
  std::vector<uint8_t> img(65536, 0);
  uint32_t alb = 0, asb = 0, blb = 0, bsb = 0;
  if (!c.a_tmem) put(img, 0, c.a_k_major, c.swz, ebits, c.m, K, A, K, 1, c.elem, alb, asb);
  put(img, 32768, c.b_k_major, c.swz, ebits, c.n, K, B, 1, c.n, c.elem, blb, bsb);
  auto step = [&](bool k_major, uint32_t lbo, uint32_t sbo) { return k_step(k_major, c.swz, ebits, lbo, sbo); };
  std::vector<uint32_t> words(img.size() / 4);
  std::memcpy(words.data(), img.data(), img.size());
  // A in Tensor Memory: row i in D's lane for row i, K packed 32 / ebits per column.
  auto d_lane = [&](unsigned i) { return c.m == 64 ? (i % 16) + 32 * (i / 16) : i; };
  const unsigned acols = c.a_tmem ? K * ebits / 32 : 0, tcols = std::max(4u, acols);
  std::vector<uint32_t> tmem_a(size_t{128} * tcols, 0);
  if (c.a_tmem)
    for (unsigned i = 0; i < c.m; ++i)
      for (unsigned k = 0; k < K; ++k)
        tmem_a[size_t{d_lane(i)} * tcols + k * ebits / 32] |= encode(c.elem, A[size_t{i} * K + k]) << (k * ebits % 32);

  Harness h;  // A through its descriptor, or from Tensor Memory at x (column 256 on)
  h.load(image_gemm(std::string("tcgen05.mma.cta_group::1.kind::") + c.kind + " [%r8], " +
                    (c.a_tmem ? "[%r17]" : "%rd6") + ", %rd7, %r15, %p6;"));
  const unsigned ncols = c.n;
  const uint64_t dimg = h.buffer(words), out = h.buffer(std::vector<uint32_t>(size_t{128} * ncols, 0xdeadbeef)),
                 dtmem = h.buffer(tmem_a);
  const LaunchConfig cfg = image_gemm_config();
  const LaunchResult r = h.module->launch(
      "gemm", cfg,
      {arg(dimg), arg(static_cast<uint32_t>(words.size())), arg(sdesc(0, alb, asb, c.swz)),
       arg(sdesc(32768, blb, bsb, c.swz)),
       arg(idesc(c.dtype, c.atype, c.m, c.n, !c.a_k_major, !c.b_k_major)), arg(out), arg(ncols), arg(c.steps),
       arg(step(c.a_k_major, alb, asb)), arg(step(c.b_k_major, blb, bsb)), arg(dtmem), arg(tcols), arg(0u), arg(0u),
       arg(0u), arg(acols / c.steps), arg(0u), arg(0u), arg(0u)});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint32_t> d = h.read<uint32_t>(out, size_t{128} * ncols);
  for (unsigned i = 0; i < c.m; ++i)
    for (unsigned j = 0; j < c.n; ++j) {
      int64_t want = 0;
      for (unsigned k = 0; k < K; ++k) want += int64_t{A[size_t{i} * K + k]} * B[size_t{k} * c.n + j];
      uint32_t bits;
      if (integer) bits = static_cast<uint32_t>(want);
      else if (c.dtype == 1) {
        const float f = static_cast<float>(want);
        std::memcpy(&bits, &f, 4);
      } else {
        bits = encode(Elem::F16, 0);  // |want| < 2048: exact in f16
        const float f = static_cast<float>(want);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        bits = want == 0 ? 0 : (u >> 31) << 15 | (((u >> 23) & 0xff) - 127 + 15) << 10 | (u & 0x7fffff) >> 13;
      }
      ASSERT_EQ(d[size_t{d_lane(i)} * ncols + j], bits) << c.name << " D[" << i << "][" << j << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, Tcgen05Gemm,
    ::testing::Values(Case{"f16_m128n64", "f16", Elem::F16, 1, 0, 128, 64, 2},
                      Case{"bf16_m128n256_b128", "f16", Elem::BF16, 1, 1, 128, 256, 2, true, true, Swz::B128},
                      Case{"f16_m64n32_f16out", "f16", Elem::F16, 0, 0, 64, 32, 1},
                      Case{"tf32_m128n128_b128", "tf32", Elem::TF32, 1, 2, 128, 128, 4, true, true, Swz::B128},
                      Case{"e4m3_m128n64_b32", "f8f6f4", Elem::E4M3, 1, 0, 128, 64, 1, true, true, Swz::B32},
                      Case{"f16_m128n64_b64", "f16", Elem::F16, 1, 0, 128, 64, 2, true, true, Swz::B64},
                      Case{"e5m2_m64n16", "f8f6f4", Elem::E5M2, 1, 1, 64, 16, 2},
                      Case{"s8_m128n32", "i8", Elem::S8, 2, 1, 128, 32, 2},
                      Case{"u8_m128n48_b128", "i8", Elem::U8, 2, 0, 128, 48, 1, true, true, Swz::B128},
                      Case{"f16_mn_major_none", "f16", Elem::F16, 1, 0, 128, 64, 2, false, false},
                      Case{"f16_mn_major_b64", "f16", Elem::F16, 1, 0, 128, 64, 2, false, false, Swz::B64},
                      Case{"bf16_mn_major_b128", "f16", Elem::BF16, 1, 1, 64, 128, 2, false, false, Swz::B128},
                      Case{"tf32_mn_major_b128_atom32", "tf32", Elem::TF32, 1, 2, 128, 64, 3, false, false, Swz::B128A32},
                      Case{"tf32_mn_major_atom32_m64", "tf32", Elem::TF32, 1, 2, 64, 256, 2, false, false, Swz::B128A32},
                      Case{"f16_a_tmem", "f16", Elem::F16, 1, 0, 128, 64, 2, true, true, Swz::None, true},
                      Case{"e4m3_a_tmem_m64", "f8f6f4", Elem::E4M3, 1, 0, 64, 32, 2, true, true, Swz::B128, true}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });


// disable-output-lane (§9.7.16.10.9.1): the lanes whose bit is set keep D; the others take A*B.
TEST(Tcgen05Gemm, DisableOutputLaneKeepsTheLanesD) {
  const unsigned M = 128, N = 32, K = 16;
  std::vector<int> A(M * K), B(K * N);
  for (unsigned i = 0; i < A.size(); ++i) A[i] = static_cast<int>(i % 5) - 2;
  for (unsigned i = 0; i < B.size(); ++i) B[i] = static_cast<int>(i % 3) - 1;
  std::vector<uint8_t> img(65536, 0);
  uint32_t alb, asb, blb, bsb;
  put(img, 0, true, Swz::None, 16, M, K, A, K, 1, Elem::F16, alb, asb);
  put(img, 32768, true, Swz::None, 16, N, K, B, 1, N, Elem::F16, blb, bsb);
  std::vector<uint32_t> words(img.size() / 4);
  std::memcpy(words.data(), img.data(), img.size());
  const uint32_t disabled[4] = {0x0000ffffu, 0u, 0x80000001u, 0x00f00000u};
  Harness h;
  h.load(image_gemm("mov.b32 %r40, " + std::to_string(disabled[0]) + ";\n  mov.b32 %r41, " + std::to_string(disabled[1]) +
                    ";\n  mov.b32 %r42, " + std::to_string(disabled[2]) + ";\n  mov.b32 %r43, " +
                    std::to_string(disabled[3]) +
                    ";\n  tcgen05.mma.cta_group::1.kind::f16 [%r8], %rd6, %rd7, %r15, {%r40, %r41, %r42, %r43}, %p6;"));
  const uint64_t dimg = h.buffer(words), dtmem = h.buffer(std::vector<uint32_t>(128 * 4, 0)),
                 out = h.buffer(std::vector<uint32_t>(128 * N, 0xdeadbeef));
  LaunchConfig cfg;
  cfg.grid = {1};
  cfg.block = {128};
  const LaunchResult r = h.module->launch(
      "gemm", cfg,
      {arg(dimg), arg(static_cast<uint32_t>(words.size())), arg(sdesc(0, alb, asb, Swz::None)),
       arg(sdesc(32768, blb, bsb, Swz::None)), arg(idesc(1, 0, M, N)), arg(out), arg(N), arg(1u), arg(uint64_t{0}),
       arg(uint64_t{0}), arg(dtmem), arg(4u), arg(0u), arg(0u), arg(0u), arg(0u), arg(0u), arg(0u), arg(0u)});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint32_t> d = h.read<uint32_t>(out, size_t{128} * N);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int want = 0;
      for (unsigned k = 0; k < K; ++k) want += A[i * K + k] * B[k * N + j];
      const float f = static_cast<float>(want);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      const bool off = (disabled[i / 32] >> (i % 32)) & 1u;
      ASSERT_EQ(d[i * N + j], off ? 0u : bits) << "D[" << i << "][" << j << "]" << (off ? " (disabled)" : "");
    }
}

// ---- tcgen05.ld.red (sm_103f, sm_110): the loads plus a min or max over each thread's .num ----

// One warp stores x[lane][0..3] to Tensor Memory, reads it back with `ld` (a tcgen05.ld.red of
// .32x32b.x4) and writes the four registers and redval to out[lane][0..4] (rows of 8 words).
std::vector<uint32_t> ld_red(const std::string& ld, const std::vector<uint32_t>& x) {
  Harness h;
  h.load(".version 8.8\n.target sm_103f\n.address_size 64\n"
         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
         ".shared .align 4 .b32 slot;\n"
         "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n"
         "ld.shared.u32 %r1, [slot];\nmov.u32 %r2, %tid.x;\nld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
         "mul.wide.u32 %rd3, %r2, 16;\nadd.s64 %rd4, %rd1, %rd3;\nld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd4];\n"
         "tcgen05.st.sync.aligned.32x32b.x4.b32 [%r1], {%r3, %r4, %r5, %r6};\ntcgen05.wait::st.sync.aligned;\n" +
         ld + " {%r7, %r8, %r9, %r10}, %r11, [%r1];\ntcgen05.wait::ld.sync.aligned;\n"
         "mul.wide.u32 %rd3, %r2, 32;\nadd.s64 %rd5, %rd2, %rd3;\n"
         "st.global.v4.u32 [%rd5], {%r7, %r8, %r9, %r10};\nst.global.u32 [%rd5+16], %r11;\n"
         "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\nret;\n}\n");
  const uint64_t in = h.buffer(x), out = h.buffer(std::vector<uint32_t>(32 * 8, 0xdeadbeef));
  const LaunchResult r = h.launch("k", {1}, {32}, {arg(out), arg(in)});
  EXPECT_TRUE(r.ok) << r.error;
  return h.read<uint32_t>(out, 32 * 8);
}

TEST(Tcgen05LdRed, ReducesEachThreadsColumns) {  // §9.7.16.8.3
  const uint32_t kNaN = 0x7fc00000, kCanonical = 0x7fffffff, kNegZero = 0x80000000;
  auto f = [](float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  };
  std::vector<uint32_t> x(32 * 4);
  for (unsigned l = 0; l < 32; ++l) {
    const uint32_t row[4] = {f(1.5f * l), f(-2.0f - l), kNegZero, l % 2 ? kNaN : f(0.25f)};
    std::copy(row, row + 4, &x[4 * l]);
  }
  struct Want {
    const char* ld;
    uint32_t even, odd;  // redval of lanes 2 and 3
  };
  const Want wants[] = {
      {"tcgen05.ld.red.sync.aligned.32x32b.x4.max.f32", f(3.0f), f(4.5f)},               // NaN skipped
      {"tcgen05.ld.red.sync.aligned.32x32b.x4.min.f32", f(-4.0f), f(-5.0f)},
      {"tcgen05.ld.red.sync.aligned.32x32b.x4.max.NaN.f32", f(3.0f), kCanonical},        // NaN wins
      {"tcgen05.ld.red.sync.aligned.32x32b.x4.max.abs.f32", f(4.0f), f(5.0f)},           // |-4| > 3
      {"tcgen05.ld.red.sync.aligned.32x32b.x4.min.abs.f32", 0u, 0u},                      // |-0| is +0
      {"tcgen05.ld.red.sync.aligned.32x32b.x4.min.s32", kNegZero, kNegZero},             // as integers: INT32_MIN
      {"tcgen05.ld.red.sync.aligned.32x32b.x4.max.u32", f(-4.0f), f(-5.0f)},            // 0xc0800000, 0xc0a00000
  };
  for (const Want& w : wants) {
    const std::vector<uint32_t> d = ld_red(w.ld, x);
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned r = 0; r < 4; ++r) ASSERT_EQ(d[8 * l + r], x[4 * l + r]) << w.ld << " lane " << l;
    EXPECT_EQ(d[8 * 2 + 4], w.even) << w.ld;
    EXPECT_EQ(d[8 * 3 + 4], w.odd) << w.ld;
  }
}

// ---- rules the ISA states, each broken once: the launch stops with a report naming it ----

// A kernel around `body`, with the allocation slot `slot` and an mbarrier `mbar`.
std::string rule_kernel(const std::string& body) {
  return ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n"
         ".reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n.reg .pred %p<8>;\n"
         ".shared .align 8 .b64 mbar;\n.shared .align 4 .b32 slot;\n.shared .align 1024 .b8 smem[4096];\n"
         "mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 5;\nsetp.eq.u32 %p1, %r2, 0;\nsetp.eq.u32 %p2, %r1, 0;\n"
         "ld.param.u32 %r3, [n];\n" + body + "\nret;\n}\n";
}

std::string run_rule(const std::string& body, unsigned threads, uint32_t n = 0) {
  Harness h;
  h.load(rule_kernel(body));
  LaunchConfig cfg;
  cfg.grid = {1};
  cfg.block = {threads};
  cfg.step_limit = 1'000'000;
  const LaunchResult r = h.module->launch("k", cfg, {arg(n)});
  EXPECT_FALSE(r.ok);
  return r.error;
}

const char* kAlloc = "@%p1 tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 64;\nbar.sync 0;\n"
                     "ld.shared.u32 %r4, [slot];\n";
const char* kDealloc = "bar.sync 0;\n@%p1 tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 64;\n";

TEST(Tcgen05Rules, NColsIsAPowerOfTwoIn32To512) {  // §9.7.16.7.1
  for (uint32_t n : {0u, 16u, 96u, 1024u}) {
    const std::string e = run_rule("@%p1 tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], %r3;", 32, n);
    EXPECT_NE(e.find("nCols is " + std::to_string(n) + "; it must be a power of 2 in [32, 512]"), std::string::npos) << e;
  }
}

TEST(Tcgen05Rules, MemoryMustBeFreedBeforeExit) {  // §9.7.16.7.1
  const std::string e = run_rule(kAlloc, 32);
  EXPECT_NE(e.find("exits with 64 columns of Tensor Memory still allocated"), std::string::npos) << e;
}

TEST(Tcgen05Rules, AllocationBlocksUntilColumnsAreFreed) {  // §9.7.16.7.1: no dealloc comes
  const std::string e = run_rule("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 512;", 64);
  EXPECT_NE(e.find("in tcgen05.alloc, waiting for 512 free columns"), std::string::npos) << e;
}

TEST(Tcgen05Rules, AllocationAfterRelinquishIsUndefined) {  // §9.7.16.7.1
  const std::string e = run_rule(
      "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;", 32);
  EXPECT_NE(e.find("after the CTA relinquished its permit"), std::string::npos) << e;
}

TEST(Tcgen05Rules, DeallocNamesAnAllocation) {  // §9.7.16.7.1
  const std::string e = run_rule(std::string(kAlloc) + "add.u32 %r4, %r4, 32;\n" + kDealloc, 32);
  EXPECT_NE(e.find("is not the address of a Tensor Memory allocation"), std::string::npos) << e;
}

TEST(Tcgen05Rules, AWarpReachesOnlyItsLaneQuarter) {  // §9.7.16.8.1
  const std::string e = run_rule(std::string(kAlloc) +
                                     "setp.eq.u32 %p3, %r2, 1;\n"
                                     "@%p3 tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r4];\n" + kDealloc, 64);
  EXPECT_NE(e.find("reaches Tensor Memory lanes 32..63 only, but taddr names lanes 0..31"), std::string::npos) << e;
}

TEST(Tcgen05Rules, AccessOutsideTheAllocationIsUndefined) {  // §9.7.16.1.2
  const std::string e = run_rule(std::string(kAlloc) +
                                     "@%p1 tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r5, %r6}, [%r4+63];\n" + kDealloc, 32);
  EXPECT_NE(e.find("reaches column 64 of Tensor Memory, which no tcgen05.alloc of the CTA holds"), std::string::npos) << e;
}

TEST(Tcgen05Rules, LoadsAreWarpWideAndAligned) {  // §9.7.16.8.3 .sync.aligned
  const std::string e = run_rule(std::string(kAlloc) +
                                     "setp.lt.u32 %p3, %r1, 16;\n"
                                     "@%p3 tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r4];\n" + kDealloc, 32);
  EXPECT_NE(e.find("every thread of the warp must execute it, lane 16 does not"), std::string::npos) << e;
}

TEST(Tcgen05Rules, OneCtaGroupPerKernel) {  // §9.7.16.7.1, across functions (the checker sees one at a time)
  Harness h;
  h.load(".version 8.7\n.target sm_100a\n.address_size 64\n.shared .align 8 .b64 mbar;\n"
         ".func commit2()\n{\ntcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.b64 [mbar];\nret;\n}\n"
         ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.shared .align 4 .b32 slot;\n"
         "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\ncall commit2;\nret;\n}\n");
  LaunchConfig cfg;
  cfg.grid = {1};
  cfg.block = {32};
  const LaunchResult r = h.module->launch("k", cfg, {});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("all tcgen05 instructions of a kernel must name the same"), std::string::npos) << r.error;
}

TEST(Tcgen05Rules, CtaGroup2NeedsAPeerCta) {  // §9.7.16.5.1
  const std::string e = run_rule("@%p1 tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [slot], 32;", 32);
  EXPECT_NE(e.find("has no peer CTA"), std::string::npos) << e;
}

TEST(Tcgen05Rules, TheInstructionDescriptorIsChecked) {  // §9.7.16.4.2, §9.7.16.2.1 Table 39
  auto mma = [](uint32_t idesc) {
    return std::string(kAlloc) + "mov.u32 %r6, " + std::to_string(idesc) + ";\nmov.b64 %rd1, " +
           std::to_string((uint64_t{1} << 46) | 0) + ";\n"
           "@%p2 tcgen05.mma.cta_group::1.kind::f16 [%r4], %rd1, %rd1, %r6, %p2;\n" + kDealloc;
  };
  const std::string m = run_rule(mma(idesc(1, 0, 96, 64)), 32);
  EXPECT_NE(m.find("gives M = 96"), std::string::npos) << m;
  const std::string t = run_rule(mma(idesc(1, 3, 128, 64)), 32);
  EXPECT_NE(t.find("atype 3 is not a type of .kind::f16"), std::string::npos) << t;
  const std::string sp = run_rule(mma(idesc(1, 0, 128, 64) | 4u), 32);
  EXPECT_NE(sp.find("sparsity bit (2) is set on a dense tcgen05.mma"), std::string::npos) << sp;
}

TEST(Tcgen05Rules, TheSharedMemoryDescriptorIsChecked) {  // §9.7.16.4.1 Table 40
  auto mma = [](uint64_t desc) {
    return std::string(kAlloc) + "mov.u32 %r6, " + std::to_string(idesc(1, 0, 128, 64)) + ";\nmov.b64 %rd1, " +
           std::to_string(desc) + ";\n@%p2 mbarrier.init.shared::cta.b64 [mbar], 1;\n"
           "@%p2 tcgen05.mma.cta_group::1.kind::f16 [%r4], %rd1, %rd1, %r6, %p2;\n"
           "@%p2 tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];\n"
           "W: mbarrier.try_wait.parity.shared::cta.b64 %p4, [mbar], 0;\n@!%p4 bra W;\n" + kDealloc;
  };
  const std::string v = run_rule(mma(0), 32);
  EXPECT_NE(v.find("bits 46-48 of the shared-memory descriptor must hold the constant 0b001"), std::string::npos) << v;
  const std::string s = run_rule(mma((uint64_t{1} << 46) | (uint64_t{3} << 61)), 32);
  EXPECT_NE(s.find("swizzle mode 3 is invalid"), std::string::npos) << s;
}

TEST(Tcgen05Rules, SwizzleAtomicityFollowsTable49) {  // §9.7.16.10.1 Table 49, §9.7.16.10.6 Table 53
  auto mma = [](const char* kind, uint32_t idesc, Swz swz) {
    const uint64_t desc = (uint64_t{1} << 46) | uint64_t(swz) << 61 | (uint64_t{1024} >> 4);
    return std::string(kAlloc) + "mov.u32 %r6, " + std::to_string(idesc) + ";\nmov.b64 %rd1, " + std::to_string(desc) +
           ";\n@%p2 mbarrier.init.shared::cta.b64 [mbar], 1;\n"
           "@%p2 tcgen05.mma.cta_group::1.kind::" + kind + " [%r4], %rd1, %rd1, %r6, %p2;\n"
           "@%p2 tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];\n"
           "W: mbarrier.try_wait.parity.shared::cta.b64 %p4, [mbar], 0;\n@!%p4 bra W;\n" + kDealloc;
  };
  const std::string k = run_rule(mma("f16", idesc(1, 0, 128, 64), Swz::B128A32), 32);
  EXPECT_NE(k.find("32-byte atomicity is for MN-major (transposed) operands only"), std::string::npos) << k;
  const std::string f = run_rule(mma("f16", idesc(1, 0, 128, 64, true, true), Swz::B128A32), 32);
  EXPECT_NE(f.find("only .kind::tf32 transposes with 32-byte swizzle atomicity"), std::string::npos) << f;
  const std::string t = run_rule(mma("tf32", idesc(1, 2, 128, 64, true, true), Swz::B128), 32);
  EXPECT_NE(t.find("a transposed .kind::tf32 operand needs 128-byte swizzling with 32-byte atomicity"),
            std::string::npos) << t;
}

}  // namespace
}  // namespace ptxvm::test
