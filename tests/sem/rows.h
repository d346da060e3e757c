// The row runner of the integer, logic, extended-precision and video tests: one thread per row
// of 64-bit input slots, writing 64-bit output slots, checked against a reference per row.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "harness.h"

namespace ptxvm::test {

inline std::string reg(int bits, int i) {
  return (bits == 16 ? "%h" : bits == 32 ? "%r" : "%rd") + std::to_string(i);
}
inline std::string slot(const char* base, size_t k) { return std::string("[") + base + "+" + std::to_string(8 * k) + "]"; }
inline std::string in_slot(size_t k) { return slot("%rd61", k); }
inline std::string out_slot(size_t k) { return slot("%rd63", k); }

// Runs `body` once per row: row i's `k_in` inputs are at in_slot(0..), its `k_out` outputs at
// out_slot(0..) (zeroed before the launch). Returns the outputs, row-major.
inline std::vector<uint64_t> run_rows(const std::string& body, const std::vector<uint64_t>& in, size_t k_in, size_t k_out,
                               const std::string& target = "sm_90") {
  constexpr size_t kBlock = 128;
  size_t rows = in.size() / k_in, blocks = (rows + kBlock - 1) / kBlock;
  std::vector<uint64_t> padded = in;
  padded.resize(blocks * kBlock * k_in, 0);
  Harness h;
  h.load(kernel_ptx("mov.u32 %r60, %tid.x;\nmov.u32 %r61, %ctaid.x;\nmov.u32 %r62, %ntid.x;\n"
                    "mad.lo.u32 %r63, %r61, %r62, %r60;\n"
                    "mul.wide.u32 %rd60, %r63, " + std::to_string(8 * k_in) + ";\nadd.s64 %rd61, %rd_in, %rd60;\n"
                    "mul.wide.u32 %rd62, %r63, " + std::to_string(8 * k_out) + ";\nadd.s64 %rd63, %rd_out, %rd62;\n" +
                        body,
                    target));
  uint64_t din = h.buffer(padded);
  uint64_t dout = h.buffer(std::vector<uint64_t>(blocks * kBlock * k_out, 0));
  LaunchResult r = h.launch("k", {static_cast<uint32_t>(blocks)}, {kBlock}, {arg(dout), arg(din)});
  EXPECT_TRUE(r.ok) << r.error;
  std::vector<uint64_t> out = h.read<uint64_t>(dout, blocks * kBlock * k_out);
  out.resize(rows * k_out);
  return out;
}

inline uint64_t mask_of(int bits) { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// `insn d, s0, s1, ...` with d and each source of the given widths, checked row by row against
// `ref` (the expected d, compared in d's width).
using Ref = std::function<uint64_t(const uint64_t*)>;
inline void expect_op(const std::string& insn, int dbits, const std::vector<int>& sbits, const std::vector<uint64_t>& rows,
               const Ref& ref, const std::string& target = "sm_90") {
  size_t k = sbits.size();
  std::string body, operands = reg(dbits, 0);
  for (size_t i = 0; i < k; ++i) {
    body += "ld.global.b" + std::to_string(sbits[i]) + " " + reg(sbits[i], static_cast<int>(i + 1)) + ", " + in_slot(i) + ";\n";
    operands += ", " + reg(sbits[i], static_cast<int>(i + 1));
  }
  body += insn + " " + operands + ";\nst.global.b" + std::to_string(dbits) + " " + out_slot(0) + ", " + reg(dbits, 0) + ";\n";
  std::vector<uint64_t> out = run_rows(body, rows, k, 1, target);
  int failures = 0;
  for (size_t r = 0; r < out.size() && failures < 8; ++r) {
    const uint64_t* row = &rows[r * k];
    uint64_t want = ref(row) & mask_of(dbits);
    if (out[r] != want) {
      ++failures;
      std::ostringstream args;
      for (size_t i = 0; i < k; ++i) args << (i ? ", 0x" : "0x") << std::hex << row[i];
      ADD_FAILURE() << insn << " (" << args.str() << ") = 0x" << std::hex << out[r] << ", want 0x" << want;
    }
  }
}

// Edge values of a width: 0, 1, 2, 0x7f..f, 0x80..0, all ones and their neighbours.
inline std::vector<uint64_t> edges(int bits) {
  uint64_t m = mask_of(bits), h = uint64_t{1} << (bits - 1);
  return {0, 1, 2, 3, 5, h - 2, h - 1, h, h + 1, m - 1, m, 0x55555555'55555555 & m, 0xaaaaaaaa'aaaaaaaa & m};
}

// Rows: every combination of edge values of `widths`, then `extra` random rows.
inline std::vector<uint64_t> rows_for(const std::vector<int>& widths, size_t extra = 512, uint64_t seed = 1) {
  std::vector<uint64_t> rows;
  std::vector<std::vector<uint64_t>> e;
  for (int w : widths) e.push_back(edges(w));
  std::vector<size_t> idx(widths.size(), 0);
  for (;;) {
    for (size_t i = 0; i < widths.size(); ++i) rows.push_back(e[i][idx[i]]);
    size_t i = 0;
    while (i < idx.size() && ++idx[i] == e[i].size()) idx[i++] = 0;
    if (i == idx.size()) break;
  }
  std::mt19937_64 rng(seed);
  for (size_t r = 0; r < extra; ++r)
    for (int w : widths) rows.push_back(rng() & mask_of(w));
  return rows;
}

}  // namespace ptxvm::test
