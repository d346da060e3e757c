// The 8-bit ldmatrix/stmatrix forms of sm_100a/sm_120a (PTX §9.7.14.5.15-16,
// 001_23fdd5978b24a3ed.txt): ldmatrix .m16n16 (.trans) and .m8n16 of .b8 and of 6-/4-bit elements
// unpacked to bytes (.b8x16.b6x16_p32 / .b4x16_p64), stmatrix .m16n8 (.trans) .b8. Every byte of
// every lane is checked against the fragments written out here from the spec text (§9.7.14.5.15:
// ".m16n16: each thread loads 4 consecutive columns spanning 2 rows", ".m8n16: 4 consecutive
// columns") and figures 104/105 as CUTLASS's copy_traits_sm100.hpp describes them.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"

namespace ptxvm::test {
namespace {

__extension__ typedef unsigned __int128 u128; // a 16-byte row as one number

// Shared memory `sm`: 32 rows of 16 bytes at a 32-byte pitch (rows need not be contiguous); lane l
// gives the address of row l (so matrix q of `rows` rows is rows q*rows .. q*rows + rows - 1),
// after copying its 32 bytes from `in` there.
const char* kFill =
    ".shared .align 16 .b8 sm[1024];\nmov.u32 %r1, %tid.x;\nmov.u64 %rd5, sm;\n"
    "mul.wide.u32 %rd6, %r1, 32;\nadd.s64 %rd7, %rd5, %rd6;\nadd.s64 %rd9, %rd_in, %rd6;\n"
    "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd9];\nst.shared.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};\n"
    "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd9+16];\n"
    "st.shared.v4.u32 [%rd7+16], {%r2, %r3, %r4, %r5};\nbar.sync 0;\n";

std::string regs(int n) {
  std::string s = "{%r20";
  for (int i = 1; i < n; ++i) s += ", %r" + std::to_string(20 + i);
  return s + "}";
}

// Byte c of row r of the shared-memory image: distinct over the first 16 bytes of every row.
uint8_t image_byte(int r, int c) {
  return static_cast<uint8_t>(r * 16 + c + 0x35);
}

// Element i of a 16-byte row read as packed unsigned `bits`-bit elements (element i at bits
// bits*i.., little-endian), zero-extended; 8: the byte itself.
uint8_t element(const std::array<uint8_t, 16>& row, int bits, int i) {
  if (bits == 8) return row[i];
  u128 v = 0;
  for (int b = 15; b >= 0; --b) v = v << 8 | row[b];
  return static_cast<uint8_t>((v >> (bits * i)) & ((1u << bits) - 1));
}

// Runs `instr` (destination %r20..) after kFill and returns each lane's `n` registers.
std::vector<uint32_t> run_load(const std::string& instr, int n, const std::vector<uint8_t>& image) {
  std::string body = std::string(kFill) + instr + "\nmul.wide.u32 %rd10, %r1, 16;\n" +
                     "add.s64 %rd11, %rd_out, %rd10;\n";
  for (int i = 0; i < n; ++i)
    body += "st.global.u32 [%rd11+" + std::to_string(4 * i) + "], %r" + std::to_string(20 + i) + ";\n";
  Harness h;
  h.load(kernel_ptx(body, "sm_100a"));
  uint64_t out = h.buffer(std::vector<uint32_t>(128, 0)), in = h.buffer(image);
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(in)});
  EXPECT_TRUE(r.ok) << r.error;
  return h.read<uint32_t>(out, 128);
}

std::vector<uint8_t> image() {
  std::vector<uint8_t> img(1024);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) img[r * 32 + c] = c < 16 ? image_byte(r, c) : 0xee;
  return img;
}

std::array<uint8_t, 16> row_of(int r) {
  std::array<uint8_t, 16> row;
  for (int c = 0; c < 16; ++c) row[c] = image_byte(r, c);
  return row;
}

struct Fmt {
  std::string suffix; // the type qualifiers
  int bits;           // of a source element
};
const Fmt kFormats[] = {{".b8", 8}, {".b8x16.b6x16_p32", 6}, {".b8x16.b4x16_p64", 4}};

