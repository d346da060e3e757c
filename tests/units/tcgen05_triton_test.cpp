// Triton's tl.dot and tl.dot_scaled for Blackwell (tests/corpus/triton/matmul.py,
// matmul_descriptor.py and dot_scaled.py compiled for cuda:100: Tensor Memory, tcgen05.mma with
// an mbarrier pipeline, block-scaled tcgen05.mma with scales stored or copied into Tensor Memory,
// TMA through tensor maps built on the host or by the kernel, tcgen05.ld epilogues) run on ptxvm
// with the exact product: every input is a small integer (times a power of two or a small
// multiple of 0.5 for a scale), so every partial sum is exact in f32 whatever the accumulation
// order, and the output types hold the result exactly. K is no multiple of the tile where the
// kernel masks loads, so the masked K edge runs too (the kernels mask only K: M and N are
// multiples of their tiles).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "harness.h"
#include "units/tma/tensor_map.h"

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

// ---- tl.dot_scaled: (A * scale_A) @ (B * scale_B), B and the scales stored K-major ----

// A small integer (|v| <= 3) as e2m1 (§5.2.5.1: 1, 2, 3 are 0b010, 0b100, 0b101).
uint8_t e2m1(int v) {
  static const uint8_t kMagnitude[] = {0, 2, 4, 5};
  return static_cast<uint8_t>((v < 0 ? 8 : 0) | kMagnitude[v < 0 ? -v : v]);
}

struct Scaled {
  const char* file;
  bool fp4;       // e2m1 operands, two to a byte along K (the first in the low nibble); else e4m3
  unsigned vec;   // elements per scale factor
  bool e4m3_scales;  // nvfp4: e4m3 scales (0.5, 1, 1.5, 2, 3); else e8m0 (2^-2 .. 2^2)
  bool tma;       // dot_scaled_gemm_tma: operands and pre-shuffled scales through tensor maps
};

class TritonDotScaled : public ::testing::TestWithParam<Scaled> {};

