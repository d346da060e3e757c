// Data movement (PTX §9.7.9, 001_23fdd5978b24a3ed.txt): ld/st with every qualifier family and
// state space, ld.global.nc, ldu, mov forms, prefetch/prefetchu, applypriority, discard,
// createpolicy, isspacep, cvta.
#include <gtest/gtest.h>

#include "harness.h"

namespace ptxvm::test {
namespace {

// Runs `body` in one thread with `in` as the input buffer; returns `n` words of output.
std::vector<uint32_t> run1(const std::string& body, const std::vector<uint32_t>& in, size_t n,
                           const std::string& target = "sm_90", const std::string& version = "8.7") {
  Harness h;
  std::string ptx = kernel_ptx(body, target);
  ptx.replace(ptx.find("8.7"), 3, version);
  h.load(ptx);
  uint64_t out = h.buffer(std::vector<uint32_t>(n, 0)), din = h.buffer(in);
  auto r = h.launch("k", {1}, {1}, {arg(out), arg(din)});
  EXPECT_TRUE(r.ok) << r.error;
  return h.read<uint32_t>(out, n);
}

TEST(Data, LoadStoreQualifiersCopyExactly) {
  // Every qualifier family of ld/st is a hint or an ordering: the bits moved are the same.
  const std::vector<std::string> lds = {
      "ld.global.u32", "ld.weak.global.u32", "ld.volatile.global.u32", "ld.relaxed.gpu.global.u32",
      "ld.acquire.sys.global.u32", "ld.relaxed.cta.global.u32", "ld.acquire.cluster.global.u32",
      "ld.mmio.relaxed.sys.global.u32", "ld.global.ca.u32", "ld.global.cg.u32", "ld.global.cs.u32",
      "ld.global.lu.u32", "ld.global.cv.u32", "ld.global.L1::evict_normal.u32", "ld.global.L1::evict_unchanged.u32",
      "ld.global.L1::evict_first.u32", "ld.global.L1::evict_last.u32", "ld.global.L1::no_allocate.u32",
      "ld.global.L2::64B.u32", "ld.global.L2::128B.u32", "ld.global.L2::256B.u32", "ld.global.nc.u32",
      "ld.global.nc.L1::evict_last.L2::128B.u32", "ld.global.nc.ca.u32", "ldu.global.u32", "ld.u32", "ld.weak.u32"};
  const std::vector<std::string> sts = {
      "st.global.u32", "st.weak.global.u32", "st.volatile.global.u32", "st.relaxed.gpu.global.u32",
      "st.release.sys.global.u32", "st.release.cta.global.u32", "st.mmio.relaxed.sys.global.u32", "st.global.wb.u32",
      "st.global.cg.u32", "st.global.cs.u32", "st.global.wt.u32", "st.global.L1::evict_first.u32",
      "st.global.L1::no_allocate.u32", "st.u32", "st.relaxed.gpu.u32"};
  std::string body = "createpolicy.fractional.L2::evict_first.b64 %rd5, 1.0;\n";
  size_t i = 0;
  for (const std::string& l : lds) {
    body += l + " %r1, [%rd_in+" + std::to_string(4 * i) + "];\nst.global.u32 [%rd_out+" + std::to_string(4 * i) +
            "], %r1;\n";
    ++i;
  }
  body += "ld.global.L2::cache_hint.u32 %r1, [%rd_in], %rd5;\nst.global.u32 [%rd_out+" + std::to_string(4 * i++) + "], %r1;\n";
  body += "ld.global.nc.L2::cache_hint.u32 %r1, [%rd_in+4], %rd5;\nst.global.u32 [%rd_out+" + std::to_string(4 * i++) + "], %r1;\n";
  for (const std::string& s : sts) {
    body += "ld.global.u32 %r1, [%rd_in+" + std::to_string(4 * i) + "];\n" + s + " [%rd_out+" + std::to_string(4 * i) +
            "], %r1;\n";
    ++i;
  }
  body += "ld.global.u32 %r1, [%rd_in+" + std::to_string(4 * i) + "];\nst.global.L2::cache_hint.u32 [%rd_out+" +
          std::to_string(4 * i) + "], %r1, %rd5;\n";
  ++i;
  std::vector<uint32_t> in(i);
  for (size_t k = 0; k < i; ++k) in[k] = 0x9e3779b9u * static_cast<uint32_t>(k + 1);
  auto v = run1(body, in, i);
  for (size_t k = 0; k < i; ++k) {
    uint32_t want = k == lds.size() ? in[0] : k == lds.size() + 1 ? in[1] : in[k];
    EXPECT_EQ(v[k], want) << k;
  }
}

TEST(Data, SubwordLoadsExtendAndVectorsMoveElements) {
  std::vector<uint32_t> in = {0x8081f2f3u, 0x7ffe8001u, 0xdeadbeefu, 0x01234567u, 0x89abcdefu, 0x02468aceu, 0x13579bdfu, 0xfedcba98u};
  std::string body =
      "ld.global.s8 %r1, [%rd_in];\nld.global.u8 %r2, [%rd_in+1];\nld.global.s16 %r3, [%rd_in+2];\n"
      "ld.global.u16 %r4, [%rd_in+4];\nld.global.s16 %rd1, [%rd_in+6];\nld.global.s32 %rd2, [%rd_in+8];\n"
      "st.global.v4.u32 [%rd_out], {%r1, %r2, %r3, %r4};\nst.global.v2.u64 [%rd_out+16], {%rd1, %rd2};\n"
      "ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd_in+16];\nst.global.v4.b32 [%rd_out+32], {%r8, %r7, %r6, %r5};\n"
      "ld.global.v2.f64 {%fd1, %fd2}, [%rd_in];\nst.global.v2.f64 [%rd_out+48], {%fd2, %fd1};\n"
      "ld.global.v4.u16 {%h1, %h2, %h3, %h4}, [%rd_in];\nst.global.v4.b16 [%rd_out+64], {%h4, %h3, %h2, %h1};\n"
      "ld.global.v8.u32 {%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, [%rd_in];\n"
      "st.global.v8.u32 [%rd_out+96], {%r16, %r15, %r14, %r13, %r12, %r11, %r10, %r9};\n"
      "ld.global.v4.u64 {%rd3, %rd4, %rd5, %rd6}, [%rd_in];\nst.global.v4.u64 [%rd_out+128], {%rd6, %rd5, %rd4, %rd3};\n";
  auto v = run1(body, in, 40, "sm_100", "8.8");
  EXPECT_EQ(v[0], 0xfffffff3u);  // s8 0xf3 sign-extends
  EXPECT_EQ(v[1], 0xf2u);
  EXPECT_EQ(v[2], 0xffff8081u);
  EXPECT_EQ(v[3], 0x8001u);
  EXPECT_EQ(v[4], 0x00007ffeu);
  EXPECT_EQ(v[5], 0u);
  EXPECT_EQ(v[6], 0xdeadbeefu);  // s32 into a 64-bit register sign-extends
  EXPECT_EQ(v[7], 0xffffffffu);
  EXPECT_EQ(std::vector<uint32_t>(v.begin() + 8, v.begin() + 12), (std::vector<uint32_t>{in[7], in[6], in[5], in[4]}));
  EXPECT_EQ(std::vector<uint32_t>(v.begin() + 12, v.begin() + 16), (std::vector<uint32_t>{in[2], in[3], in[0], in[1]}));
  EXPECT_EQ(v[16], 0x80017ffeu);
  EXPECT_EQ(v[17], 0xf2f38081u);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(v[24 + k], in[7 - k]) << k;
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(v[32 + 2 * k], in[6 - 2 * k]) << k;
    EXPECT_EQ(v[33 + 2 * k], in[7 - 2 * k]) << k;
  }
}

// A warp's loads and stores whatever the lanes' addresses: consecutive elements (copied as one
// block), reversed, consecutive but for one lane, and consecutive under a guard that holds for
// the odd lanes only; sub-word loads sign- or zero-extend on every path.
TEST(Data, WholeWarpAccessPatterns) {
  std::vector<uint32_t> in(64);
  for (uint32_t k = 0; k < in.size(); ++k) in[k] = 0x9e3779b9u * (k + 1) ^ 0x80808080u;
  const std::string body = R"(
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd1, %r1, 4;
    add.s64 %rd2, %rd_out, %rd1;
    cvt.u64.u32 %rd3, %r1;
    add.s64 %rd4, %rd_in, %rd3;
    ld.global.s8 %r2, [%rd4];                 // consecutive bytes, sign-extended
    st.global.u32 [%rd2], %r2;
    sub.u32 %r3, 31, %r1;
    mul.wide.u32 %rd5, %r3, 2;
    add.s64 %rd6, %rd_in, %rd5;
    ld.global.u16 %r4, [%rd6];                // reversed halves, zero-extended
    st.global.u32 [%rd2+128], %r4;
    setp.eq.u32 %p1, %r1, 31;
    selp.b64 %rd7, 0, %rd1, %p1;
    add.s64 %rd8, %rd_in, %rd7;
    ld.global.u32 %r5, [%rd8];                // consecutive but lane 31, which reads word 0
    st.global.u32 [%rd2+256], %r5;
    add.s64 %rd13, %rd_in, %rd1;
    ld.global.s32 %rd9, [%rd13];              // consecutive words into 64-bit registers
    add.s64 %rd10, %rd_out, 640;
    mul.wide.u32 %rd11, %r1, 8;
    add.s64 %rd12, %rd10, %rd11;
    st.global.u64 [%rd12], %rd9;              // consecutive doublewords
    and.b32 %r6, %r1, 1;
    setp.eq.u32 %p2, %r6, 1;
    @%p2 st.global.u32 [%rd2+384], %r1;       // the odd lanes only
    @%p2 ld.global.u32 %r7, [%rd13];
    @!%p2 mov.u32 %r7, 7;
    st.global.u32 [%rd2+512], %r7;
  )";
  Harness h;
  h.load(kernel_ptx(body));
  uint64_t out = h.buffer(std::vector<uint32_t>(224, 0xaaaaaaaau)), din = h.buffer(in);
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 224);
  auto byte = [&](uint32_t i) { return static_cast<uint8_t>(in[i / 4] >> (8 * (i % 4))); };
  auto half = [&](uint32_t i) { return static_cast<uint16_t>(in[i / 2] >> (16 * (i % 2))); };
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(v[l], static_cast<uint32_t>(int32_t{static_cast<int8_t>(byte(l))})) << l;
    EXPECT_EQ(v[32 + l], uint32_t{half(31 - l)}) << l;
    EXPECT_EQ(v[64 + l], in[l == 31 ? 0 : l]) << l;
    EXPECT_EQ(v[96 + l], l % 2 ? l : 0xaaaaaaaau) << l;
    EXPECT_EQ(v[128 + l], l % 2 ? in[l] : 7u) << l;
    EXPECT_EQ(v[160 + 2 * l], in[l]) << l;
    EXPECT_EQ(v[161 + 2 * l], in[l] >> 31 ? 0xffffffffu : 0u) << l;
  }
}

