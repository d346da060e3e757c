// wmma (PTX §9.7.14.4, 001_23fdd5978b24a3ed.txt): load ▶ mma ▶ store against the matrix product
// for every shape, type and layout, whatever the fragment layout. Inputs are small integers, so
// every sum is exact. (The recorded wmma layouts: tests/sem/mma_hw_test.cpp.)
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "harness.h"
#include "matrix_elements.h"

namespace ptxvm::test {
namespace {

struct WmmaCase {
  std::string shape; // ".m16n16k16"
  int m, n, k;
  T ab, c, d;
  std::string ab_name, c_name, d_name, mma_types; // mma_types: the type qualifiers of wmma.mma
  int na, nb, nc, nd;                             // registers (§9.7.14.4.1)
  bool sub_byte = false;                          // .row A and .col B only
  std::string op = "";                            // .xor.popc of .b1
};

void run_wmma(const WmmaCase& wc, const std::string& al, const std::string& bl,
              const std::string& cl, const std::string& dl) {
  SCOPED_TRACE(wc.shape + wc.mma_types + al + bl + cl + dl);
  std::mt19937 rng(99);
  auto fill = [&](T t, int n) {
    std::uniform_int_distribution<int> dist(range(t).first, range(t).second);
    std::vector<int> v(static_cast<size_t>(n));
    for (int& x : v) x = dist(rng);
    return v;
  };
  std::vector<int> A = fill(wc.ab, wc.m * wc.k), B = fill(wc.ab, wc.k * wc.n),
                   C = fill(wc.c == T::F16 ? T::F16 : T::S32, wc.m * wc.n);
  // Memory images with a padded leading dimension (stride = default + pad elements).
  int pad = wc.ab == T::B1 ? 128 : wc.ab == T::S4 || wc.ab == T::U4 ? 32 : 8;
  auto image = [&](const std::vector<int>& mtx, int rows, int cols, bool row_major, T t,
                   int& stride) {
    stride = (row_major ? cols : rows) + pad;
    int w = width(t), lead = row_major ? rows : cols;
    std::vector<uint8_t> bytes(static_cast<size_t>(lead * stride * w / 8 + 64), 0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        uint64_t bit = static_cast<uint64_t>(row_major ? r * stride + c : c * stride + r) * w;
        uint64_t v = encode(t, mtx[r * cols + c]) & (w == 64 ? ~0ull : (1ull << w) - 1);
        for (int b = 0; b < w; ++b)
          if (v >> b & 1) bytes[(bit + b) / 8] |= static_cast<uint8_t>(1u << ((bit + b) % 8));
      }
    return bytes;
  };
  int sa, sb, sc, sd;
  auto ia = image(A, wc.m, wc.k, al == ".row", wc.ab, sa),
       ib = image(B, wc.k, wc.n, bl == ".row", wc.ab, sb),
       ic = image(C, wc.m, wc.n, cl == ".row", wc.c, sc);
  sd = (dl == ".row" ? wc.n : wc.m) + 8;
  bool f64 = wc.ab == T::F64;
  std::string r = f64 ? "%fd" : "%r";
  auto vec = [&](int first, int n) {
    std::string v = "{";
    for (int i = 0; i < n; ++i) v += (i ? ", " : "") + r + std::to_string(first + i);
    return v + "}";
  };
  std::string body =
      ".reg .u64 %pa, %pb, %pc;\nld.global.u64 %pa, [%rd_in];\nld.global.u64 %pb, [%rd_in+8];\n"
      "ld.global.u64 %pc, [%rd_in+16];\n"
      "wmma.load.a.sync.aligned" +
      al + wc.shape + ".global" + wc.ab_name + " " + vec(0, wc.na) + ", [%pa], " +
      std::to_string(sa) +
      ";\n"
      "wmma.load.b.sync.aligned" +
      bl + wc.shape + ".global" + wc.ab_name + " " + vec(10, wc.nb) + ", [%pb], " +
      std::to_string(sb) +
      ";\n"
      "wmma.load.c.sync.aligned" +
      cl + wc.shape + ".global" + wc.c_name + " " + vec(20, wc.nc) + ", [%pc], " +
      std::to_string(sc) +
      ";\n"
      "wmma.mma" +
      wc.op + ".sync.aligned" + al + bl + wc.shape + wc.mma_types + " " + vec(30, wc.nd) + ", " +
      vec(0, wc.na) + ", " + vec(10, wc.nb) + ", " + vec(20, wc.nc) +
      ";\n"
      "wmma.store.d.sync.aligned" +
      dl + wc.shape + ".global" + wc.d_name + " [%rd_out], " + vec(30, wc.nd) + ", " +
      std::to_string(sd) + ";\n";
  Harness h;
  h.load(kernel_ptx(body, "sm_90"));
  uint64_t pa = h.buffer(ia), pb = h.buffer(ib), pc = h.buffer(ic);
  int dw = width(wc.d);
  uint64_t out = h.buffer(
      std::vector<uint8_t>(static_cast<size_t>((dl == ".row" ? wc.m : wc.n) * sd * dw / 8), 0));
  uint64_t din = h.buffer(std::vector<uint64_t>{pa, pb, pc});
  auto res = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  ASSERT_TRUE(res.ok) << res.error;
  auto got = h.read<uint8_t>(out, static_cast<size_t>((dl == ".row" ? wc.m : wc.n) * sd * dw / 8));
  for (int i = 0; i < wc.m; ++i)
    for (int j = 0; j < wc.n; ++j) {
      int64_t acc = C[i * wc.n + j];
      for (int kk = 0; kk < wc.k; ++kk) {
        int64_t x = A[i * wc.k + kk], y = B[kk * wc.n + j];
        acc += wc.ab == T::B1 ? (x ^ y) : x * y;
      }
      uint64_t want = encode(wc.d, static_cast<int>(acc)) & (dw == 64 ? ~0ull : (1ull << dw) - 1),
               have = 0;
      size_t at = static_cast<size_t>(dl == ".row" ? i * sd + j : j * sd + i) * dw / 8;
      std::memcpy(&have, &got[at], static_cast<size_t>(dw / 8));
      EXPECT_EQ(have, want) << "D[" << i << "][" << j << "]";
    }
}

TEST(Wmma, LoadMmaStoreEveryShapeAndType) {
  const std::vector<WmmaCase> cases = {
      {".m16n16k16", 16, 16, 16, T::F16, T::F32, T::F32, ".f16", ".f32", ".f32", ".f32.f32", 8, 8,
       8, 8},
      {".m16n16k16", 16, 16, 16, T::F16, T::F16, T::F16, ".f16", ".f16", ".f16", ".f16.f16", 8, 8,
       4, 4},
      {".m16n16k16", 16, 16, 16, T::F16, T::F16, T::F32, ".f16", ".f16", ".f32", ".f32.f16", 8, 8,
       4, 8},
      {".m32n8k16", 32, 8, 16, T::F16, T::F32, T::F16, ".f16", ".f32", ".f16", ".f16.f32", 8, 8, 8,
       4},
      {".m8n32k16", 8, 32, 16, T::F16, T::F32, T::F32, ".f16", ".f32", ".f32", ".f32.f32", 8, 8, 8,
       8},
      {".m16n16k16", 16, 16, 16, T::BF16, T::F32, T::F32, ".bf16", ".f32", ".f32",
       ".f32.bf16.bf16.f32", 4, 4, 8, 8},
      {".m32n8k16", 32, 8, 16, T::BF16, T::F32, T::F32, ".bf16", ".f32", ".f32",
       ".f32.bf16.bf16.f32", 8, 2, 8, 8},
      {".m8n32k16", 8, 32, 16, T::BF16, T::F32, T::F32, ".bf16", ".f32", ".f32",
       ".f32.bf16.bf16.f32", 2, 8, 8, 8},
      {".m16n16k8", 16, 16, 8, T::TF32, T::F32, T::F32, ".tf32", ".f32", ".f32",
       ".f32.tf32.tf32.f32", 4, 4, 8, 8},
      {".m8n8k4", 8, 8, 4, T::F64, T::F64, T::F64, ".f64", ".f64", ".f64", ".f64.f64.f64.f64", 1, 1,
       2, 2},
      {".m16n16k16", 16, 16, 16, T::S8, T::S32, T::S32, ".s8", ".s32", ".s32", ".s32.s8.s8.s32", 2,
       2, 8, 8},
      {".m32n8k16", 32, 8, 16, T::U8, T::S32, T::S32, ".u8", ".s32", ".s32", ".s32.u8.u8.s32", 4, 1,
       8, 8},
      {".m8n32k16", 8, 32, 16, T::S8, T::S32, T::S32, ".s8", ".s32", ".s32", ".s32.s8.s8.s32", 1, 4,
       8, 8},
      {".m8n8k32", 8, 8, 32, T::S4, T::S32, T::S32, ".s4", ".s32", ".s32", ".s32.s4.s4.s32", 1, 1,
       2, 2, true},
      {".m8n8k32", 8, 8, 32, T::U4, T::S32, T::S32, ".u4", ".s32", ".s32", ".s32.u4.u4.s32", 1, 1,
       2, 2, true},
      {".m8n8k128", 8, 8, 128, T::B1, T::S32, T::S32, ".b1", ".s32", ".s32", ".s32.b1.b1.s32", 1, 1,
       2, 2, true, ".xor.popc"},
  };
  for (const WmmaCase& wc : cases) {
    if (wc.sub_byte) {
      for (std::string cl : {".row", ".col"})
        run_wmma(wc, ".row", ".col", cl, cl == ".row" ? ".col" : ".row");
      continue;
    }
    for (std::string al : {".row", ".col"})
      for (std::string bl : {".row", ".col"}) run_wmma(wc, al, bl, al, bl);
  }
}

} // namespace
} // namespace ptxvm::test