TEST_P(TritonDotScaled, IsExact) {
  const Scaled& c = GetParam();
  const unsigned M = 256, N = 256, K = c.tma ? 256 : 192, pack = c.fp4 ? 2 : 1, kb = K / c.vec;
  uint32_t seed = 11;
  auto next = [&](unsigned range) {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 20) % range;
  };
  std::vector<int> A(M * K), B(N * K);  // B[j][k]: stored transposed
  for (int& x : A) x = static_cast<int>(next(7)) - 3;
  for (int& x : B) x = static_cast<int>(next(7)) - 3;
  std::vector<unsigned> sa(M * kb), sb(N * kb);
  for (unsigned& x : sa) x = next(5);
  for (unsigned& x : sb) x = next(5);
  const double kE4m3Values[] = {0.5, 1, 1.5, 2, 3};
  const uint8_t kE4m3Codes[] = {6 << 3, 7 << 3, 7 << 3 | 4, 8 << 3, 8 << 3 | 4};
  auto value = [&](unsigned s) { return c.e4m3_scales ? kE4m3Values[s] : std::ldexp(1.0, static_cast<int>(s) - 2); };
  auto code = [&](unsigned s) { return c.e4m3_scales ? kE4m3Codes[s] : static_cast<uint8_t>(125 + s); };
  auto operand = [&](const std::vector<int>& v, unsigned rows) {
    std::vector<uint8_t> b(size_t{rows} * K / pack, 0);
    for (size_t i = 0; i < v.size(); ++i)
      if (c.fp4) b[i / 2] |= static_cast<uint8_t>(e2m1(v[i]) << (4 * (i % 2)));
      else b[i] = static_cast<uint8_t>(encode(T::E4M3, v[i]));
    return b;
  };
  // Scales row-major [rows][K / vec], or (TMA) [rows / 128][K / vec / 4][32][16] with
  // [i][j][r][4q + s] the factor of row 128i + 32q + r, K block 4j + s.
  auto scales = [&](const std::vector<unsigned>& v) {
    std::vector<uint8_t> b(v.size());
    for (unsigned row = 0; row < v.size() / kb; ++row)
      for (unsigned t = 0; t < kb; ++t) {
        const size_t at = c.tma ? (((size_t{row} / 128 * (kb / 4) + t / 4) * 32 + row % 32) * 16 + (row % 128) / 32 * 4 + t % 4)
                                : size_t{row} * kb + t;
        b[at] = code(v[size_t{row} * kb + t]);
      }
    return b;
  };
  Harness h;
  h.load(corpus(c.file));
  const uint64_t a = h.buffer(operand(A, M)), b = h.buffer(operand(B, N)), dsa = h.buffer(scales(sa)),
                 dsb = h.buffer(scales(sb)), out = h.buffer(std::vector<float>(size_t{M} * N, -1.0f));
  LaunchConfig cfg;
  cfg.grid = {(M / 128) * (N / 128)};
  cfg.block = {128};
  cfg.shared_bytes = 200 * 1024;
  cfg.step_limit = 200'000'000;
  std::vector<KernelArg> args;
  if (!c.tma) {
    args = {arg(a), arg(b), arg(out), arg(dsa), arg(dsb), arg(M), arg(N), arg(K), arg(K / pack), arg(K / pack),
            arg(N), arg(kb), arg(kb), arg(uint64_t{0}), arg(uint64_t{0})};
  } else {
    using units::tma::TensorMap;
    auto map = [](uint64_t address, std::vector<uint64_t> dims, std::vector<uint32_t> box, units::tma::Swizzle swz) {
      TensorMap m;
      m.rank = static_cast<uint32_t>(dims.size());
      m.address = address;
      uint64_t stride = 1;
      for (size_t i = 0; i < dims.size(); ++i) {
        m.dims[i] = dims[i], m.box[i] = box[i];
        if (i) m.strides[i - 1] = stride;
        stride *= dims[i];
      }
      m.swizzle = swz;
      EXPECT_EQ(units::tma::validate(m), "");
      return arg(units::tma::encode(m));
    };
    const uint32_t pk = 128 / pack;
    const auto swz = c.fp4 ? units::tma::Swizzle::B64 : units::tma::Swizzle::B128;
    const uint32_t rk = 128 / c.vec / 4;
    auto shape2 = [&](uint32_t rows) {
      return std::vector<KernelArg>{arg(rows), arg(K / pack), arg(uint64_t{K / pack}), arg(uint64_t{1})};
    };
    auto shape4 = [&](uint32_t rows) {
      return std::vector<KernelArg>{arg(rows / 128), arg(kb / 4), arg(32u), arg(16u), arg(uint64_t{kb / 4 * 512}),
                                    arg(uint64_t{512}), arg(uint64_t{16}), arg(uint64_t{1})};
    };
    args.push_back(map(a, {K / pack, M}, {pk, 128}, swz));
    for (auto& x : shape2(M)) args.push_back(x);
    args.push_back(map(b, {K / pack, N}, {pk, 128}, swz));
    for (auto& x : shape2(N)) args.push_back(x);
    args.push_back(map(dsa, {16, 32, kb / 4, M / 128}, {16, 32, rk, 1}, units::tma::Swizzle::None));
    for (auto& x : shape4(M)) args.push_back(x);
    args.push_back(map(dsb, {16, 32, kb / 4, N / 128}, {16, 32, rk, 1}, units::tma::Swizzle::None));
    for (auto& x : shape4(N)) args.push_back(x);
    for (auto& x : {arg(out), arg(M), arg(N), arg(K), arg(N), arg(uint64_t{0}), arg(uint64_t{0})}) args.push_back(x);
  }
  const LaunchResult r = h.module->launch(c.tma ? "dot_scaled_gemm_tma" : "dot_scaled_gemm", cfg, args);
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<float> d = h.read<float>(out, size_t{M} * N);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      double want = 0;
      for (unsigned k = 0; k < K; ++k)
        want += A[i * K + k] * value(sa[i * kb + k / c.vec]) * B[j * K + k] * value(sb[j * kb + k / c.vec]);
      ASSERT_EQ(d[size_t{i} * N + j], want) << c.file << " C[" << i << "][" << j << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, TritonDotScaled,
                         ::testing::Values(Scaled{"triton_dot_scaled_mxfp8.cuda100.ptx", false, 32, false, false},
                                           Scaled{"triton_dot_scaled_mxfp4.cuda100.ptx", true, 32, false, false},
                                           Scaled{"triton_dot_scaled_nvfp4.cuda100.ptx", true, 16, true, false},
                                           Scaled{"triton_dot_scaled_mxfp8_tma.cuda100.ptx", false, 32, false, true},
                                           Scaled{"triton_dot_scaled_nvfp4_tma.cuda100.ptx", true, 16, true, true}),
                         [](const ::testing::TestParamInfo<Scaled>& i) {
                           std::string n = i.param.file;
                           return n.substr(7, n.find('.') - 7);
                         });

