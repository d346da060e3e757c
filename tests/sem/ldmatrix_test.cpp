// ldmatrix / stmatrix / movmatrix .m8n8 .b16 (PTX §9.7.14.5.15-17, 001_23fdd5978b24a3ed.txt):
// bit movement for every .num and .trans, and the misaligned-row fault. (The 8-bit sm_100a forms:
// ldmatrix_sm100_test.cpp.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.h"

namespace ptxvm::test {
namespace {

// Shared memory `sm` of 4 matrices x 8 rows, each row 16 bytes at a 32-byte pitch (rows need not
// be contiguous); lane l addresses row l % 8 of matrix l / 8.
const char* kShared =
    ".shared .align 16 .b8 sm[1024];\nmov.u32 %r1, %tid.x;\nmov.u64 %rd5, sm;\n"
    "mul.wide.u32 %rd6, %r1, 32;\nadd.s64 %rd7, %rd5, %rd6;\n"; // %rd7: this lane's row (shared)

uint16_t element(int q, int r, int c) {
  return static_cast<uint16_t>(q << 12 | r << 8 | c << 4 | 0xa);
}

TEST(LdMatrix, EveryNumAndTrans) {
  // Global image of shared memory: matrix q row r at (q*8+r)*32 bytes, element (r, c) distinct.
  std::vector<uint16_t> image(512, 0xdead);
  for (int q = 0; q < 4; ++q)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) image[(q * 8 + r) * 16 + c] = element(q, r, c);
  for (int num : {1, 2, 4})
    for (bool trans : {false, true}) {
      std::string regs = "{%r20";
      for (int i = 1; i < num; ++i) regs += ", %r" + std::to_string(20 + i);
      regs += "}";
      std::string body =
          std::string(kShared) +
          "mul.wide.u32 %rd8, %r1, 32;\nadd.s64 %rd9, %rd_in, %rd8;\n"
          "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd9];\nst.shared.v4.u32 [%rd7], {%r2, %r3, "
          "%r4, %r5};\n"
          "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd9+16];\nst.shared.v4.u32 [%rd7+16], {%r2, "
          "%r3, %r4, %r5};\n"
          "bar.sync 0;\nldmatrix.sync.aligned.m8n8.x" +
          std::to_string(num) + (trans ? ".trans" : "") + ".shared.b16 " + regs +
          ", [%rd7];\nmul.wide.u32 %rd10, %r1, 16;\nadd.s64 %rd11, %rd_out, %rd10;\n";
      for (int i = 0; i < num; ++i)
        body += "st.global.u32 [%rd11+" + std::to_string(4 * i) + "], %r" + std::to_string(20 + i) +
                ";\n";
      Harness h;
      h.load(kernel_ptx(body));
      uint64_t out = h.buffer(std::vector<uint32_t>(128, 0)), din = h.buffer(image);
      auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
      ASSERT_TRUE(r.ok) << r.error;
      auto v = h.read<uint32_t>(out, 128);
      for (int l = 0; l < 32; ++l)
        for (int q = 0; q < num; ++q) {
          // Figure 103: lane l holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1; .trans reads
          // the matrix column-major.
          int row = l / 4, col = 2 * (l % 4);
          uint32_t lo = trans ? element(q, col, row) : element(q, row, col);
          uint32_t hi = trans ? element(q, col + 1, row) : element(q, row, col + 1);
          EXPECT_EQ(v[l * 4 + q], lo | hi << 16)
              << "x" << num << (trans ? ".trans" : "") << " lane " << l << " matrix " << q;
        }
    }
}

TEST(StMatrix, EveryNumAndTrans) {
  for (int num : {1, 2, 4})
    for (bool trans : {false, true}) {
      std::string regs = "{%r20";
      for (int i = 1; i < num; ++i) regs += ", %r" + std::to_string(20 + i);
      regs += "}";
      // Lane l register q = element(q, row, col) pair as the ldmatrix fragment of the stored
      // matrix.
      std::string body = std::string(kShared) +
                         "mul.lo.u32 %r6, %r1, 0x10001;\n"
                         "st.shared.v4.u32 [%rd7], {%r6, %r6, %r6, %r6};\n"
                         "st.shared.v4.u32 [%rd7+16], {%r6, %r6, %r6, %r6};\nbar.sync 0;\n"
                         "mul.wide.u32 %rd8, %r1, 16;\nadd.s64 %rd9, %rd_in, %rd8;\n";
      for (int i = 0; i < num; ++i)
        body += "ld.global.u32 %r" + std::to_string(20 + i) + ", [%rd9+" + std::to_string(4 * i) +
                "];\n";
      body += "stmatrix.sync.aligned.m8n8.x" + std::to_string(num) + (trans ? ".trans" : "") +
              ".shared.b16 [%rd7], " + regs +
              ";\nbar.sync 0;\nmul.wide.u32 %rd10, %r1, 32;\nadd.s64 %rd11, %rd_out, %rd10;\n"
              "ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%rd7];\nst.global.v4.u32 [%rd11], {%r2, "
              "%r3, %r4, %r5};\n"
              "ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%rd7+16];\nst.global.v4.u32 [%rd11+16], "
              "{%r2, %r3, %r4, %r5};\n";
      std::vector<uint32_t> in(128, 0);
      for (int l = 0; l < 32; ++l)
        for (int q = 0; q < num; ++q) {
          int row = l / 4, col = 2 * (l % 4);
          in[l * 4 + q] = element(q, row, col) | uint32_t{element(q, row, col + 1)} << 16;
        }
      Harness h;
      h.load(kernel_ptx(body));
      uint64_t out = h.buffer(std::vector<uint16_t>(512, 0)), din = h.buffer(in);
      auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
      ASSERT_TRUE(r.ok) << r.error;
      auto v = h.read<uint16_t>(out, 512);
      for (int q = 0; q < 4; ++q)
        for (int r8 = 0; r8 < 8; ++r8)
          for (int c = 0; c < 16; ++c) {
            uint16_t untouched = static_cast<uint16_t>(q * 8 + r8); // the lane's %r1, low half
            uint16_t want =
                q < num && c < 8 ? (trans ? element(q, c, r8) : element(q, r8, c)) : untouched;
            EXPECT_EQ(v[(q * 8 + r8) * 16 + c], want)
                << "x" << num << (trans ? ".trans" : "") << " m" << q << " r" << r8 << " c" << c;
          }
    }
}

TEST(MovMatrix, Transposes) {
  Harness h;
  h.load(
      kernel_ptx("mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %rd_in, %rd1;\n"
                 "add.s64 %rd3, %rd_out, %rd1;\nld.global.u32 %r2, [%rd2];\n"
                 "movmatrix.sync.aligned.m8n8.trans.b16 %r3, %r2;\nst.global.u32 [%rd3], %r3;\n"));
  std::vector<uint32_t> in(32);
  for (int l = 0; l < 32; ++l)
    in[l] = element(0, l / 4, 2 * (l % 4)) | uint32_t{element(0, l / 4, 2 * (l % 4) + 1)} << 16;
  uint64_t out = h.buffer(std::vector<uint32_t>(32, 0)), din = h.buffer(in);
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 32);
  for (int l = 0; l < 32; ++l) {
    int row = l / 4, col = 2 * (l % 4); // of the transpose: element (row, col) = input (col, row)
    EXPECT_EQ(v[l], element(0, col, row) | uint32_t{element(0, col + 1, row)} << 16)
        << "lane " << l;
  }
}

TEST(LdMatrix, MisalignedRowFaults) {
  Harness h;
  h.load(kernel_ptx(std::string(kShared) +
                    "setp.eq.u32 %p1, %r1, 5;\n@%p1 add.s64 %rd7, %rd7, 8;\n"
                    "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%rd7];\n"));
  auto r = h.launch("k", {1}, {32}, {arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(r.guest_fault);
  EXPECT_NE(r.error.find("lane 5"), std::string::npos) << r.error;
}

} // namespace
} // namespace ptxvm::test
