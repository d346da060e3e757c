// Replays the integer and logic vectors recorded on an H200 (sm_90) by
// tests/hw/integer/record_integer.cu: each recorded text runs through ptxvm in the same kernel
// (inputs.h's kernel()) over the operands regenerated from the same seed, and every result must
// equal the GPU's bit for bit.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "../hw/integer/inputs.h"
#include "harness.h"
#include "hw_records.h"

namespace ptxvm::test {
namespace {

using namespace ptxvm_hw_integer;

std::string hw_file() {
  return (std::filesystem::path(__FILE__).parent_path() / "../hw/integer/integer.bin.xz").string();
}

// Replays the recorded texts whose mnemonic (the text up to its first '.' or ' ') is one of
// `mnemonics`.
void replay(std::initializer_list<const char*> mnemonics) {
  static const std::vector<Recorded> recorded = read_records(hw_file());
  ASSERT_FALSE(recorded.empty()) << "no vectors in " << hw_file();
  const Operands o = operands();
  std::vector<uint64_t> in(o.a);
  in.insert(in.end(), o.b.begin(), o.b.end());
  in.insert(in.end(), o.c.begin(), o.c.end());
  static const int show = std::getenv("PTXVM_HW_SHOW") ? std::atoi(std::getenv("PTXVM_HW_SHOW")) : 4;
  size_t texts = 0;
  for (const Recorded& v : recorded) {
    const std::string mnemonic = v.insn.substr(0, v.insn.find_first_of(". "));
    bool mine = false;
    for (const char* m : mnemonics) mine |= mnemonic == m;
    if (!mine) continue;
    ++texts;
    ASSERT_EQ(v.bytes, result_bytes(v.insn)) << v.insn;
    ASSERT_EQ(v.out.size(), kCount);
    Harness h;
    h.load(kernel(v.insn));
    const uint64_t din = h.buffer(in), dout = h.buffer(std::vector<uint64_t>(kCount));
    const auto res = h.launch("k", Dim3{static_cast<unsigned>((kCount + 255) / 256), 1, 1}, Dim3{256, 1, 1},
                              {arg(dout), arg(din)});
    ASSERT_TRUE(res.ok) << v.insn << ": " << res.error;
    const std::vector<uint8_t> bytes = h.read<uint8_t>(dout, kCount * v.bytes);
    size_t bad = 0;
    std::string first;
    for (size_t i = 0; i < kCount; ++i) {
      uint64_t got = 0;
      std::memcpy(&got, &bytes[i * v.bytes], v.bytes);
      if (got == v.out[i]) continue;
      if (bad++ < static_cast<size_t>(show)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "\n  a=%016llx b=%016llx c=%016llx gpu=%llx ptxvm=%llx",
                      static_cast<unsigned long long>(o.a[i]), static_cast<unsigned long long>(o.b[i]),
                      static_cast<unsigned long long>(o.c[i]), static_cast<unsigned long long>(v.out[i]),
                      static_cast<unsigned long long>(got));
        first += buf;
      }
    }
    EXPECT_EQ(bad, 0u) << v.insn << ": " << bad << " of " << kCount << first;
  }
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
