// Logic and shift, PTX §9.7.8 (001_23fdd5978b24a3ed.txt), prmt (§9.7.9.7) and slct (§9.7.6.4):
// every type and mode against references transcribed from the spec's semantics; lop3 over all
// 256 immLut values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rows.h"

namespace ptxvm::test {
namespace {

int64_t sx(uint64_t v, int bits) { return bits == 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits); }

TEST(LogicSem, AndOrXorNotCnot) {  // §9.7.8.1-5
  for (int n : {16, 32, 64}) {
    std::vector<uint64_t> rows;
    if (n == 16)
      for (uint64_t b : edges(16))
        for (uint64_t a = 0; a < 0x10000; a += 7) rows.insert(rows.end(), {a, b});
    else
      rows = rows_for({n, n}, 1024);
    std::string ty = ".b" + std::to_string(n);
    expect_op("and" + ty, n, {n, n}, rows, [](const uint64_t* r) { return r[0] & r[1]; });
    expect_op("or" + ty, n, {n, n}, rows, [](const uint64_t* r) { return r[0] | r[1]; });
    expect_op("xor" + ty, n, {n, n}, rows, [](const uint64_t* r) { return r[0] ^ r[1]; });
    expect_op("not" + ty, n, {n}, rows_for({n}, 1024), [](const uint64_t* r) { return ~r[0]; });
    expect_op("cnot" + ty, n, {n}, rows_for({n}, 1024), [](const uint64_t* r) { return uint64_t{r[0] == 0}; });
  }
}

TEST(LogicSem, PredicateForms) {  // .pred operands, including `!p` sources
  std::vector<uint64_t> rows = {0, 0, 0, 1, 1, 0, 1, 1};
  std::string body = "ld.global.u32 %r1, " + in_slot(0) + ";\nld.global.u32 %r2, " + in_slot(1) + ";\n"
                     "setp.ne.u32 %p1, %r1, 0;\nsetp.ne.u32 %p2, %r2, 0;\n";
  const char* ops[] = {"and.pred %p3, %p1, %p2", "or.pred %p3, %p1, %p2", "xor.pred %p3, %p1, %p2", "not.pred %p3, %p1",
                       "and.pred %p3, %p1, !%p2", "or.pred %p3, !%p1, %p2", "xor.pred %p3, !%p1, !%p2", "not.pred %p3, !%p1"};
  for (size_t i = 0; i < std::size(ops); ++i)
    body += std::string(ops[i]) + ";\nselp.u32 %r3, 1, 0, %p3;\nst.global.u32 " + out_slot(i) + ", %r3;\n";
  std::vector<uint64_t> out = run_rows(body, rows, 2, std::size(ops));
  for (size_t r = 0; r < 4; ++r) {
    bool a = rows[2 * r], b = rows[2 * r + 1];
    bool want[] = {a && b, a || b, a != b, !a, a && !b, !a || b, a != b, a};
    for (size_t i = 0; i < std::size(ops); ++i) EXPECT_EQ(out[r * std::size(ops) + i], uint64_t{want[i]}) << ops[i] << " a=" << a << " b=" << b;
  }
}

// slct with an .s32 selector (§9.7.6.4): d = c >= 0 ? a : b, a and b moved as bits of every width
// (the .f32 selector's -0, subnormals, NaN and .ftz: tests/hw/float, recorded on an H200).
TEST(LogicSem, SlctSelectsOnTheSignOfAnS32) {
  for (int n : {16, 32, 64}) {
    std::vector<uint64_t> rows = rows_for({n, n, 32}, 512);
    for (uint64_t c : {0x0ull, 0x1ull, 0xffffffffull, 0x80000000ull, 0x7fffffffull})
      rows.insert(rows.end(), {0x1234567890abcdefull & mask_of(n), 0xfedcba0987654321ull & mask_of(n), c});
    for (const char* type : {".b", ".u", ".s"})
      expect_op("slct" + std::string(type) + std::to_string(n) + ".s32", n, {n, n, 32}, rows,
                [](const uint64_t* r) { return static_cast<int32_t>(r[2]) >= 0 ? r[0] : r[1]; });
  }
}

// F(a, b, c) bit by bit: bit j of d is immLut bit (a_j << 2 | b_j << 1 | c_j), since
// immLut = F(0xF0, 0xCC, 0xAA) (§9.7.8.6).
uint32_t lut_ref(uint32_t lut, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d = 0;
  for (int j = 0; j < 32; ++j) d |= (lut >> ((a >> j & 1) << 2 | (b >> j & 1) << 1 | (c >> j & 1)) & 1) << j;
  return d;
}

TEST(LogicSem, Lop3AllLuts) {
  std::vector<uint64_t> rows = {0xF0, 0xCC, 0xAA, 0, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 61; ++i) rows.insert(rows.end(), {rng() & 0xffffffff, rng() & 0xffffffff, rng() & 0xffffffff});
  std::string body;
  for (int k = 0; k < 3; ++k) body += "ld.global.u32 %r" + std::to_string(k + 1) + ", " + in_slot(static_cast<size_t>(k)) + ";\n";
  for (int lut = 0; lut < 256; ++lut)
    body += "lop3.b32 %r4, %r1, %r2, %r3, " + std::to_string(lut) + ";\nst.global.u32 " + out_slot(static_cast<size_t>(lut)) + ", %r4;\n";
  std::vector<uint64_t> out = run_rows(body, rows, 3, 256);
  for (size_t r = 0; r < rows.size() / 3; ++r)
    for (uint32_t lut = 0; lut < 256; ++lut) {
      auto a = static_cast<uint32_t>(rows[3 * r]), b = static_cast<uint32_t>(rows[3 * r + 1]), c = static_cast<uint32_t>(rows[3 * r + 2]);
      ASSERT_EQ(out[r * 256 + lut], lut_ref(lut, a, b, c)) << "lut " << lut << " row " << r;
    }
  for (uint32_t lut = 0; lut < 256; ++lut) EXPECT_EQ(out[lut] & 0xff, lut) << "F(0xF0, 0xCC, 0xAA) must be immLut";
  // The spec's examples: a & b & c = 0x80, a | b | c = 0xFE, a & b & ~c = 0x40, (a & b | c) ^ a = 0x1A.
  EXPECT_EQ(lut_ref(0x80, 0xF0, 0xCC, 0xAA), 0xF0u & 0xCC & 0xAA);
  EXPECT_EQ(lut_ref(0x1A, 0xF0, 0xCC, 0xAA), ((0xF0u & 0xCC) | 0xAA) ^ 0xF0);
}

TEST(LogicSem, Lop3BoolOp) {  // p = (d != 0) BoolOp q; d may be the sink
  std::vector<uint64_t> rows;
  std::mt19937_64 rng(4);
  for (uint64_t q : {0, 1})
    for (int i = 0; i < 16; ++i) rows.insert(rows.end(), {rng() & 0xffffffff, rng() & 0xffffffff, rng() & 0xffffffff, q});
  for (uint64_t q : {0, 1}) rows.insert(rows.end(), {0, 0, 0, q});
  const uint32_t luts[] = {0x00, 0x80, 0x3f, 0x96, 0xfe, 0xff};
  std::string body;
  for (int k = 0; k < 4; ++k) body += "ld.global.u32 %r" + std::to_string(k + 1) + ", " + in_slot(static_cast<size_t>(k)) + ";\n";
  body += "setp.ne.u32 %p1, %r4, 0;\n";
  size_t slot = 0;
  for (uint32_t lut : luts)
    for (const char* op : {"or", "and"}) {
      body += std::string("lop3.") + op + ".b32 %r5|%p2, %r1, %r2, %r3, " + std::to_string(lut) + ", %p1;\n"
              "selp.u32 %r6, 1, 0, %p2;\nst.global.u32 " + out_slot(slot) + ", %r5;\nst.global.u32 " + out_slot(slot + 1) + ", %r6;\n";
      body += std::string("lop3.") + op + ".b32 _|%p3, %r1, %r2, %r3, " + std::to_string(lut) + ", !%p1;\n"
              "selp.u32 %r6, 1, 0, %p3;\nst.global.u32 " + out_slot(slot + 2) + ", %r6;\n";
      slot += 3;
    }
  std::vector<uint64_t> out = run_rows(body, rows, 4, slot);
  for (size_t r = 0; r < rows.size() / 4; ++r) {
    const uint64_t* row = &rows[4 * r];
    size_t s = 0;
    for (uint32_t lut : luts)
      for (bool is_or : {true, false}) {
        uint32_t d = lut_ref(lut, static_cast<uint32_t>(row[0]), static_cast<uint32_t>(row[1]), static_cast<uint32_t>(row[2]));
        bool q = row[3] != 0;
        EXPECT_EQ(out[r * slot + s++], d);
        EXPECT_EQ(out[r * slot + s++], uint64_t{is_or ? (d != 0 || q) : (d != 0 && q)}) << lut;
        EXPECT_EQ(out[r * slot + s++], uint64_t{is_or ? (d != 0 || !q) : (d != 0 && !q)}) << lut;
      }
  }
}

uint64_t shl_n(uint64_t x, uint64_t n, int bits) { return n >= static_cast<uint64_t>(bits) ? 0 : (x << n) & mask_of(bits); }
uint64_t shr_n(uint64_t x, uint64_t n, int bits) { return n >= static_cast<uint64_t>(bits) ? 0 : x >> n; }

std::vector<uint64_t> shift_rows(int bits) {
  std::vector<uint64_t> rows;
  for (uint64_t a : edges(bits))
    for (uint64_t n = 0; n <= 70; ++n) rows.insert(rows.end(), {a, n});
  for (uint64_t n : {127ull, 128ull, 255ull, 256ull, 0x80000000ull, 0xffffffffull}) rows.insert(rows.end(), {0x8421 & mask_of(bits), n});
  return rows;
}

TEST(LogicSem, Shf) {  // §9.7.8.7: n = clamp ? min(c, 32) : c & 0x1f over [b, a]
  std::vector<uint64_t> rows;
  for (auto [a, b] : {std::pair{0x89abcdefull, 0x01234567ull}, {0xffffffffull, 0ull}, {0ull, 0xffffffffull}, {0x80000001ull, 0x80000001ull}})
    for (uint64_t c = 0; c <= 70; ++c) rows.insert(rows.end(), {a, b, c});
  for (uint64_t c : {0x100ull, 0x80000000ull, 0xffffffffull}) rows.insert(rows.end(), {0x89abcdefull, 0x01234567ull, c});
  for (bool left : {true, false})
    for (bool clamp : {true, false}) {
      std::string insn = std::string("shf") + (left ? ".l" : ".r") + (clamp ? ".clamp" : ".wrap") + ".b32";
      expect_op(insn, 32, {32, 32, 32}, rows, [=](const uint64_t* r) {
        uint64_t n = clamp ? std::min<uint64_t>(r[2], 32) : r[2] & 0x1f;
        return left ? shl_n(r[1], n, 32) | shr_n(r[0], 32 - n, 32) : shl_n(r[1], 32 - n, 32) | shr_n(r[0], n, 32);
      });
    }
}

TEST(LogicSem, ShlShr) {  // §9.7.8.8, §9.7.8.9: amounts past the width clamp to the width
  for (int n : {16, 32, 64}) {
    auto rows = shift_rows(n);
    std::string w = std::to_string(n);
    expect_op("shl.b" + w, n, {n, 32}, rows, [n](const uint64_t* r) { return shl_n(r[0], r[1], n); });
    for (const char* k : {".b", ".u"})
      expect_op("shr" + std::string(k) + w, n, {n, 32}, rows, [n](const uint64_t* r) { return shr_n(r[0], r[1], n); });
    expect_op("shr.s" + w, n, {n, 32}, rows, [n](const uint64_t* r) {
      return static_cast<uint64_t>(sx(r[0], n) >> std::min<uint64_t>(r[1], static_cast<uint64_t>(n - 1)));
    });
  }
}

TEST(LogicSem, Prmt) {  // §9.7.9.7
  std::vector<uint64_t> rows;
  std::mt19937_64 rng(5);
  for (uint64_t c = 0; c < 0x10000; c += 0x0111)  // every selector value in every byte position
    rows.insert(rows.end(), {0x83c2a110, 0x7f66e554, c});
  for (int i = 0; i < 256; ++i) rows.insert(rows.end(), {rng() & 0xffffffff, rng() & 0xffffffff, rng() & 0xffffffff});
  expect_op("prmt.b32", 32, {32, 32, 32}, rows, [](const uint64_t* r) {
    uint64_t tmp64 = r[1] << 32 | r[0], d = 0;
    for (int i = 0; i < 4; ++i) {
      uint64_t ctl = r[2] >> (4 * i) & 0xf, byte = tmp64 >> (8 * (ctl & 7)) & 0xff;
      if (ctl & 8) byte = (byte & 0x80) ? 0xff : 0;  // msb: replicate the sign
      d |= byte << (8 * i);
    }
    return d;
  });
  // The spec's table for each mode and c[1:0], sources of d.b3 d.b2 d.b1 d.b0.
  struct Mode {
    const char* name;
    int src[4][4];
  };
  const Mode modes[] = {{".f4e", {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}}},
                        {".b4e", {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}}},
                        {".rc8", {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}},
                        {".ecl", {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}}},
                        {".ecr", {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}}},
                        {".rc16", {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}}}};
  for (const Mode& m : modes)
    expect_op(std::string("prmt.b32") + m.name, 32, {32, 32, 32}, rows, [&m](const uint64_t* r) {
      uint64_t tmp64 = r[1] << 32 | r[0], d = 0;
      for (int i = 0; i < 4; ++i) d |= (tmp64 >> (8 * m.src[r[2] & 3][3 - i]) & 0xff) << (8 * i);
      return d;
    });
}

}  // namespace
}  // namespace ptxvm::test