// .m16n16 (.trans): matrix q is the 16x16 matrix M_q whose row j is memory row 16q + j; the
// registers hold its transpose T = M_q^T as mma's 8-bit A fragment: register 2q + h, byte b of lane
// l is T[l/4 + 8h][4(l%4) + b] = M_q[4(l%4) + b][l/4 + 8h].
TEST(LdMatrixSm100, M16n16EveryNumAndFormat) {
  for (const Fmt& f : kFormats)
    for (int num : {1, 2}) {
      std::string instr = "ldmatrix.sync.aligned.m16n16.x" + std::to_string(num) +
                          ".trans.shared" + f.suffix + " " + regs(2 * num) + ", [%rd7];";
      auto v = run_load(instr, 2 * num, image());
      for (int l = 0; l < 32; ++l)
        for (int q = 0; q < num; ++q)
          for (int h = 0; h < 2; ++h)
            for (int b = 0; b < 4; ++b) {
              int trow = l / 4 + 8 * h, tcol = 4 * (l % 4) + b; // of T
              uint8_t want = element(row_of(16 * q + tcol), f.bits, trow);
              EXPECT_EQ((v[l * 4 + 2 * q + h] >> (8 * b)) & 0xff, want)
                  << instr << " lane " << l << " reg " << 2 * q + h << " byte " << b;
            }
    }
}

// .m8n16: matrix q is rows 8q..8q+7; register q, byte b of lane l is element 4(l%4) + b of row
// l/4 of matrix q.
TEST(LdMatrixSm100, M8n16EveryNumAndFormat) {
  for (const Fmt& f : kFormats) {
    if (f.bits == 8) continue; // .m8n16 loads only .b8x16
    for (int num : {1, 2, 4}) {
      std::string instr = "ldmatrix.sync.aligned.m8n16.x" + std::to_string(num) + ".shared" +
                          f.suffix + " " + regs(num) + ", [%rd7];";
      auto v = run_load(instr, num, image());
      for (int l = 0; l < 32; ++l)
        for (int q = 0; q < num; ++q)
          for (int b = 0; b < 4; ++b)
            EXPECT_EQ((v[l * 4 + q] >> (8 * b)) & 0xff,
                      element(row_of(8 * q + l / 4), f.bits, 4 * (l % 4) + b))
                << instr << " lane " << l << " reg " << q << " byte " << b;
    }
  }
}

// The unpacking on its own: a 4-bit row 0x..FEDCBA9876543210 gives bytes 0..15, a 6-bit row of
// elements 63, 62, .. gives them back, each zero-extended into the low bits of its byte.
TEST(LdMatrixSm100, UnpacksIntoLowBits) {
  std::vector<uint8_t> img(1024, 0xff); // the padding and unused rows all ones
  std::array<uint8_t, 16> six{};
  u128 packed = 0;
  for (int i = 15; i >= 0; --i) packed = packed << 6 | static_cast<unsigned>(63 - i);
  for (int b = 0; b < 12; ++b) six[b] = static_cast<uint8_t>(packed >> (8 * b));
  for (int r = 0; r < 8; ++r) {
    for (int b = 0; b < 8; ++b) img[r * 32 + b] = static_cast<uint8_t>(2 * b | (2 * b + 1) << 4);
    for (int b = 0; b < 12; ++b) img[(8 + r) * 32 + b] = six[b];
  }
  auto v = run_load("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b4x16_p64 {%r20}, [%rd7];", 1, img);
  for (int l = 0; l < 32; ++l)
    for (int b = 0; b < 4; ++b) EXPECT_EQ((v[l * 4] >> (8 * b)) & 0xff, 4u * (l % 4) + b) << l;
  // lanes 0-7 give rows 8-15 (the 6-bit rows) as matrix 0
  std::vector<uint8_t> shifted(img.begin() + 8 * 32, img.end());
  shifted.resize(1024, 0xff);
  v = run_load("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32 {%r20}, [%rd7];", 1, shifted);
  for (int l = 0; l < 32; ++l)
    for (int b = 0; b < 4; ++b) EXPECT_EQ((v[l * 4] >> (8 * b)) & 0xff, 63u - (4 * (l % 4) + b)) << l;
}