// ---- tl.dot through tensor descriptors: built by the kernel (tensormap.replace in the global
// scratch) or passed by value from the host; cuda:90 (wgmma) and cuda:100 (tcgen05) ----

// A 2-D fp16 tensor map as Triton's host TensorDescriptor encodes it: 128-byte swizzle.
KernelArg fp16_map(uint64_t address, uint64_t cols, uint64_t rows, uint32_t box_cols, uint32_t box_rows) {
  units::tma::TensorMap m;
  m.type = units::tma::DataType::F16;
  m.rank = 2;
  m.address = address;
  m.dims = {cols, rows};
  m.strides = {cols * 2};
  m.box = {box_cols, box_rows};
  m.swizzle = units::tma::Swizzle::B128;
  EXPECT_EQ(units::tma::validate(m), "");
  return arg(units::tma::encode(m));
}

class TritonDescriptors : public ::testing::TestWithParam<const char*> {};

TEST_P(TritonDescriptors, MatmulIsExact) {
  const std::string file = GetParam();
  const bool host = file.find("host") != std::string::npos;
  const unsigned M = 256, N = 256, K = 136;  // K: no multiple of the 64-wide tile; rows of 16-byte multiples
  std::vector<int> A(M * K), B(K * N);
  uint32_t seed = 5;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int>((seed >> 20) % 7) - 3;
  };
  for (int& x : A) x = next();
  for (int& x : B) x = next();
  auto half = [](const std::vector<int>& v) {
    std::vector<uint16_t> h(v.size());
    for (size_t i = 0; i < v.size(); ++i) h[i] = static_cast<uint16_t>(encode(T::F16, v[i]));
    return h;
  };
  Harness h;
  h.load(corpus(file));
  const uint64_t a = h.buffer(half(A)), b = h.buffer(half(B)), out = h.buffer(std::vector<uint16_t>(M * N, 0xeeee));
  const unsigned programs = (M / 128) * (N / 128);
  LaunchConfig cfg;
  cfg.grid = {programs};
  cfg.block = {128};
  cfg.shared_bytes = 200 * 1024;
  cfg.step_limit = 200'000'000;
  std::vector<KernelArg> args;
  if (host) {
    auto shape = [](uint32_t rows, uint32_t cols) {
      return std::vector<KernelArg>{arg(rows), arg(cols), arg(uint64_t{cols}), arg(uint64_t{1})};
    };
    for (auto [map, rows, cols] : {std::tuple{fp16_map(a, K, M, 64, 128), M, K}, std::tuple{fp16_map(b, N, K, 64, 64), K, N},
                                   std::tuple{fp16_map(out, N, M, 64, 128), M, N}}) {
      args.push_back(map);
      for (auto& x : shape(rows, cols)) args.push_back(x);
    }
    for (auto& x : {arg(M), arg(N), arg(K), arg(uint64_t{0}), arg(uint64_t{0})}) args.push_back(x);
  } else {  // the kernel writes its three maps in 384 bytes of global scratch per program
    const uint64_t scratch = h.buffer(std::vector<uint8_t>(384 * programs, 0));
    args = {arg(a), arg(b), arg(out), arg(M), arg(N), arg(K), arg(K), arg(N), arg(N), arg(scratch), arg(uint64_t{0})};
  }
  const LaunchResult r = h.module->launch(host ? "matmul_desc_host" : "matmul_desc_device", cfg, args);
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint16_t> d = h.read<uint16_t>(out, size_t{M} * N);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int want = 0;
      for (unsigned k = 0; k < K; ++k) want += A[i * K + k] * B[k * N + j];
      ASSERT_EQ(d[size_t{i} * N + j], encode(T::F16, want)) << file << " C[" << i << "][" << j << "] = " << want;
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, TritonDescriptors,
                         ::testing::Values("triton_matmul_desc_device.cuda100.ptx", "triton_matmul_desc_host.cuda100.ptx",
                                           "triton_matmul_desc_device.cuda90.ptx", "triton_matmul_desc_host.cuda90.ptx"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string n = i.param;
                           n = n.substr(7);
                           for (char& ch : n)
                             if (ch == '.') ch = '_';
                           return n.substr(0, n.size() - 4);
                         });

