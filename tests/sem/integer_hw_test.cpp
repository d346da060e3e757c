// Replays the integer and logic vectors recorded on an H200 (sm_90) by
// tests/hw/integer/record_integer.cu: each recorded text runs through ptxvm in the same kernel
// (inputs.h's kernel()) over the operands regenerated from the same seed, and every result must
// equal the GPU's bit for bit.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../hw/integer/inputs.h"
#include "hw_texts.h"

namespace ptxvm::test {
namespace {

using namespace ptxvm_hw_integer;

// Replays the recorded texts whose mnemonic is one of `mnemonics`.
void replay(std::initializer_list<const char*> mnemonics) {
  static const std::vector<Recorded> recorded = read_records(
      (std::filesystem::path(__FILE__).parent_path() / "../hw/integer/integer.bin.xz").string());
  ASSERT_FALSE(recorded.empty()) << "no vectors in tests/hw/integer/integer.bin.xz";
  const Operands o = operands();
  std::vector<uint64_t> in(o.a);
  in.insert(in.end(), o.b.begin(), o.b.end());
  in.insert(in.end(), o.c.begin(), o.c.end());
  const size_t texts = replay_texts(recorded, mnemonics, in, kCount, kernel, [&](size_t i) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "a=%016llx b=%016llx c=%016llx", static_cast<unsigned long long>(o.a[i]),
                  static_cast<unsigned long long>(o.b[i]), static_cast<unsigned long long>(o.c[i]));
    return std::string(buf);
  });
  EXPECT_GT(texts, 0u);
  std::printf("[hw integer] %zu texts, %zu values compared\n", texts, texts * kCount);
}

TEST(IntegerHw, AddMultiplyAndExtremes) {
  replay({"add", "sub", "mul", "mad", "sad", "min", "max", "abs", "neg"});
}
TEST(IntegerHw, DivideAndRemainder) {
  replay({"div", "rem"});
}
TEST(IntegerHw, TwentyFourBitProducts) {
  replay({"mul24", "mad24"});
}
TEST(IntegerHw, BitFields) {
  replay({"popc", "clz", "brev", "bfind", "bfe", "bfi", "fns", "szext", "bmsk"});
}
TEST(IntegerHw, ShiftsAndPermutes) {
  replay({"shl", "shr", "shf", "prmt"});
}
TEST(IntegerHw, DotProducts) {
  replay({"dp4a", "dp2a"});
}
TEST(IntegerHw, Logic) {
  replay({"lop3", "cnot", "not"});
}
TEST(IntegerHw, CompareAndSelect) {
  replay({"setp", "set", "selp", "slct"});
}

}  // namespace
}  // namespace ptxvm::test
