// initcheck's bit-level rules (src/sanitize/definedness.h).
#include <gtest/gtest.h>

#include "sanitize/definedness.h"
#include "sanitize/init.h"

namespace ptxvm::sanitize {
namespace {

constexpr uint64_t kAll32 = 0xffffffff;
const Bits kGarbage{0x12345678, kAll32};  // a word no one wrote

TEST(Definedness, AndWithADefinedZeroIsDefined) {
  // A bit-field store: clear bits 1-7 of an unwritten word, then or in a defined field.
  const uint64_t cleared = undefined_bits(Rule::And, kGarbage, {0xffffff01, 0}, 32);
  EXPECT_EQ(cleared, 0xffffff01u);
  const uint64_t stored = undefined_bits(Rule::Or, {0, cleared}, {0x2a << 1, 0}, 32);
  EXPECT_EQ(stored, 0xffffff01u) << "or with defined zeros keeps the undefined bits";
  EXPECT_EQ(undefined_bits(Rule::Or, {0, cleared}, {0xff, 0}, 32), 0xffffff00u) << "a defined 1 defines the bit";
}

TEST(Definedness, ShiftsMoveTheUndefinedBits) {
  EXPECT_EQ(undefined_bits(Rule::Shr, {0, 0xff00}, {8, 0}, 32), 0xffu);
  EXPECT_EQ(undefined_bits(Rule::Shl, {0, 0xff00}, {8, 0}, 32), 0xff0000u);
  EXPECT_EQ(undefined_bits(Rule::Shl, {0, 0x80000000}, {1, 0}, 32), 0u) << "shifted out of the word";
  EXPECT_EQ(undefined_bits(Rule::ShrSigned, {0, 0x80000000}, {4, 0}, 32), 0xf8000000u) << "the sign fills";
  EXPECT_EQ(undefined_bits(Rule::Shr, {0, 0}, {0, 1}, 32), kAll32) << "an undefined shift amount";
}

TEST(Definedness, OtherComputationsAreUndefinedAsAWhole) {
  EXPECT_EQ(undefined_bits(Rule::Any, {0, 1}, {}, 32), kAll32);
  EXPECT_EQ(undefined_bits(Rule::Any, {5, 0}, {7, 0}, 32), 0u);
  EXPECT_EQ(undefined_bits(Rule::Xor, {0, 0x0f}, {0, 0xf0}, 32), 0xffu);
  EXPECT_EQ(undefined_bits(Rule::Copy, {0, ~uint64_t{0}}, {}, 16), 0xffffu);
}

TEST(InitShadow, BytesKeepTheirUndefinedBits) {
  InitShadow s(16, 2, 8);
  EXPECT_EQ(s.undefined(false, 0, 0, 4), kAll32) << "shared memory starts undefined";
  s.write(false, 0, 0, 4, 0x0000ff01);
  EXPECT_EQ(s.undefined(false, 0, 0, 4), 0x0000ff01u);
  EXPECT_EQ(s.undefined(false, 0, 1, 1), 0xffu);
  s.write(true, 1, 0, 8, 0);
  EXPECT_EQ(s.undefined(true, 1, 0, 8), 0u);
  EXPECT_EQ(s.undefined(true, 0, 0, 8), ~uint64_t{0}) << "each thread's local memory is its own";
  EXPECT_EQ(s.undefined(false, 0, 14, 4), 0u) << "out of bounds is memcheck's";
}

}  // namespace
}  // namespace ptxvm::sanitize