TEST(Data, StateSpacesAndVariables) {
  // Kernel parameters through .param, .param::entry and generic addresses; .shared, .shared::cta,
  // .shared::cluster; .local; .const with an initializer; global variables.
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".const .align 4 .u32 tab[3] = {11, 22, 33};\n.global .align 8 .u64 gv = 0x1122334455667788;\n"
         ".visible .entry k(.param .u64 out, .param .u32 x, .param .align 8 .b8 blob[16])\n{\n"
         ".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.shared .align 8 .b32 sh[4];\n.local .align 8 .b32 lo[4];\n"
         "ld.param.u64 %rd1, [out];\nld.param::entry.u32 %r1, [x];\nld.param.v2.u32 {%r2, %r3}, [blob+8];\n"
         "mov.u64 %rd2, blob;\ncvta.param.u64 %rd3, %rd2;\nld.u32 %r4, [%rd3+4];\n"
         "st.shared.u32 [sh], %r1;\nst.shared::cta.u32 [sh+4], %r2;\nld.shared::cluster.v2.u32 {%r5, %r6}, [sh];\n"
         "st.local.v2.u32 [lo+8], {%r3, %r4};\nmov.u64 %rd4, lo;\ncvta.local.u64 %rd5, %rd4;\nld.u64 %rd6, [%rd5+8];\n"
         "ld.const.u32 %r7, [tab+8];\nmov.u64 %rd7, tab;\nld.const.u32 %r8, [%rd7+4];\n"
         "ld.global.u64 %rd8, [gv];\nmov.u64 %rd9, gv;\nld.u32 %r9, [%rd9+4];\n"
         "st.global.v4.u32 [%rd1], {%r1, %r5, %r6, %r7};\nst.global.v2.u32 [%rd1+16], {%r8, %r9};\n"
         "st.global.v2.u64 [%rd1+32], {%rd6, %rd8};\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(12, 0));
  std::vector<uint8_t> blob(16);
  for (int i = 0; i < 16; ++i) blob[static_cast<size_t>(i)] = static_cast<uint8_t>(0xa0 + i);
  KernelArg b;
  b.bytes = blob;
  auto r = h.launch("k", {1}, {1}, {arg(out), arg(uint32_t{0xcafef00d}), b});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 12);
  EXPECT_EQ(v[0], 0xcafef00du);
  EXPECT_EQ(v[1], 0xcafef00du);
  EXPECT_EQ(v[2], 0xabaaa9a8u);  // blob bytes 8..11
  EXPECT_EQ(v[3], 33u);
  EXPECT_EQ(v[4], 22u);
  EXPECT_EQ(v[5], 0x11223344u);
  EXPECT_EQ(v[8], 0xafaeadacu);  // blob bytes 12..15
  EXPECT_EQ(v[9], 0xa7a6a5a4u);  // blob bytes 4..7 via the generic parameter window
  EXPECT_EQ(v[10], 0x55667788u);
  EXPECT_EQ(v[11], 0x11223344u);
}


