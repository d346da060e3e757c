// The corpus's tcgen05 module (tests/corpus/cuda/tcgen05_asm.cu, nvcc's PTX for sm_100a, sm_103a,
// sm_110a, sm_100f and sm_110f) runs: tcgen05_gemm_tile against an exact product of its operands
// as the kernel's descriptors lay them out (K-major, no swizzle, LBO 128, SBO 256), and
// tcgen05_misc (st/ld in several shapes with pack/unpack, cp, shift, A from Tensor Memory,
// disable-output-lane) to completion, its ld results checked against what it stored.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness.h"
#include "tcgen05_layouts.h"

namespace ptxvm::test {
namespace {

std::string corpus_file(const std::string& file) {
  std::ifstream f(std::filesystem::path(__FILE__).parent_path() / "../corpus/ptx" / file);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

uint16_t half(int v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}

class Tcgen05Corpus : public ::testing::TestWithParam<const char*> {};

TEST_P(Tcgen05Corpus, GemmTileIsExact) {
  const unsigned M = 128, N = 64, K = 16, steps = 3;
  std::vector<int> A(steps * M * K), B(steps * N * K);  // per step: A (M x K), B (N x K), K-major
  uint32_t seed = 41;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int>((seed >> 20) % 7) - 3;
  };
  for (int& x : A) x = next();
  for (int& x : B) x = next();
  // Each step's operands as the kernel copies them into shared memory: canonical K-major layout
  // without swizzle, LBO 128 bytes (K chunks), SBO 256 bytes (8-row groups).
  auto image = [&](const std::vector<int>& v, unsigned rows, unsigned words_per_step) {
    std::vector<uint32_t> out(steps * words_per_step, 0);
    for (unsigned s = 0; s < steps; ++s)
      for (unsigned r = 0; r < rows; ++r)
        for (unsigned k = 0; k < K; ++k) {
          const uint32_t byte = canonical(true, Swz::None, 16, 128, 256, r, k);
          uint16_t* p = reinterpret_cast<uint16_t*>(&out[s * words_per_step]) + byte / 2;
          *p = half(v[(s * rows + r) * K + k]);
        }
    return out;
  };
  Harness h;
  h.load(corpus_file(GetParam()));
  const uint64_t a = h.buffer(image(A, M, 1024)), b = h.buffer(image(B, N, 512)),
                 c = h.buffer(std::vector<float>(128 * 8, -1.0f));
  const LaunchResult r = h.launch("tcgen05_gemm_tile", {1}, {128}, {arg(a), arg(b), arg(c), arg(int32_t(steps))});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<float> d = h.read<float>(c, 128 * 8);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < 8; ++j) {  // the kernel stores D's first 8 columns, row i from thread i
      int want = 0;
      for (unsigned s = 0; s < steps; ++s)
        for (unsigned k = 0; k < K; ++k) want += A[(s * M + i) * K + k] * B[(s * N + j) * K + k];
      ASSERT_EQ(d[i * 8 + j], static_cast<float>(want)) << GetParam() << " D[" << i << "][" << j << "]";
    }
}

TEST_P(Tcgen05Corpus, MiscRunsAndReadsBackWhatItStored) {
  std::vector<uint32_t> in(128 * 8);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = i * 0x9e3779b9u;
  Harness h;
  h.load(corpus_file(GetParam()));
  const uint64_t din = h.buffer(in), out = h.buffer(std::vector<uint32_t>(128 * 4, 0xdeadbeef));
  const LaunchResult r = h.launch("tcgen05_misc", {1}, {128}, {arg(din), arg(out)});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<uint32_t> o = h.read<uint32_t>(out, 128 * 4);
  // Thread t stored v0..v3 = in[t + 128 i] with .32x32b.x4 at its lane, columns 0..3; the
  // .16x128b.x1 load gives thread t the cells (lane t/4 + 8(r%2), column t%4) of its warp's lanes:
  // out[4t] = a ^ v2, out[4t + 1] = b ^ v3.
  for (unsigned t = 0; t < 128; ++t) {
    const unsigned w = t / 32, l = t % 32;
    auto cell = [&](unsigned lane, unsigned column) { return in[32 * w + lane + 128 * column]; };
    EXPECT_EQ(o[4 * t], cell(l / 4, l % 4) ^ in[t + 256]) << GetParam() << " thread " << t;
    EXPECT_EQ(o[4 * t + 1], cell(l / 4 + 8, l % 4) ^ in[t + 384]) << GetParam() << " thread " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, Tcgen05Corpus,
                         ::testing::Values("tcgen05_asm.sm_100a.ptx", "tcgen05_asm.sm_100a.G.ptx",
                                           "tcgen05_asm.sm_103a.ptx", "tcgen05_asm.sm_110a.ptx",
                                           "tcgen05_asm.sm_100f.ptx", "tcgen05_asm.sm_110f.ptx"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string n = std::string(i.param).substr(12);
                           for (char& ch : n)
                             if (ch == '.') ch = '_';
                           return n.substr(0, n.size() - 4);
                         });

}  // namespace
}  // namespace ptxvm::test
