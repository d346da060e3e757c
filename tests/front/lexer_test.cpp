// Tokens of PTX §4.1–§4.5 (001_23fdd5978b24a3ed.txt).
#include "front/lexer.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>

namespace ptxvm::front {
namespace {

struct Lexed {
  std::vector<Token> toks;
  std::string diags;
  std::unique_ptr<SourceFile> file;
};

Lexed lex_text(const std::string& text) {
  Lexed l;
  l.file = std::make_unique<SourceFile>("t.ptx", text);
  Diagnostics d(*l.file);
  l.toks = lex(*l.file, d);
  l.diags = d.render();
  return l;
}

TEST(Lexer, IntegerLiteralsInEveryRadix) {  // §4.5.1
  auto l = lex_text("0x1F 0X10 017 0b101 0B11 42 0 42U 0xffffffffffffffff 9223372036854775808");
  ASSERT_EQ(l.diags, "");
  std::vector<uint64_t> want = {31, 16, 15, 5, 3, 42, 0, 42, UINT64_MAX, 9223372036854775808ull};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(l.toks[i].kind, Tok::Int) << i;
    EXPECT_EQ(l.toks[i].ival, want[i]) << i;
  }
  EXPECT_FALSE(l.toks[5].unsigned_suffix);
  EXPECT_TRUE(l.toks[7].unsigned_suffix);
  EXPECT_EQ(l.toks.back().kind, Tok::End);
}

TEST(Lexer, MalformedIntegersAreDiagnosed) {
  EXPECT_NE(lex_text("18446744073709551616").diags.find("does not fit in 64 bits"), std::string::npos);
  EXPECT_NE(lex_text("09").diags.find("malformed numeric literal '09'"), std::string::npos);
  EXPECT_NE(lex_text("0x").diags.find("no digits"), std::string::npos);
  EXPECT_NE(lex_text("12ab").diags.find("malformed numeric literal '12ab'"), std::string::npos);
}

TEST(Lexer, FloatLiteralsAndExactBitPatterns) {  // §4.5.2
  auto l = lex_text("1.5 .5 1e3 2.5E-3 0f3F800000 0F7F800000 0d3FF0000000000000 1.");
  ASSERT_EQ(l.diags, "");
  EXPECT_EQ(l.toks[0].kind, Tok::Float);
  EXPECT_EQ(l.toks[0].fval, 1.5);
  EXPECT_EQ(l.toks[1].fval, 0.5);
  EXPECT_EQ(l.toks[2].fval, 1000.0);
  EXPECT_EQ(l.toks[3].fval, 2.5e-3);
  EXPECT_EQ(l.toks[4].kind, Tok::HexFloat);
  EXPECT_TRUE(l.toks[4].is_f32);
  EXPECT_EQ(l.toks[4].ival, 0x3F800000u);
  EXPECT_EQ(l.toks[5].ival, 0x7F800000u);
  EXPECT_FALSE(l.toks[6].is_f32);
  EXPECT_EQ(l.toks[6].ival, 0x3FF0000000000000ull);
  EXPECT_EQ(l.toks[7].fval, 1.0);
}

TEST(Lexer, HexFloatNeedsExactDigitCount) {
  EXPECT_NE(lex_text("0f3F80000").diags.find("exactly 8 hex digits"), std::string::npos);
  EXPECT_NE(lex_text("0d3FF").diags.find("exactly 16 hex digits"), std::string::npos);
}

TEST(Lexer, DotWordsKeepScopeParts) {
  auto l = lex_text("mma.kind::f8f6f4.L2::cache_hint.shared::cta cp.async.bulk.tensor.1d %tid.x");
  ASSERT_EQ(l.diags, "");
  std::vector<std::string> want = {"mma", ".kind::f8f6f4", ".L2::cache_hint", ".shared::cta", "cp",
                                   ".async", ".bulk", ".tensor", ".1d", "%tid", ".x"};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(l.toks[i].text, want[i]) << i;
  EXPECT_EQ(l.toks[1].kind, Tok::Dot);
  EXPECT_EQ(l.toks[8].kind, Tok::Dot);
  EXPECT_FALSE(l.toks[10].space_before);
}

TEST(Lexer, IdentifiersAndSink) {  // §4.4
  auto l = lex_text("%r1 $L__BB0_1 _Z3foov __cuda_local_var %envreg3 _ WARP_SZ");
  ASSERT_EQ(l.diags, "");
  for (int i : {0, 1, 2, 3, 4, 6}) EXPECT_EQ(l.toks[i].kind, Tok::Ident) << i;
  EXPECT_EQ(l.toks[5].kind, Tok::Sink);
}

TEST(Lexer, PercentDigitIsAnIdentifierAsInPtxas) {
  auto l = lex_text("7%3");  // ptxas also reads `%3` as a name: write `7 % 3`
  EXPECT_EQ(l.toks[1].kind, Tok::Ident);
  EXPECT_EQ(l.toks[1].text, "%3");
}

TEST(Lexer, OperatorsAndPunctuation) {
  auto l = lex_text("<< >> <= >= == != && || < > ! ~ ? : @ | ^ & = %");
  std::vector<Tok> kinds;
  for (auto& t : l.toks) kinds.push_back(t.kind);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(kinds[i], Tok::Op2) << i;
  for (int i = 8; i < 19; ++i) EXPECT_EQ(kinds[i], Tok::Punct) << i;
}

TEST(Lexer, CommentsAreWhitespaceAndLocationsCount) {  // §4.2
  auto l = lex_text("a // x\n /* y\n z */ b\n\tc");
  ASSERT_EQ(l.diags, "");
  EXPECT_EQ(l.toks[0].loc.line, 1u);
  EXPECT_EQ(l.toks[1].text, "b");
  EXPECT_EQ(l.toks[1].loc.line, 3u);
  EXPECT_EQ(l.toks[1].loc.col, 7u);
  EXPECT_TRUE(l.toks[1].space_before);
  EXPECT_EQ(l.toks[2].loc.line, 4u);
  EXPECT_EQ(l.toks[2].loc.col, 2u);
}

TEST(Lexer, UnterminatedCommentAndString) {
  EXPECT_EQ(lex_text("a /* b").diags,
            "t.ptx:1:3: error: unterminated /* comment\na /* b\n  ^\n");
  EXPECT_NE(lex_text(".pragma \"abc\n").diags.find("unterminated string"), std::string::npos);
}

TEST(Lexer, NonAsciiIsRejectedEvenInComments) {  // §4.1
  auto l = lex_text("a // caf\xc3\xa9\n");
  EXPECT_NE(l.diags.find("t.ptx:1:9: error: non-ASCII character"), std::string::npos);
  EXPECT_NE(lex_text(std::string("a\0b", 3)).diags.find("non-ASCII"), std::string::npos);
}

TEST(Lexer, StringsAndDwarfLines) {
  auto l = lex_text(".pragma \"nounroll\";\n@@DWARF .byte 0x11, 0x01\nx");
  ASSERT_EQ(l.diags, "");
  EXPECT_EQ(l.toks[1].kind, Tok::String);
  EXPECT_EQ(l.toks[1].text, "nounroll");
  EXPECT_EQ(l.toks[3].kind, Tok::Dwarf);
  EXPECT_EQ(l.toks[3].text, ".byte 0x11, 0x01");
  EXPECT_EQ(l.toks[4].text, "x");
}

TEST(Lexer, PreprocessorLinesAreExplained) {
  EXPECT_NE(lex_text("#include <x>").diags.find("run the C preprocessor"), std::string::npos);
}

}  // namespace
}  // namespace ptxvm::front