TEST(Data, AddressesInThirtyTwoBitRegistersWrap) {
  // [%r + imm] with a .b32 register is 32-bit arithmetic (§6.4.1): libdevice's sin and cos
  // (Payne-Hanek, through Triton) index their local table as (%SPL - k) + 24, which passes below
  // the table's address on the way. Scalar and whole-warp accesses alike.
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
         ".local .align 4 .b32 lo[4];\n.reg .b32 %SPL;\nld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
         "mov.b32 %SPL, lo;\nst.local.v4.u32 [%SPL], {%r1, 11, 22, 33};\nsub.s32 %r2, %SPL, 12;\n"
         "ld.local.u32 %r3, [%r2+24];\nld.local.u32 %r4, [%r2+12];\nmul.wide.u32 %rd2, %r1, 8;\n"
         "add.s64 %rd3, %rd1, %rd2;\nst.global.v2.u32 [%rd3], {%r3, %r4};\nret;\n}\n");
  const uint64_t out = h.buffer(std::vector<uint32_t>(64, 0));
  ASSERT_TRUE(h.launch("k", {1}, {32}, {arg(out)}).ok);
  const auto v = h.read<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[2 * t], 33u) << t;   // lo[3]
    EXPECT_EQ(v[2 * t + 1], t) << t;  // lo[0]
  }
}
TEST(Data, DeviceFunctionParametersThroughRegisterAddresses) {
  // Inside a device function plain .param means ::func (§9.7.9.8); both reach the parameter
  // through an address held in a register.
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".func (.param .b32 r) f(.param .b32 a, .param .b32 b)\n{\n.reg .b32 %x<4>;\n.reg .b64 %q<4>;\n"
         "mov.u64 %q1, a;\nld.param::func.b32 %x1, [%q1];\nmov.u64 %q2, b;\nld.param.b32 %x2, [%q2];\n"
         "mul.lo.s32 %x3, %x1, %x2;\nst.param.b32 [r], %x3;\nret;\n}\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
         "ld.param.u64 %rd1, [out];\nmov.u64 %rd2, out;\nld.param.u64 %rd3, [%rd2];\n"
         "{\n.param .b32 pa;\n.param .b32 pb;\n.param .b32 pr;\nst.param.b32 [pa], 6;\nst.param.b32 [pb], 7;\n"
         "call (pr), f, (pa, pb);\nld.param.b32 %r1, [pr];\n}\nst.global.u32 [%rd3], %r1;\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(1, 0));
  auto r = h.launch("k", {1}, {1}, {arg(out)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint32_t>(out, 1)[0], 42u);
}

TEST(Data, ParameterAddressesAndGenericAccess) {
  // §5.1.6.1: mov of a kernel parameter gives its .param address; cvta.param (of a register or
  // of var+imm) gives its generic address, cvta.to.param takes it back (§9.7.9.20). §5.1.6.4:
  // in a device function, mov of a parameter (input, or return since PTX 6.0) gives a .local
  // address; cvta.local (of a register or the variable) makes it generic.
  Harness h;
  h.load(".version 8.7\n.target sm_90\n.address_size 64\n"
         ".func (.param .b32 r) f(.param .b32 a, .param .align 8 .b8 s[16])\n{\n.reg .b32 %x<4>;\n.reg .b64 %q<8>;\n"
         "mov.u64 %q1, s;\ncvta.local.u64 %q2, %q1;\nld.u32 %x1, [%q2+8];\n"
         "cvta.local.u64 %q3, a;\nld.u32 %x2, [%q3];\nadd.s32 %x3, %x1, %x2;\n"
         "mov.u64 %q4, r;\ncvta.local.u64 %q5, %q4;\nst.u32 [%q5], %x3;\nret;\n}\n"
         ".visible .entry k(.param .u64 out, .param .align 8 .b8 blob[16])\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
         ".reg .pred %p<2>;\nld.param.u64 %rd1, [out];\n"
         "cvta.param.u64 %rd2, blob+4;\nld.u32 %r1, [%rd2];\ncvta.to.param.u64 %rd3, %rd2;\nld.param.u32 %r2, [%rd3+4];\n"
         "isspacep.param %p1, %rd2;\nselp.u32 %r4, 1, 0, %p1;\n"
         "{\n.param .b32 pa;\n.param .align 8 .b8 ps[16];\n.param .b32 pr;\nst.param.b32 [pa], 5;\n"
         "st.param.v2.u32 [ps+8], {1000, 0};\ncall (pr), f, (pa, ps);\nld.param.b32 %r3, [pr];\n}\n"
         "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\nret;\n}\n");
  uint64_t out = h.buffer(std::vector<uint32_t>(4, 0));
  std::vector<uint8_t> blob(16);
  for (int i = 0; i < 16; ++i) blob[static_cast<size_t>(i)] = static_cast<uint8_t>(0xa0 + i);
  KernelArg b;
  b.bytes = blob;
  auto r = h.launch("k", {1}, {1}, {arg(out), b});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint32_t>(out, 4), (std::vector<uint32_t>{0xa7a6a5a4u, 0xabaaa9a8u, 1005, 1}));
}

