// Replays the cvt/testp/copysign/cvt.pack vectors recorded on an H200 (sm_90) by
// tests/hw/cvt/record_cvt.cu: inputs are regenerated from the same seeds (inputs.h), the
// library's result must equal the GPU's bit for bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "../hw/cvt/inputs.h"
#include "insn.h"

namespace ptxvm::numeric::test {
namespace {

// N_RANDOM of the recording run (tests/hw/cvt/README.md). Operands b and c are rotations
// of the whole input list, so inputs are regenerated at full size even though the stored
// files keep only a prefix of each variant (the edges and the first random values).
constexpr size_t kRandom = 65536;

struct Operands {
  std::vector<uint64_t> a, b, c;
};

template <class T>
Operands operands(const std::vector<T>& v) {
  Operands o;
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) {
    o.a.push_back(v[i]);
    o.b.push_back(v[(i * 7 + 3) % n]);
    o.c.push_back(v[(i * 13 + 5) % n]);
  }
  return o;
}

const Operands& set_operands(const std::string& set) {
  static std::map<std::string, Operands> cache;
  auto it = cache.find(set);
  if (it != cache.end()) return it->second;
  std::vector<uint32_t> w(65536);
  if (set == "s16" || set == "p32")
    for (uint32_t i = 0; i < 65536; ++i) w[i] = set == "s16" ? i : ptxvm_hw::pair16(i);
  Operands o;
  if (set == "s16" || set == "p32") o = operands(w);
  if (set == "f32") o = operands(ptxvm_hw::f32_inputs(1, kRandom));
  if (set == "f64") o = operands(ptxvm_hw::f64_inputs(2, kRandom));
  if (set == "i64") o = operands(ptxvm_hw::int_inputs(3, kRandom));
  if (set == "i32") {
    const auto v = ptxvm_hw::int_inputs(3, kRandom);
    o = operands(std::vector<uint32_t>(v.begin(), v.end()));
  }
  return cache[set] = std::move(o);
}

struct Recorded {
  std::string insn;
  unsigned bytes;
  std::vector<uint64_t> out;
};

std::vector<Recorded> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<Recorded> r;
  uint16_t len;
  while (f.read(reinterpret_cast<char*>(&len), 2)) {
    Recorded v;
    v.insn.resize(len);
    f.read(v.insn.data(), len);
    uint8_t eb;
    uint32_t n;
    f.read(reinterpret_cast<char*>(&eb), 1);
    f.read(reinterpret_cast<char*>(&n), 4);
    v.bytes = eb;
    std::vector<uint8_t> raw(size_t{n} * eb);
    f.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size()));
    v.out.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t x = 0;
      std::memcpy(&x, raw.data() + size_t{i} * eb, eb);
      v.out[i] = x;
    }
    r.push_back(std::move(v));
  }
  return r;
}

// Compares every recorded variant of one input set; returns the number of values compared.
size_t replay(const std::string& set) {
  const std::string path = std::string(PTXVM_HW_CVT_DIR) + "/cvt_" + set + ".bin";
  const auto recorded = read_file(path);
  EXPECT_FALSE(recorded.empty()) << path;
  const Operands& ops = set_operands(set);
  size_t compared = 0;
  for (const Recorded& v : recorded) {
    SCOPED_TRACE(v.insn);
    const Evaluator eval = evaluator(Insn(v.insn), v.bytes * 8);
    if (!eval || v.out.size() > ops.a.size()) {
      ADD_FAILURE() << "unknown instruction or wrong count " << v.out.size();
      continue;
    }
    size_t bad = 0;
    std::string first;
    for (size_t i = 0; i < v.out.size(); ++i) {
      const uint64_t got = eval(ops.a[i], ops.b[i], ops.c[i]);
      if (got != v.out[i] && bad++ < 3) {
        char buf[160];
        std::snprintf(buf, sizeof buf, " [a=%llx b=%llx gpu=%llx ours=%llx]",
                      static_cast<unsigned long long>(ops.a[i]), static_cast<unsigned long long>(ops.b[i]),
                      static_cast<unsigned long long>(v.out[i]), static_cast<unsigned long long>(got));
        first += buf;
      }
    }
    EXPECT_EQ(bad, 0u) << v.insn << ": " << bad << " of " << v.out.size() << first;
    compared += v.out.size();
  }
  std::printf("[hw %s] %zu variants, %zu values compared\n", set.c_str(), recorded.size(), compared);
  return compared;
}

TEST(HwCvt, Exhaustive16BitSources) { replay("s16"); }
TEST(HwCvt, PackedF16x2Sources) { replay("p32"); }
TEST(HwCvt, F32Sources) { replay("f32"); }
TEST(HwCvt, F64Sources) { replay("f64"); }
TEST(HwCvt, Int32Sources) { replay("i32"); }
TEST(HwCvt, Int64Sources) { replay("i64"); }

}  // namespace
}  // namespace ptxvm::numeric::test
