// Constant expressions evaluate with the typing rules of PTX §4.5.5 / Table 5.
#include "front/const_eval.h"

#include <gtest/gtest.h>

#include "front/printer.h"
#include "test_util.h"

namespace ptxvm::test {
namespace {

using front::ConstValue;
using Type = ConstValue::Type;

// Evaluates the initializer of `.global .u64 x = <e>;`.
front::EvalResult eval(const std::string& e) {
  static std::vector<Parsed> keep;  // the AST must outlive the result's locations only
  keep.push_back(parse(".version 8.7\n.target sm_90\n.global .u64 x = " + e + ";\n"));
  EXPECT_TRUE(keep.back().ok()) << keep.back().diagnostics;
  return front::evaluate(*keep.back().module->items[0].decl.names[0].init->expr);
}

void expect_int(const std::string& e, Type t, uint64_t v) {
  auto r = eval(e);
  ASSERT_TRUE(r.value) << e << ": " << r.error;
  EXPECT_EQ(r.value->type, t) << e;
  EXPECT_EQ(r.value->bits, v) << e;
}

void expect_error(const std::string& e, const std::string& msg) {
  auto r = eval(e);
  EXPECT_FALSE(r.value) << e;
  EXPECT_NE(r.error.find(msg), std::string::npos) << e << ": " << r.error;
}

TEST(ConstEval, LiteralSignedness) {  // §4.5.1
  expect_int("42", Type::S64, 42);
  expect_int("0x1234", Type::S64, 0x1234);
  expect_int("42U", Type::U64, 42);
  expect_int("0xfabc123400000000", Type::U64, 0xfabc123400000000ull);
  expect_int("WARP_SZ", Type::S64, 32);
}

TEST(ConstEval, UnaryRules) {
  expect_int("-1", Type::S64, static_cast<uint64_t>(-1));
  expect_int("-(-42)", Type::S64, 42);
  expect_int("-1U", Type::U64, UINT64_MAX);
  expect_int("!0", Type::S64, 1);
  expect_int("!7U", Type::S64, 0);
  expect_int("~0", Type::U64, UINT64_MAX);  // ~ reads its operand as unsigned
}

TEST(ConstEval, UsualArithmeticConversions) {
  expect_int("1 + 2", Type::S64, 3);
  expect_int("1 + 2U", Type::U64, 3);
  expect_int("-7 / 2", Type::S64, static_cast<uint64_t>(-3));
  expect_int("-7 / 2U", Type::U64, (0 - 7ull) / 2);
  expect_int("-1 < 0", Type::S64, 1);
  expect_int("-1 < 0U", Type::S64, 0);  // compared as unsigned
  expect_int("5 & 3U", Type::U64, 1);
  expect_int("5 | 2", Type::S64, 7);
  expect_int("6 ^ 3", Type::S64, 5);
}

TEST(ConstEval, RemainderReadsOperandsAsUnsigned) {
  expect_int("7 % 3", Type::S64, 1);
  expect_int("-1 % 10", Type::S64, UINT64_MAX % 10);
}

TEST(ConstEval, ShiftsKeepTheFirstOperandType) {
  expect_int("1 << 4", Type::S64, 16);
  expect_int("1U << 63", Type::U64, 1ull << 63);
  expect_int("-16 >> 2", Type::S64, static_cast<uint64_t>(-4));  // arithmetic
  expect_int("-16U >> 2", Type::U64, (0 - 16ull) >> 2);          // logical
  expect_int("1 << 64", Type::S64, 0);
}

TEST(ConstEval, LogicalAndComparisonsAreSigned) {
  expect_int("2 && 3U", Type::S64, 1);
  expect_int("0 || 0", Type::S64, 0);
  expect_int("3 == 3U", Type::S64, 1);
  expect_int("3 != 3", Type::S64, 0);
  expect_int("1.5 < 2.0", Type::S64, 1);
}

TEST(ConstEval, CastsAndConditional) {
  expect_int("(.u64)-1", Type::U64, UINT64_MAX);
  expect_int("(.s64)0xFFFFFFFFFFFFFFFF", Type::S64, UINT64_MAX);
  expect_int("1 ? 2 : 3U", Type::U64, 2);
  expect_int("0 ? 2 : 3", Type::S64, 3);
  auto r = eval("0 ? 1.0 : 2.5");
  ASSERT_TRUE(r.value);
  EXPECT_EQ(r.value->type, Type::F64);
  EXPECT_EQ(r.value->as_double(), 2.5);
}

TEST(ConstEval, FloatArithmeticIsDouble) {
  auto r = eval("1.5 * 2.0 - 0.5");
  ASSERT_TRUE(r.value);
  EXPECT_EQ(r.value->type, Type::F64);
  EXPECT_EQ(r.value->as_double(), 2.5);
  auto f = eval("0f3FC00000");
  ASSERT_TRUE(f.value);
  EXPECT_EQ(f.value->type, Type::F32);
  EXPECT_EQ(f.value->as_double(), 1.5);
}

TEST(ConstEval, Errors) {
  expect_error("1 / 0", "division by zero");
  expect_error("1 % 0", "division by zero");
  expect_error("1.0 + 1", "mixes integer and floating-point");
  expect_error("0f3F800000 + 1.0", "0f single-precision literal cannot be used");
  expect_error("!1.5", "needs an integer operand");
  expect_error("1.5 % 2.0", "needs integer operands");
  expect_error("1 ? 2.0 : 3", "mix integer and floating-point");
  expect_error("x + 1", "'x' is not a constant");
  expect_error("(.u64)1.5", "a cast needs an integer operand");
}

}  // namespace
}  // namespace ptxvm::test