TEST(Data, ParameterAddressMisuseIsReported) {
  // "For .param{::entry}, operand a must be a kernel parameter address, otherwise the behavior
  // is undefined" (§9.7.9.20): a device function's parameter (a .local variable, §5.1.6.4) is
  // rejected at load; a register address past the kernel's parameters is reported at run time.
  Device dev;
  std::string diags;
  EXPECT_FALSE(dev.load_module(".version 8.7\n.target sm_90\n.address_size 64\n"
                               ".func f(.param .b32 a)\n{\n.reg .b64 %q<2>;\ncvta.param.u64 %q1, a;\nret;\n}\n",
                               "t.ptx", &diags));
  EXPECT_NE(diags.find("device function's parameter is .local"), std::string::npos) << diags;
  // §5.1.6.4: the address of a locally scoped .param variable cannot be taken with mov.
  EXPECT_FALSE(dev.load_module(kernel_ptx("{\n.param .b32 pa;\nmov.u64 %rd1, pa;\n}"), "t.ptx", &diags));
  EXPECT_NE(diags.find("declared in a body, cannot be taken"), std::string::npos) << diags;
  Harness h;
  h.load(kernel_ptx("mov.u64 %rd1, 4096;\ncvta.param.u64 %rd2, %rd1;"));
  auto r = h.launch("k", {1}, {1}, {arg(uint64_t{0}), arg(uint64_t{0})});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("not a kernel parameter address"), std::string::npos) << r.error;
}