// ---- the other cuda:100 corpus kernels with tl.dot ----

// int8 tl.dot, persistent (each program loops over tiles), int32 accumulation: exact.
TEST(TritonTcgen05Kernels, Int8PersistentMatmulIsExact) {
  const unsigned M = 300, N = 260, K = 200, tiles = 3 * 3;  // 128 x 128 tiles, edges masked
  std::vector<int8_t> A(M * K), B(K * N);
  uint32_t seed = 3;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int8_t>(seed >> 24);
  };
  for (int8_t& x : A) x = next();
  for (int8_t& x : B) x = next();
  Harness h;
  h.load(corpus("triton_int8_matmul_persistent.cuda100.ptx"));
  const uint64_t a = h.buffer(A), b = h.buffer(B), c = h.buffer(std::vector<int32_t>(M * N, -1));
  LaunchConfig cfg;
  cfg.grid = {tiles};  // min(NUM_SMS, tiles)
  cfg.block = {256};
  cfg.shared_bytes = 200 * 1024;
  cfg.step_limit = 400'000'000;
  const LaunchResult r = h.module->launch("int8_matmul_persistent", cfg,
                                          {arg(a), arg(b), arg(c), arg(M), arg(N), arg(K), arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<int32_t> d = h.read<int32_t>(c, size_t{M} * N);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int32_t want = 0;
      for (unsigned k = 0; k < K; ++k) want += A[i * K + k] * B[k * N + j];
      ASSERT_EQ(d[size_t{i} * N + j], want) << "C[" << i << "][" << j << "]";
    }
}

