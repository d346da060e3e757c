// Triton's tl.dot for Blackwell (tests/corpus/triton/matmul.py compiled for cuda:100: Tensor Memory,
// tcgen05.mma with an mbarrier pipeline, tcgen05.ld epilogue) runs on ptxvm with the exact
// product: every input is a small integer, so every partial sum is exact in f32 whatever the
// accumulation order, and the output types hold the result exactly. K is no multiple of the tile,
// so the masked K edge runs too (the kernel masks only K: M and N are multiples of its tiles).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness.h"

namespace ptxvm::test {
namespace {

std::string corpus(const std::string& file) {
  std::ifstream f(std::filesystem::path(__FILE__).parent_path() / "../corpus/ptx" / file);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

enum class T { F16, BF16, F32, E4M3 };

uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
// A small integer (|v| < 2048) in t; f16 and e4m3 from the f32 fields.
uint32_t encode(T t, int v) {
  const uint32_t u = f32_bits(static_cast<float>(v)), sign = u >> 31, exp = (u >> 23) & 0xff, man = u & 0x7fffff;
  switch (t) {
  case T::F32: return u;
  case T::BF16: return u >> 16;
  case T::F16: return v == 0 ? 0 : sign << 15 | (exp - 127 + 15) << 10 | man >> 13;
  case T::E4M3: return v == 0 ? 0 : sign << 7 | (exp - 127 + 7) << 3 | man >> 20;
  }
  return 0;
}
unsigned size_of(T t) { return t == T::F32 ? 4 : t == T::E4M3 ? 1 : 2; }

struct Config {
  const char* file;
  T in, out;
  unsigned bm, bn;
};

class TritonTcgen05 : public ::testing::TestWithParam<Config> {};

TEST_P(TritonTcgen05, MatmulIsExact) {
  const Config& c = GetParam();
  const unsigned M = 256, N = 256, K = 100;
  std::vector<int> A(M * K), B(K * N);
  uint32_t seed = 7;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int>((seed >> 20) % 7) - 3;
  };
  for (int& x : A) x = next();
  for (int& x : B) x = next();
  auto bytes = [&](const std::vector<int>& v) {
    std::vector<uint8_t> b(v.size() * size_of(c.in));
    for (size_t i = 0; i < v.size(); ++i) {
      const uint32_t x = encode(c.in, v[i]);
      std::memcpy(&b[i * size_of(c.in)], &x, size_of(c.in));
    }
    return b;
  };
  Harness h;
  h.load(corpus(c.file));
  const uint64_t a = h.buffer(bytes(A)), b = h.buffer(bytes(B));
  const uint64_t out = h.buffer(std::vector<uint8_t>(size_t{M} * N * size_of(c.out), 0xee));
  LaunchConfig cfg;
  cfg.grid = {((M + c.bm - 1) / c.bm) * ((N + c.bn - 1) / c.bn)};
  cfg.block = {128};
  cfg.shared_bytes = 200 * 1024;
  cfg.step_limit = 200'000'000;
  const LaunchResult r = h.module->launch(
      "matmul", cfg,
      {arg(a), arg(b), arg(out), arg(M), arg(N), arg(K), arg(K), arg(N), arg(N), arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint8_t> d = h.read<uint8_t>(out, size_t{M} * N * size_of(c.out));
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int want = 0;
      for (unsigned k = 0; k < K; ++k) want += A[i * K + k] * B[k * N + j];
      uint32_t got = 0;
      std::memcpy(&got, &d[(size_t{i} * N + j) * size_of(c.out)], size_of(c.out));
      ASSERT_EQ(got, encode(c.out, want)) << c.file << " C[" << i << "][" << j << "] = " << want;
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, TritonTcgen05,
                         ::testing::Values(Config{"triton_matmul_fp16.cuda100.ptx", T::F16, T::F16, 128, 128},
                                           Config{"triton_matmul_bf16.cuda100.ptx", T::BF16, T::F32, 64, 128},
                                           Config{"triton_matmul_tf32.cuda100.ptx", T::F32, T::F32, 64, 64},
                                           Config{"triton_matmul_fp8.cuda100.ptx", T::E4M3, T::F16, 128, 64}),
                         [](const ::testing::TestParamInfo<Config>& i) {
                           std::string n = i.param.file;
                           return n.substr(7, n.find('.') - 7);
                         });

}  // namespace
}  // namespace ptxvm::test