TEST(Data, MovForms) {
  std::string body =
      "mov.u32 %r10, 0x89abcdef;\nmov.u32 %r11, 0x01234567;\nmov.b64 %rd1, {%r10, %r11};\n"
      "mov.b64 {%r12, %r13}, %rd1;\nmov.b32 {%h1, %h2}, %r10;\nmov.b32 %r14, {%h2, %h1};\n"
      "mov.b64 {%h3, %h4, %h5, %h6}, %rd1;\nmov.b64 %rd2, {%h6, %h5, %h4, %h3};\n"
      "mov.f32 %f1, 0f3F800000;\nmov.b32 %r15, %f1;\nmov.f64 %fd1, 0dBFF0000000000000;\nmov.b64 %rd3, %fd1;\n"
      "mov.u32 %r16, %laneid;\nmov.u32 %r17, %ntid.x;\nmov.u32 %r18, %lanemask_lt;\nmov.pred %p1, 1;\n"
      "mov.pred %p2, %p1;\nselp.u32 %r19, 7, 8, %p2;\nmov.u16 %h8, 0xfffe;\nmov.b32 %r20, 0;\nmov.u16 %h9, %h8;\n"
      "st.global.v4.u32 [%rd_out], {%r12, %r13, %r14, %r15};\nst.global.v2.u64 [%rd_out+16], {%rd1, %rd2};\n"
      "st.global.u64 [%rd_out+32], %rd3;\nst.global.v4.u32 [%rd_out+48], {%r16, %r17, %r18, %r19};\n"
      "st.global.u16 [%rd_out+64], %h9;\n";
  auto v = run1(body, {0}, 20);
  EXPECT_EQ(v[0], 0x89abcdefu);
  EXPECT_EQ(v[1], 0x01234567u);
  EXPECT_EQ(v[2], 0xcdef89abu);
  EXPECT_EQ(v[3], 0x3f800000u);
  EXPECT_EQ(v[4], 0x89abcdefu);
  EXPECT_EQ(v[5], 0x01234567u);
  EXPECT_EQ(v[6], 0x45670123u);  // 16-bit halves reversed
  EXPECT_EQ(v[7], 0xcdef89abu);
  EXPECT_EQ(v[8], 0u);
  EXPECT_EQ(v[9], 0xbff00000u);
  EXPECT_EQ(v[12], 0u);
  EXPECT_EQ(v[13], 1u);
  EXPECT_EQ(v[14], 0u);
  EXPECT_EQ(v[15], 7u);
  EXPECT_EQ(v[16], 0xfffeu);
}