// fp16 tl.dot with a bias and GELU (erf) epilogue: the product of small integers is exact, so
// y is GELU of an exact value, within an fp16 unit in the last place of the rounded reference
// plus the f32 rounding of the kernel's 1 + erf(x) (which cancels for large negative x).
TEST(TritonTcgen05Kernels, LinearGeluIsWithinAnUlp) {
  const unsigned M = 200, N = 136, K = 96;  // 64 x 64 tiles, M and N edges masked
  std::vector<_Float16> X(M * K), W(N * K);
  std::vector<float> bias(N);
  uint32_t seed = 9;
  auto next = [&](int range) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int>((seed >> 20) % range) - range / 2;
  };
  for (auto& x : X) x = static_cast<_Float16>(next(5));
  for (auto& x : W) x = static_cast<_Float16>(next(5));
  for (float& x : bias) x = static_cast<float>(next(9)) / 4;
  Harness h;
  h.load(corpus("triton_linear_gelu.cuda100.ptx"));
  const uint64_t x = h.buffer(X), w = h.buffer(W), b = h.buffer(bias), y = h.buffer(std::vector<_Float16>(M * N));
  LaunchConfig cfg;
  cfg.grid = {(M + 63) / 64, (N + 63) / 64};
  cfg.block = {128};
  cfg.shared_bytes = 200 * 1024;
  cfg.step_limit = 200'000'000;
  const LaunchResult r = h.module->launch("linear_gelu", cfg,
                                          {arg(x), arg(w), arg(b), arg(y), arg(M), arg(N), arg(K), arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<_Float16> d = h.read<_Float16>(y, size_t{M} * N);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      double acc = bias[j];
      for (unsigned k = 0; k < K; ++k) acc += double{static_cast<float>(X[i * K + k])} * static_cast<float>(W[j * K + k]);
      const double want = 0.5 * acc * (1 + std::erf(acc / std::sqrt(2.0)));
      const _Float16 near = static_cast<_Float16>(want);
      const double ulp = std::max(std::abs(static_cast<double>(near)) * std::ldexp(1.0, -10), std::ldexp(1.0, -24));
      const double bound = ulp + std::abs(acc) * std::ldexp(1.0, -23);
      ASSERT_LE(std::abs(static_cast<float>(d[size_t{i} * N + j]) - want), bound) << "y[" << i << "][" << j << "] of " << acc;
    }
}

// Flash-attention forward, causal (two tl.dot per K/V block, online softmax with exp2): against
// softmax(QK^T * scale) V in double. P enters the second product as fp16, so the bound is fp16's.
TEST(TritonTcgen05Kernels, CausalAttentionMatchesTheReference) {
  const unsigned S = 160, D = 64, heads = 2;  // 64-row blocks: the last one masked
  const float scale = 0.125f;
  std::vector<_Float16> Q(heads * S * D), Kt(heads * S * D), V(heads * S * D);
  uint32_t seed = 21;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<_Float16>(static_cast<float>(static_cast<int>(seed >> 21) - 1024) / 1024);
  };
  for (auto* v : {&Q, &Kt, &V})
    for (auto& x : *v) x = next();
  Harness h;
  h.load(corpus("triton_attention_causal.cuda100.ptx"));
  const uint64_t q = h.buffer(Q), k = h.buffer(Kt), v = h.buffer(V), o = h.buffer(std::vector<_Float16>(heads * S * D));
  LaunchConfig cfg;
  cfg.grid = {(S + 63) / 64, heads};
  cfg.block = {128};
  cfg.shared_bytes = 200 * 1024;
  cfg.step_limit = 400'000'000;
  const LaunchResult r = h.module->launch(
      "attn_fwd", cfg, {arg(q), arg(k), arg(v), arg(o), arg(scale), arg(S), arg(D), arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<_Float16> got = h.read<_Float16>(o, size_t{heads} * S * D);
  auto at = [&](const std::vector<_Float16>& t, unsigned hh, unsigned s, unsigned d) {
    return double{static_cast<float>(t[(size_t{hh} * S + s) * D + d])};
  };
  for (unsigned hh = 0; hh < heads; ++hh)
    for (unsigned i = 0; i < S; ++i) {
      std::vector<double> p(i + 1);
      double top = -1e300, sum = 0;
      for (unsigned j = 0; j <= i; ++j) {
        for (unsigned d = 0; d < D; ++d) p[j] += at(Q, hh, i, d) * at(Kt, hh, j, d);
        p[j] *= scale;
        top = std::max(top, p[j]);
      }
      for (double& x : p) sum += (x = std::exp(x - top));
      for (unsigned d = 0; d < D; ++d) {
        double want = 0;
        for (unsigned j = 0; j <= i; ++j) want += p[j] / sum * at(V, hh, j, d);
        ASSERT_NEAR(static_cast<float>(got[(size_t{hh} * S + i) * D + d]), want, 4e-3)
            << "O[" << hh << "][" << i << "][" << d << "]";
      }
    }
}

}  // namespace
}  // namespace ptxvm::test
