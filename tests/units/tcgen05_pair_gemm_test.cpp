// A hand-written warp-specialized tcgen05 GEMM on CTA pairs (tests/units/tcgen05_pair/gemm.cu,
// nvcc -arch=sm_100a): clusters of 4 CTAs as two .cta_group::2 pairs, TMA loads with multicast
// between the pairs, mbarrier rings (full / empty / pair_full / done) between a producer warp, the
// pair's MMA-issuing warp and four epilogue warps, Tensor Memory allocated and freed by the pair,
// tcgen05.commit multicast to the CTAs of a mask. Every input is a small integer, so C is the
// exact product whatever the accumulation order.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::test {
namespace {

std::string pair_gemm_ptx() {
  std::ifstream f(std::filesystem::path(__FILE__).parent_path() / "tcgen05_pair/gemm.ptx");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The f16 bits of a small integer.
uint16_t half(int v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

// A K-major f16 operand (rows x K, row-major) as the kernel's 64 x 64 boxes with 128B swizzle.
KernelArg map(uint64_t address, uint64_t rows, uint64_t k) {
  units::tma::TensorMap m;
  m.type = units::tma::DataType::F16;
  m.rank = 2;
  m.address = address;
  m.dims = {k, rows};
  m.strides = {k * 2};
  m.box = {64, 64};
  m.swizzle = units::tma::Swizzle::B128;
  EXPECT_EQ(units::tma::validate(m), "");
  return arg(units::tma::encode(m));
}

TEST(Tcgen05PairGemm, WarpSpecializedPairsWithMulticastAreExact) {
  const unsigned M = 256, N = 512, K = 320;  // two clusters; 5 K blocks through a 2-stage ring
  std::vector<int> A(M * K), B(N * K);
  uint32_t seed = 17;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int>((seed >> 20) % 9) - 4;
  };
  for (int& x : A) x = next();
  for (int& x : B) x = next();
  std::vector<uint16_t> a16(A.size()), b16(B.size());
  for (size_t i = 0; i < A.size(); ++i) a16[i] = half(A[i]);
  for (size_t i = 0; i < B.size(); ++i) b16[i] = half(B[i]);
  Harness h;
  h.load(pair_gemm_ptx());
  const uint64_t a = h.buffer(a16), b = h.buffer(b16), c = h.buffer(std::vector<float>(M * N, -1.0f));
  LaunchConfig cfg;
  cfg.grid = {4 * N / 256, M / 256};
  cfg.cluster = {4, 1, 1};
  cfg.block = {192};
  cfg.shared_bytes = 2 * (16384 + 8192) + 64 + 1024;
  cfg.step_limit = 100'000'000;
  const LaunchResult r = h.module->launch("pair_gemm", cfg, {map(a, M, K), map(b, N, K), arg(c), arg(N), arg(K)});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<float> d = h.read<float>(c, size_t{M} * N);
  // Every check (docs/Sanitizer.md) finds nothing in it, and the bits stay.
  cfg.checks = *Checks::parse("all", nullptr);
  const LaunchResult checked = h.module->launch("pair_gemm", cfg, {map(a, M, K), map(b, N, K), arg(c), arg(N), arg(K)});
  ASSERT_TRUE(checked.ok) << checked.error;
  std::string reports;
  for (const CheckReport& x : checked.reports) reports += x.render("pair_gemm.ptx");
  EXPECT_TRUE(checked.reports.empty()) << reports;
  EXPECT_EQ(h.read<float>(c, size_t{M} * N), d);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int want = 0;
      for (unsigned k = 0; k < K; ++k) want += A[i * K + k] * B[j * K + k];
      ASSERT_EQ(d[size_t{i} * N + j], static_cast<float>(want)) << "C[" << i << "][" << j << "]";
    }
}

}  // namespace
}  // namespace ptxvm::test