TEST(Data, HintsPoliciesAndSpaceQueries) {
  Harness h;
  h.load(kernel_ptx(
      ".shared .align 4 .b32 sh;\n.local .align 4 .b32 lo;\n"
      "prefetch.global.L1 [%rd_in];\nprefetch.global.L2 [%rd_in];\nprefetch.L1 [%rd_in];\n"
      "prefetch.global.L2::evict_last [%rd_in];\nprefetch.global.L2::evict_normal [%rd_in];\n"
      "prefetch.local.L2 [lo];\nprefetchu.L1 [%rd_in];\nprefetch.global.L1 [0];\n"
      "applypriority.global.L2::evict_normal [%rd_in], 128;\ndiscard.global.L2 [%rd_in+128], 128;\n"
      "applypriority.L2::evict_normal [%rd_in], 128;\n"
      "createpolicy.fractional.L2::evict_last.b64 %rd1, 0.25;\n"
      "createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %rd2;\n"
      "createpolicy.range.global.L2::evict_first.L2::evict_unchanged.b64 %rd3, [%rd_in], 256, 1024;\n"
      "createpolicy.cvt.L2.b64 %rd4, 0x1234567890;\n"
      "st.global.v2.u64 [%rd_out], {%rd1, %rd2};\nst.global.v2.u64 [%rd_out+16], {%rd3, %rd4};\n"
      "mov.u64 %rd5, sh;\ncvta.shared.u64 %rd6, %rd5;\nmov.u64 %rd7, lo;\ncvta.local.u64 %rd8, %rd7;\n"
      "mov.u32 %r20, 0;\n"
      "isspacep.global %p1, %rd_in;\nisspacep.shared %p2, %rd6;\nisspacep.shared::cta %p3, %rd6;\n"
      "isspacep.shared::cluster %p4, %rd6;\nisspacep.local %p5, %rd8;\nisspacep.global %p6, %rd6;\n"
      "isspacep.local %p7, %rd_in;\nisspacep.const %p8, %rd_in;\nisspacep.param %p9, %rd_in;\n"
      "selp.u32 %r1, 1, 0, %p1;\nselp.u32 %r2, 2, 0, %p2;\nselp.u32 %r3, 4, 0, %p3;\nselp.u32 %r4, 8, 0, %p4;\n"
      "selp.u32 %r5, 16, 0, %p5;\nselp.u32 %r6, 32, 0, %p6;\nselp.u32 %r7, 64, 0, %p7;\nselp.u32 %r8, 128, 0, %p8;\n"
      "selp.u32 %r9, 256, 0, %p9;\n"
      "mov.u64 %rd12, out;\ncvta.param.u64 %rd13, %rd12;\nisspacep.param %p10, %rd13;\n"
      "isspacep.param::entry %p11, %rd13;\nisspacep.global %p12, %rd13;\nisspacep.shared %p13, %rd13;\n"
      "selp.u32 %r10, 512, 0, %p10;\nselp.u32 %r11, 1024, 0, %p11;\nselp.u32 %r12, 2048, 0, %p12;\n"
      "selp.u32 %r13, 4096, 0, %p13;\nor.b32 %r9, %r9, %r10;\nor.b32 %r9, %r9, %r11;\nor.b32 %r9, %r9, %r12;\n"
      "or.b32 %r9, %r9, %r13;\n"
      "or.b32 %r20, %r1, %r2;\nor.b32 %r20, %r20, %r3;\nor.b32 %r20, %r20, %r4;\nor.b32 %r20, %r20, %r5;\n"
      "or.b32 %r20, %r20, %r6;\nor.b32 %r20, %r20, %r7;\nor.b32 %r20, %r20, %r8;\nor.b32 %r20, %r20, %r9;\n"
      "cvta.to.shared.u64 %rd9, %rd6;\ncvta.to.global.u64 %rd10, %rd_in;\nsub.s64 %rd11, %rd10, %rd_in;\n"
      "mov.b64 {%r21, %r22}, %rd9;\n"
      "st.global.v2.u32 [%rd_out+32], {%r20, %r21};\nst.global.u64 [%rd_out+40], %rd11;\n"));
  uint64_t out = h.buffer(std::vector<uint64_t>(6, 0)), din = h.buffer(std::vector<uint32_t>(64, 0));
  auto r = h.launch("k", {1}, {1}, {arg(out), arg(din)});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint64_t>(out, 6);
  // The encoding documented in data.cpp: kind in 63:62, priorities in 61:59 and 58:56.
  EXPECT_EQ(v[0], (1ull << 62) | (1ull << 59) | 0x3e800000u);         // evict_last, 0.25
  EXPECT_EQ(v[1], (1ull << 62) | (2ull << 59) | (1ull << 56) | 0x3f800000u);  // default fraction 1.0
  EXPECT_EQ(v[2], (2ull << 62) | (3ull << 59) | (2ull << 56) | 256u);
  EXPECT_EQ(v[3], 0x1234567890ull);
  // The parameter window lies inside the global one (§9.7.9.19).
  EXPECT_EQ(v[4] & 0xffffffffu, 1u | 2u | 4u | 8u | 16u | 512u | 1024u | 2048u);
  EXPECT_EQ(v[4] >> 32, 0x400u);  // sh is the first byte of user shared memory (mem::cluster_shared_address)
  EXPECT_EQ(v[5], 0u);
}

