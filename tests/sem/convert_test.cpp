// cvt, cvt.pack, testp and copysign through the engine (src/sem/convert.cpp), against the
// vectors an H200 (sm_90) recorded in tests/hw/cvt: every recorded instruction text runs in
// one ptxvm launch over the regenerated operands, and each result must equal the GPU's bit
// for bit. Register classes come from tests/hw/cvt/variants.inc, as the recorder declared them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "../hw/cvt/inputs.h"
#include "harness.h"
#include "hw_records.h"

namespace ptxvm::test {
namespace {

const std::string kDir = (std::filesystem::path(__FILE__).parent_path() / "../hw/cvt").string();
constexpr size_t kRandom = 65536;   // N_RANDOM of the recording (tests/hw/cvt/README.md)
constexpr size_t kCompare = 12288;  // values compared per f32/f64/integer variant (edges first)

struct Shape {
  char kind;     // U unary, B binary, T ternary, P testp
  char dst, src;  // register letters: h .b16, r .b32, l .b64, f .f32, d .f64
};

std::map<std::string, Shape> shapes() {
  std::map<std::string, Shape> m;
  std::ifstream f(kDir + "/variants.inc");
  const std::regex re(R"re(^(\w)\(\w+, "([^"]+)", (?:(\w), )?(\w), \w+\))re");
  std::string line;
  std::smatch s;
  while (std::getline(f, line))
    if (std::regex_search(line, s, re)) m[s[2]] = {s[1].str()[0], s[3].matched ? s[3].str()[0] : 'p', s[4].str()[0]};
  return m;
}

std::vector<Recorded> read_set(const std::string& set) { return read_records(kDir + "/cvt_" + set + ".bin.xz"); }

// The operands of a set (a, then b and c as rotations of the whole list), element bytes.
std::vector<uint64_t> set_values(const std::string& set, size_t& bytes) {
  std::vector<uint64_t> v;
  bytes = set == "s16" ? 2 : set == "f64" || set == "i64" ? 8 : 4;
  if (set == "s16" || set == "p32")
    for (uint32_t i = 0; i < 65536; ++i) v.push_back(set == "s16" ? i : ptxvm_hw::pair16(i));
  if (set == "f32")
    for (uint32_t x : ptxvm_hw::f32_inputs(1, kRandom)) v.push_back(x);
  if (set == "f64") v = ptxvm_hw::f64_inputs(2, kRandom);
  if (set == "i64") v = ptxvm_hw::int_inputs(3, kRandom);
  if (set == "i32")
    for (uint64_t x : ptxvm_hw::int_inputs(3, kRandom)) v.push_back(x & 0xffffffffu);
  return v;
}

struct Reg {
  std::string name, ld;
  unsigned bytes;
};
Reg reg(char letter, int index) {
  const std::string i = std::to_string(index);
  switch (letter) {
    case 'h': return {"%h" + i, "b16", 2};
    case 'r': return {"%r" + i, "b32", 4};
    case 'l': return {"%rd" + i, "b64", 8};
    case 'f': return {"%f" + i, "f32", 4};
    case 'd': return {"%fd" + i, "f64", 8};
  }
  return {"%p" + i, "pred", 1};
}

// Element i of n: operands at in + k*n*eb, the result at out + i * result bytes.
std::string variant_ptx(const std::string& insn, const Shape& s, size_t eb, unsigned out_bytes, size_t n) {
  const int k = s.kind == 'T' ? 3 : s.kind == 'B' ? 2 : 1;
  std::string body =
      "mov.u32 %r40, %ctaid.x;\nmov.u32 %r41, %ntid.x;\nmov.u32 %r42, %tid.x;\nmad.lo.u32 %r43, %r40, %r41, %r42;\n"
      "setp.ge.u32 %p0, %r43, " + std::to_string(n) + ";\n@%p0 bra DONE;\n"
      "mul.wide.u32 %rd40, %r43, " + std::to_string(eb) + ";\nadd.u64 %rd41, %rd_in, %rd40;\n";
  std::string ops;
  for (int i = 0; i < k; ++i) {
    const Reg r = reg(s.src, i + 1);
    body += "ld.global." + r.ld + " " + r.name + ", [%rd41+" + std::to_string(i * n * eb) + "];\n";
    ops += ", " + r.name;
  }
  body += "mul.wide.u32 %rd42, %r43, " + std::to_string(out_bytes) + ";\nadd.u64 %rd43, %rd_out, %rd42;\n";
  if (s.kind == 'P') {
    body += insn + " %p1" + ops + ";\nselp.u32 %r44, 1, 0, %p1;\nst.global.u8 [%rd43], %r44;\n";
  } else {
    const Reg d = reg(s.dst, 10);
    body += insn + " " + d.name + ops + ";\nst.global." + d.ld + " [%rd43], " + d.name + ";\n";
  }
  return kernel_ptx(body + "DONE:\n");
}

void replay(const std::string& set) {
  static const std::map<std::string, Shape> kShapes = shapes();
  const auto recorded = read_set(set);
  ASSERT_FALSE(recorded.empty()) << "no vectors for " << set << " in " << kDir;
  size_t eb;
  const std::vector<uint64_t> v = set_values(set, eb);
  const size_t total = v.size();
  size_t compared = 0;
  for (const Recorded& rec : recorded) {
    SCOPED_TRACE(rec.insn);
    const auto it = kShapes.find(rec.insn);
    ASSERT_NE(it, kShapes.end());
    const bool exhaustive = set == "s16" || set == "p32";  // every 16-bit pattern
    const size_t n = exhaustive ? rec.out.size() : std::min(rec.out.size(), kCompare);
    std::vector<uint8_t> in(3 * n * eb);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t ops[3] = {v[i], v[(i * 7 + 3) % total], v[(i * 13 + 5) % total]};
      for (int k = 0; k < 3; ++k) std::memcpy(&in[(k * n + i) * eb], &ops[k], eb);
    }
    Harness h;
    h.load(variant_ptx(rec.insn, it->second, eb, rec.bytes, n));
    const uint64_t din = h.buffer(in), dout = h.buffer(std::vector<uint8_t>(n * rec.bytes));
    const auto res = h.launch("k", Dim3{static_cast<unsigned>((n + 255) / 256), 1, 1}, Dim3{256, 1, 1}, {arg(dout), arg(din)});
    ASSERT_TRUE(res.ok) << res.error;
    const auto raw = h.read<uint8_t>(dout, n * rec.bytes);
    size_t bad = 0;
    std::string first;
    for (size_t i = 0; i < n; ++i) {
      uint64_t got = 0;
      std::memcpy(&got, &raw[i * rec.bytes], rec.bytes);
      if (got != rec.out[i] && bad++ < 4) {
        char buf[160];
        std::snprintf(buf, sizeof buf, " [a=%llx gpu=%llx ours=%llx]", (unsigned long long)v[i],
                      (unsigned long long)rec.out[i], (unsigned long long)got);
        first += buf;
      }
    }
    EXPECT_EQ(bad, 0u) << rec.insn << ": " << bad << " of " << n << first;
    compared += n;
  }
  std::printf("[cvt %s] %zu variants, %zu values compared\n", set.c_str(), recorded.size(), compared);
}

TEST(CvtEngine, Exhaustive16BitSources) { replay("s16"); }
TEST(CvtEngine, PackedF16x2Sources) { replay("p32"); }
TEST(CvtEngine, F32Sources) { replay("f32"); }
TEST(CvtEngine, F64Sources) { replay("f64"); }
TEST(CvtEngine, Int32Sources) { replay("i32"); }
TEST(CvtEngine, Int64Sources) { replay("i64"); }

}  // namespace
}  // namespace ptxvm::test