// stmatrix .m16n8 (.trans) .b8: register q of the lanes holds the 16x8 matrix N_q as mma's C
// fragment (lane l, byte j: N_q[l/4 + 8(j/2)][2(l%4) + j%2]); memory row 8q + r (r = 0..7) gets
// column r of N_q: byte c of it is N_q[c][r].
TEST(StMatrixSm100, M16n8EveryNum) {
  auto reg_byte = [](int q, int l, int j) { return static_cast<uint8_t>(l * 4 + j + 37 * q); };
  for (int num : {1, 2, 4}) {
    std::string body = std::string(kFill) + "mul.wide.u32 %rd8, %r1, 16;\nadd.s64 %rd12, %rd_in, %rd8;\n"
                       "add.s64 %rd12, %rd12, 1024;\n";
    for (int i = 0; i < num; ++i)
      body += "ld.global.u32 %r" + std::to_string(20 + i) + ", [%rd12+" + std::to_string(4 * i) + "];\n";
    body += "stmatrix.sync.aligned.m16n8.x" + std::to_string(num) + ".trans.shared.b8 [%rd7], " +
            regs(num) + ";\nbar.sync 0;\nadd.s64 %rd11, %rd_out, %rd6;\n"
            "ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%rd7];\nst.global.v4.u32 [%rd11], {%r2, %r3, %r4, %r5};\n"
            "ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%rd7+16];\n"
            "st.global.v4.u32 [%rd11+16], {%r2, %r3, %r4, %r5};\n";
    std::vector<uint8_t> in = image();
    in.resize(1024 + 512);
    std::vector<std::array<std::array<uint8_t, 8>, 16>> n(num);
    for (int q = 0; q < num; ++q)
      for (int l = 0; l < 32; ++l)
        for (int j = 0; j < 4; ++j) {
          in[1024 + l * 16 + q * 4 + j] = reg_byte(q, l, j);
          n[q][l / 4 + 8 * (j / 2)][2 * (l % 4) + j % 2] = reg_byte(q, l, j);
        }
    Harness h;
    h.load(kernel_ptx(body, "sm_100a"));
    uint64_t out = h.buffer(std::vector<uint8_t>(1024, 0)), din = h.buffer(in);
    auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
    ASSERT_TRUE(r.ok) << r.error;
    auto v = h.read<uint8_t>(out, 1024);
    for (int row = 0; row < 32; ++row)
      for (int c = 0; c < 32; ++c) {
        int q = row / 8;
        uint8_t want = q < num && c < 16 ? n[q][c][row % 8] : c < 16 ? image_byte(row, c) : 0xee;
        EXPECT_EQ(v[row * 32 + c], want) << "x" << num << " row " << row << " byte " << c;
      }
  }
}

// Forms the ISA rules out (§9.7.14.5.15-16 and ptxas): .m16n16 without .trans or with .x4, .m8n16
// with .trans or plain .b8, stmatrix .m16n8 without .trans or of .b16, the 8-bit forms before
// sm_100a.
TEST(LdMatrixSm100, InvalidFormsDoNotLoad) {
  const std::pair<std::string, std::string> cases[] = {
      {"ldmatrix.sync.aligned.m16n16.x1.shared.b8 {%r2, %r3}, [%rd7];", "sm_100a"},
      {"ldmatrix.sync.aligned.m16n16.x4.trans.shared.b8 {%r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9}, "
       "[%rd7];",
       "sm_100a"},
      {"ldmatrix.sync.aligned.m8n16.x1.trans.shared.b8x16.b4x16_p64 {%r2}, [%rd7];", "sm_120a"},
      {"ldmatrix.sync.aligned.m8n16.x1.shared.b8 {%r2}, [%rd7];", "sm_120a"},
      {"stmatrix.sync.aligned.m16n8.x1.shared.b8 [%rd7], {%r2};", "sm_100a"},
      {"stmatrix.sync.aligned.m16n8.x1.trans.shared.b16 [%rd7], {%r2};", "sm_100a"},
      {"stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%rd7], {%r2};", "sm_90a"},
      {"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r2, %r3}, [%rd7];", "sm_90a"},
  };
  for (const auto& [instr, target] : cases) {
    Device dev;
    std::string diags;
    auto m = dev.load_module(kernel_ptx(std::string(kFill) + instr, target), "t.ptx", &diags);
    EXPECT_FALSE(m) << instr << " on " << target;
    EXPECT_NE(diags.find("error"), std::string::npos) << diags;
  }
}

// Each row is read as 16 naturally aligned bytes.
TEST(LdMatrixSm100, MisalignedRowFaults) {
  Harness h;
  h.load(kernel_ptx(std::string(kFill) + "setp.eq.u32 %p1, %r1, 3;\n@%p1 add.s64 %rd7, %rd7, 4;\n"
                                         "ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32 {%r20}, [%rd7];\n",
                    "sm_120a"));
  auto r = h.launch("k", {1}, {32}, {arg(uint64_t{0}), arg(h.buffer(image()))});
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(r.guest_fault);
  EXPECT_NE(r.error.find("lane 3"), std::string::npos) << r.error;
}

} // namespace
} // namespace ptxvm::test
