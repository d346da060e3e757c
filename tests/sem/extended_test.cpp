// Extended-precision arithmetic, PTX §9.7.2 (001_23fdd5978b24a3ed.txt): carry chains of add.cc,
// addc, sub.cc, subc, mad.cc, madc on every type, checked against exact 128-bit references and the
// spec's own multiword example; CF is per lane and kept by guarded-off lanes. CF holds a carry as
// on an H200: a subtraction a - b is a + ~b + 1, so after sub.cc CF = 1 means "no borrow".
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "rows.h"

namespace ptxvm::test {
namespace {

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

std::vector<uint64_t> random_rows(size_t width, size_t n, int bits, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> rows;
  std::vector<uint64_t> e = edges(bits);
  for (size_t r = 0; r < n; ++r)
    for (size_t k = 0; k < width; ++k) rows.push_back((r < 64 ? e[(r * 7 + k * 3) % e.size()] : rng()) & mask_of(bits));
  return rows;
}

// A 128-bit add or subtract in words of `bits`: op.cc on word 0, opc.cc on the middle words,
// opc (no .cc) on the last; then `addc x, 0, 0` reads CF, which the last word left unchanged.
void chain128(bool sub, const std::string& type, int bits) {
  size_t words = 128 / static_cast<size_t>(bits);
  std::string r = bits == 32 ? "%r" : "%rd", w = std::to_string(bits), op = sub ? "sub" : "add";
  std::string body;
  for (size_t i = 0; i < 2 * words; ++i) body += "ld.global.b" + w + " " + r + std::to_string(i + 1) + ", " + in_slot(i) + ";\n";
  for (size_t i = 0; i < words; ++i) {
    std::string insn = i == 0 ? op + ".cc" : i + 1 < words ? op + "c.cc" : op + "c";
    body += insn + type + " " + r + "20, " + r + std::to_string(i + 1) + ", " + r + std::to_string(words + i + 1) + ";\n"
            "st.global.b" + w + " " + out_slot(i) + ", " + r + "20;\n";
  }
  body += "addc" + type + " " + r + "21, 0, 0;\nst.global.b" + w + " " + out_slot(words) + ", " + r + "21;\n";
  std::vector<uint64_t> rows = random_rows(2 * words, 512, bits, bits + sub);
  std::vector<uint64_t> out = run_rows(body, rows, 2 * words, words + 1);
  for (size_t k = 0; k < rows.size() / (2 * words); ++k) {
    u128 a = 0, b = 0;
    for (size_t i = 0; i < words; ++i) {
      a |= static_cast<u128>(rows[k * 2 * words + i]) << (bits * i);
      b |= static_cast<u128>(rows[k * 2 * words + words + i]) << (bits * i);
    }
    u128 d = sub ? a - b : a + b;
    // CF after word words-2: the carry out of the low (words-1) words; no borrow for sub.
    u128 low = (u128{1} << (bits * (words - 1))) - 1;
    bool cf = sub ? (a & low) >= (b & low) : ((a & low) + (b & low)) >> (bits * (words - 1)) != 0;
    for (size_t i = 0; i < words; ++i)
      ASSERT_EQ(out[k * (words + 1) + i], static_cast<uint64_t>(d >> (bits * i)) & mask_of(bits)) << op << type << " word " << i;
    ASSERT_EQ(out[k * (words + 1) + words], uint64_t{cf}) << op << type << " CF";
  }
}

TEST(ExtendedSem, AddChains) {  // §9.7.2.1, §9.7.2.2
  for (const char* t : {".u32", ".s32"}) chain128(false, t, 32);
  for (const char* t : {".u64", ".s64"}) chain128(false, t, 64);
}

TEST(ExtendedSem, SubChains) {  // §9.7.2.3, §9.7.2.4: d = a - (b + borrow) along the chain
  for (const char* t : {".u32", ".s32"}) chain128(true, t, 32);
  for (const char* t : {".u64", ".s64"}) chain128(true, t, 64);
}

// One op with CF set beforehand from a row bit (add.cc of 0xff..f + cf), then CF read back.
// Covers every form: add.cc/addc{.cc}/sub.cc/subc{.cc}/mad{.hi,.lo}.cc/madc{.hi,.lo}{.cc}, all types.
TEST(ExtendedSem, EveryFormCarryInAndOut) {
  for (int bits : {32, 64})
    for (bool sign : {false, true}) {
      std::string type = (sign ? ".s" : ".u") + std::to_string(bits), r = bits == 32 ? "%r" : "%rd", w = std::to_string(bits);
      std::vector<std::string> forms = {"add.cc", "addc", "addc.cc", "sub.cc", "subc", "subc.cc", "mad.lo.cc", "mad.hi.cc",
                                        "madc.lo", "madc.hi", "madc.lo.cc", "madc.hi.cc"};
      std::string body;
      for (int i = 0; i < 4; ++i) body += "ld.global.b" + w + " " + r + std::to_string(i + 1) + ", " + in_slot(static_cast<size_t>(i)) + ";\n";
      body += "mov.b" + w + " " + r + "9, -1;\n";
      for (size_t f = 0; f < forms.size(); ++f) {
        bool mad = forms[f].rfind("mad", 0) == 0;
        body += "add.cc" + type + " " + r + "10, " + r + "9, " + r + "4;\n";  // CF = row[3] (0 or 1)
        body += forms[f] + type + " " + r + "11, " + r + "1, " + r + "2" + (mad ? ", " + r + "3" : "") + ";\n";
        body += "addc" + type + " " + r + "12, 0, 0;\n";
        body += "st.global.b" + w + " " + out_slot(2 * f) + ", " + r + "11;\nst.global.b" + w + " " + out_slot(2 * f + 1) + ", " + r + "12;\n";
      }
      std::vector<uint64_t> rows = random_rows(4, 512, bits, 7 + bits + sign);
      for (size_t k = 0; k < rows.size() / 4; ++k) rows[k * 4 + 3] = k & 1;
      std::vector<uint64_t> out = run_rows(body, rows, 4, 2 * forms.size());
      u128 m = mask_of(bits);
      for (size_t k = 0; k < rows.size() / 4; ++k) {
        const uint64_t* row = &rows[k * 4];
        u128 a = row[0], b = row[1], c = row[2], cf = row[3];
        auto sv = [&](u128 v) { return static_cast<i128>(static_cast<int64_t>(bits == 32 ? static_cast<uint64_t>(static_cast<int32_t>(v)) : static_cast<uint64_t>(v))); };
        u128 t = sign ? static_cast<u128>(sv(a) * sv(b)) : a * b;  // t = a * b
        u128 lo = t & m, hi = (t >> bits) & m;
        for (size_t f = 0; f < forms.size(); ++f) {
          const std::string& form = forms[f];
          bool in = form.find("c.") != std::string::npos || form == "addc" || form == "subc" || form.rfind("madc", 0) == 0;
          bool writes = form.find(".cc") != std::string::npos;
          u128 cin = in ? cf : 0, d;
          bool cout;
          if (form.rfind("sub", 0) == 0) {  // a + ~b + (CF, or 1 for sub.cc): a - (b + borrow)
            u128 s = a + (~b & m) + (in ? cf : 1);
            d = s & m;
            cout = (s >> bits) != 0;
          } else {
            u128 x = form.rfind("add", 0) == 0 ? a : form.find(".hi") != std::string::npos ? hi : lo;
            u128 y = form.rfind("add", 0) == 0 ? b : c;
            u128 s = x + y + cin;
            d = s & m;
            cout = (s >> bits) != 0;
          }
          bool cf_after = writes ? cout : row[3] != 0;
          ASSERT_EQ(out[k * 2 * forms.size() + 2 * f], static_cast<uint64_t>(d)) << form << type << " row " << k;
          ASSERT_EQ(out[k * 2 * forms.size() + 2 * f + 1], uint64_t{cf_after}) << form << type << " CF, row " << k;
        }
      }
    }
}

TEST(ExtendedSem, SpecMultiwordMultiply) {  // §9.7.2.6's example: [r3,r2,r1,r0] = [r5,r4] * [r7,r6]
  std::string body = "ld.global.b32 %r4, " + in_slot(0) + ";\nld.global.b32 %r5, " + in_slot(1) + ";\n"
                     "ld.global.b32 %r6, " + in_slot(2) + ";\nld.global.b32 %r7, " + in_slot(3) + ";\n"
                     "mul.lo.u32 %r0, %r4, %r6;\nmul.hi.u32 %r1, %r4, %r6;\nmad.lo.cc.u32 %r1, %r5, %r6, %r1;\n"
                     "madc.hi.u32 %r2, %r5, %r6, 0;\nmad.lo.cc.u32 %r1, %r4, %r7, %r1;\nmadc.hi.cc.u32 %r2, %r4, %r7, %r2;\n"
                     "addc.u32 %r3, 0, 0;\nmad.lo.cc.u32 %r2, %r5, %r7, %r2;\nmadc.hi.u32 %r3, %r5, %r7, %r3;\n";
  for (int i = 0; i < 4; ++i) body += "st.global.b32 " + out_slot(static_cast<size_t>(i)) + ", %r" + std::to_string(i) + ";\n";
  std::vector<uint64_t> rows = random_rows(4, 1024, 32, 11);
  std::vector<uint64_t> out = run_rows(body, rows, 4, 4);
  for (size_t k = 0; k < rows.size() / 4; ++k) {
    u128 x = rows[4 * k + 1] << 32 | rows[4 * k], y = rows[4 * k + 3] << 32 | rows[4 * k + 2], p = x * y;
    for (int i = 0; i < 4; ++i) ASSERT_EQ(out[4 * k + static_cast<size_t>(i)], static_cast<uint64_t>(p >> (32 * i)) & 0xffffffff) << k;
  }
}

TEST(ExtendedSem, MixedChainsShareOneCarryBit) {  // as an H200 runs them: CF is the carry of a + ~b + 1
  std::string body = "ld.global.b32 %r1, " + in_slot(0) + ";\nld.global.b32 %r2, " + in_slot(1) + ";\n"
                     "ld.global.b32 %r3, " + in_slot(2) + ";\nld.global.b32 %r4, " + in_slot(3) + ";\n"
                     "sub.cc.u32 %r5, %r1, %r2;\naddc.u32 %r6, %r3, %r4;\n"
                     "add.cc.u32 %r7, %r1, %r2;\nsubc.u32 %r8, %r3, %r4;\n"
                     "sub.cc.u32 %r9, %r1, %r2;\nmadc.lo.u32 %r10, %r3, %r4, %r1;\n";
  for (int i = 0; i < 6; ++i) body += "st.global.b32 " + out_slot(static_cast<size_t>(i)) + ", %r" + std::to_string(i + 5) + ";\n";
  std::vector<uint64_t> rows = random_rows(4, 256, 32, 13);
  std::vector<uint64_t> out = run_rows(body, rows, 4, 6);
  for (size_t k = 0; k < rows.size() / 4; ++k) {
    uint64_t a = rows[4 * k], b = rows[4 * k + 1], c = rows[4 * k + 2], d = rows[4 * k + 3];
    uint64_t no_borrow = a >= b, carry = (a + b) >> 32;
    uint64_t want[] = {(a - b) & 0xffffffff, (c + d + no_borrow) & 0xffffffff, (a + b) & 0xffffffff,
                       (c - d - (1 - carry)) & 0xffffffff, (a - b) & 0xffffffff, (c * d + a + no_borrow) & 0xffffffff};
    for (size_t i = 0; i < 6; ++i) ASSERT_EQ(out[6 * k + i], want[i]) << "result " << i << " row " << k;
  }
}

TEST(ExtendedSem, CarryIsPerLaneAndGuarded) {  // a guarded-off lane keeps its CF
  // Odd lanes set CF = 1, even lanes CF = 0; then a guarded add.cc that would clear CF runs on
  // lanes where tid % 4 == 1 only.
  std::string body = "ld.global.b32 %r1, " + in_slot(0) + ";\n"
                     "and.b32 %r2, %r1, 1;\nadd.cc.u32 %r3, %r2, -1;\n"   // CF = tid & 1
                     "and.b32 %r4, %r1, 3;\nsetp.eq.u32 %p1, %r4, 1;\n"
                     "@%p1 add.cc.u32 %r5, 0, 0;\n"                          // CF = 0 on those lanes
                     "addc.u32 %r6, 0, 0;\nst.global.b32 " + out_slot(0) + ", %r6;\n";
  std::vector<uint64_t> rows;
  for (uint64_t i = 0; i < 256; ++i) rows.push_back(i);
  std::vector<uint64_t> out = run_rows(body, rows, 1, 1);
  for (uint64_t i = 0; i < 256; ++i) EXPECT_EQ(out[i], (i & 1) && (i & 3) != 1 ? 1u : 0u) << i;
}

}  // namespace
}  // namespace ptxvm::test