TEST(Data, AccessesAreCheckedForAlignmentAndBounds) {
  struct Case {
    const char* body;
    const char* expect;
  };
  for (const Case& c : {Case{"ld.global.v2.u32 {%r1, %r2}, [%rd_in+4];", "misaligned 8-byte global"},
                        Case{"ld.relaxed.gpu.global.u64 %rd1, [%rd_in+4];", "misaligned 8-byte global"},
                        Case{"st.global.v4.f32 [%rd_in+8], {%f1, %f2, %f3, %f4};", "misaligned 16-byte global"},
                        Case{"ld.global.nc.u32 %r1, [%rd_in+64];", "out-of-bounds 4-byte global"},
                        Case{".shared .align 4 .b32 s[4];\nst.shared.u32 [s+16], 1;", "out-of-bounds 4-byte shared"},
                        Case{"ldu.global.u32 %r1, [0];", "out-of-bounds 4-byte global"},
                        Case{"st.volatile.global.u16 [%rd_in+1], %h1;", "misaligned 2-byte global"}}) {
    Harness h;
    h.load(kernel_ptx(c.body));
    uint64_t din = h.buffer(std::vector<uint32_t>(16, 0));
    auto r = h.launch("k", {1}, {1}, {arg(uint64_t{0}), arg(din)});
    EXPECT_FALSE(r.ok) << c.body;
    EXPECT_NE(r.error.find(c.expect), std::string::npos) << r.error;
  }
}

