// Replays instruction texts recorded on a GPU by tests/hw/record_texts.h (tests/hw/video,
// tests/hw/integer): each text runs through ptxvm in the kernel the recorder ran, over the same
// operands, and every result must equal the GPU's bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "hw_records.h"

namespace ptxvm::test {

// Runs each text of `records` whose mnemonic (the text up to its first '.' or ' ') is one of
// `mnemonics` as kernel(text), `k(out, in)`, one thread per result, over `in`; operands(i) names
// the operands of result i in the failure message (PTXVM_HW_SHOW of them a text, 4 by default).
// Returns how many texts ran.
template <typename In, typename KernelOf, typename Operands>
size_t replay_texts(const std::vector<Recorded>& records, std::initializer_list<const char*> mnemonics,
                    const std::vector<In>& in, size_t count, KernelOf kernel, Operands operands) {
  static const int show = std::getenv("PTXVM_HW_SHOW") ? std::atoi(std::getenv("PTXVM_HW_SHOW")) : 4;
  size_t texts = 0;
  for (const Recorded& v : records) {
    const std::string mnemonic = v.insn.substr(0, v.insn.find_first_of(". "));
    bool mine = false;
    for (const char* m : mnemonics) mine |= mnemonic == m;
    if (!mine) continue;
    ++texts;
    EXPECT_EQ(v.out.size(), count) << v.insn;
    Harness h;
    h.load(kernel(v.insn));
    const uint64_t din = h.buffer(in), dout = h.buffer(std::vector<uint64_t>(count));
    const auto res = h.launch("k", Dim3{static_cast<unsigned>((count + 255) / 256), 1, 1}, Dim3{256, 1, 1},
                              {arg(dout), arg(din)});
    if (!res.ok) {
      ADD_FAILURE() << v.insn << ": " << res.error;
      continue;
    }
    const std::vector<uint8_t> bytes = h.read<uint8_t>(dout, count * v.bytes);
    size_t bad = 0;
    std::string first;
    for (size_t i = 0; i < count && i < v.out.size(); ++i) {
      uint64_t got = 0;
      std::memcpy(&got, &bytes[i * v.bytes], v.bytes);
      if (got == v.out[i] || bad++ >= static_cast<size_t>(show)) continue;
      char buf[64];
      std::snprintf(buf, sizeof buf, " gpu=%llx ptxvm=%llx", static_cast<unsigned long long>(v.out[i]),
                    static_cast<unsigned long long>(got));
      first += "\n  " + operands(i) + buf;
    }
    EXPECT_EQ(bad, 0u) << v.insn << ": " << bad << " of " << count << first;
  }
  return texts;
}

}  // namespace ptxvm::test