TEST(Data, LineOperationsAreCheckedAndB128Rejected) {
  for (const char* body : {"applypriority.global.L2::evict_normal [%rd_in+64], 128;", "discard.global.L2 [%rd_in+512], 128;"}) {
    Harness h;
    h.load(kernel_ptx(body));
    uint64_t din = h.buffer(std::vector<uint32_t>(128, 0));
    auto r = h.launch("k", {1}, {1}, {arg(uint64_t{0}), arg(din)});
    EXPECT_FALSE(r.ok) << body;
    EXPECT_NE(r.error.find("128-byte global"), std::string::npos) << r.error;
  }
}

// .b128 (§5.2.1, §9.7.9.4, §9.7.9.8): a 16-byte access into a register of two 64-bit halves,
// low half first; mov packs and unpacks {lo, hi}; a misaligned 16-byte access faults.
TEST(Data, B128LoadStoreAndMov) {
  Harness h;
  h.load(kernel_ptx(".reg .b128 %q<3>;\nld.global.b128 %q0, [%rd_in];\nmov.b128 {%rd1, %rd2}, %q0;\n"
                    "mov.b128 %q1, {%rd2, %rd1};\nmov.b128 %q2, %q1;\nst.global.b128 [%rd_out], %q2;\n"
                    "st.global.u64 [%rd_out+16], %rd1;\nld.global.b128 %q0, [%rd_in+8];", "sm_90"));
  uint64_t din = h.buffer(std::vector<uint64_t>{0x0123456789abcdefull, 0xfedcba9876543210ull});
  uint64_t dout = h.buffer(std::vector<uint64_t>(3, 0));
  LaunchResult r = h.launch("k", {1}, {1}, {arg(dout), arg(din)});
  ASSERT_FALSE(r.ok);  // the last load is 8-byte aligned only
  EXPECT_NE(r.error.find("misaligned 16-byte global access"), std::string::npos) << r.error;
  auto v = h.read<uint64_t>(dout, 3);
  EXPECT_EQ(v[0], 0xfedcba9876543210ull);
  EXPECT_EQ(v[1], 0x0123456789abcdefull);
  EXPECT_EQ(v[2], 0x0123456789abcdefull);
}

// st.bulk zero-fills shared memory (§9.7.9.13, sm_100): through .shared::cta and generic
// addresses; a size not a multiple of 8, or a generic address outside the shared window, is undefined.
TEST(Data, StBulkZeroFillsSharedMemory) {
  const std::string fill = ".shared .align 16 .b8 buf[256];\n"
                           "mov.u32 %r1, %tid.x;\nmov.u32 %r2, buf;\nshl.b32 %r3, %r1, 2;\nadd.u32 %r4, %r2, %r3;\n"
                           "st.shared.u32 [%r4], 0xffffffff;\nbar.sync 0;\nsetp.eq.u32 %p1, %r1, 0;\n";
  const std::string out = "bar.sync 0;\nld.shared.u32 %r5, [%r4];\nmul.wide.u32 %rd1, %r1, 4;\n"
                          "add.s64 %rd1, %rd_out, %rd1;\nst.global.u32 [%rd1], %r5;\n";
  for (const char* st : {"@%p1 st.bulk.weak.shared::cta [buf+16], 64, 0;\n", "cvta.shared.u64 %rd2, buf;\n@%p1 st.bulk [%rd2+16], 64, 0;\n"}) {
    Harness h;
    h.load(kernel_ptx(fill + st + out, "sm_100a"));
    uint64_t o = h.buffer(std::vector<uint32_t>(64, 7));
    ASSERT_TRUE(h.launch("k", {1}, {64}, {arg(o), arg(uint64_t{0})}).ok) << st;
    auto v = h.read<uint32_t>(o, 64);
    for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(v[t], t >= 4 && t < 20 ? 0u : 0xffffffffu) << st << t;
  }
  for (const char* bad : {"@%p1 st.bulk.shared::cta [buf], 12, 0;\n", "@%p1 st.bulk [%rd_out], 16, 0;\n"}) {
    Harness h;
    h.load(kernel_ptx(fill + bad, "sm_100a"));
    auto r = h.launch("k", {1}, {64}, {arg(h.buffer(std::vector<uint32_t>(64))), arg(uint64_t{0})});
    ASSERT_FALSE(r.ok) << bad;
    EXPECT_NE(r.error.find("(undefined, PTX §9.7.9.13)"), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace ptxvm::test
