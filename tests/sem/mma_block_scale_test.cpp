// Block-scaled mma (PTX §9.7.14.3 and §9.7.14.5.14, 001_23fdd5978b24a3ed.txt; sm_120a):
// .kind::mxf8f6f4 / .kind::mxf4 / .kind::mxf4nvf4 .block_scale, D = (A * scale_A) * (B * scale_B)
// + C. The reference here is written from the spec: the fragments of §9.7.14.5.8 (m16n8k32, 8-bit
// containers) and §9.7.14.5.9 (m16n8k64, packed 4-bit), the scale-factor selection of §9.7.14.3
// (thread-id-a picks lanes 4g + 2 thread-id-a + {0: row g, 1: row g + 8}, thread-id-b lane
// 4n + thread-id-b for column n; byte-id + k-block picks the byte), element and scale values
// decoded by their definitions, and the sum taken exactly in __float128 and rounded once to f32.
// Bytes no selector picks hold NaN scales, so a wrong pick shows.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../hw/splitmix64.h"
#include "harness.h"

namespace ptxvm::test {
namespace {

using ptxvm_hw_seed::splitmix64;

// An element format: exponent and mantissa bits, bias (§5.2.5 alternate formats).
struct Fmt {
  std::string name;
  int e, m, bias;
  int bits() const { return 1 + e + m; }
};
const Fmt kE4M3{".e4m3", 4, 3, 7}, kE5M2{".e5m2", 5, 2, 15}, kE3M2{".e3m2", 3, 2, 3},
    kE2M3{".e2m3", 2, 3, 1}, kE2M1{".e2m1", 2, 1, 1};

__float128 pow2(int e) {
  __float128 v = 1;
  for (; e > 0; --e) v *= 2;
  for (; e < 0; ++e) v /= 2;
  return v;
}

// The value of a finite code.
__float128 value(const Fmt& f, uint32_t code) {
  int field = static_cast<int>(code >> f.m) & ((1 << f.e) - 1);
  uint32_t man = code & ((1u << f.m) - 1);
  __float128 v = field ? pow2(field - f.bias) * (1 + __float128(man) / (1 << f.m))
                       : pow2(1 - f.bias) * (__float128(man) / (1 << f.m));
  return (code >> (f.e + f.m)) & 1 ? -v : v;
}

// A random finite code (e4m3 has no Inf and only S.1111.111 as NaN; e5m2 IEEE specials).
uint32_t random_code(const Fmt& f, uint64_t& s) {
  for (;;) {
    uint32_t c = static_cast<uint32_t>(splitmix64(s)) & ((1u << f.bits()) - 1);
    int field = static_cast<int>(c >> f.m) & ((1 << f.e) - 1);
    if (f.name == ".e4m3" && (c & 0x7f) == 0x7f) continue;
    if (f.name == ".e5m2" && field == 31) continue;
    return c;
  }
}

// Scale factors: ue8m0 is 2^(code - 127), 0xff NaN; ue4m3 is an unsigned e4m3 (0x7f NaN) in the
// low 7 bits of its byte (bit 7, which the format lacks, is ignored: ptxvm's choice).
__float128 scale_value(bool ue4m3, uint8_t code) {
  if (!ue4m3) return pow2(code - 127);
  return value(kE4M3, code & 0x7f);
}
bool scale_nan(bool ue4m3, uint8_t code) {
  return ue4m3 ? (code & 0x7f) == 0x7f : code == 0xff;
}

const int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};

struct Case {
  std::string kind;   // ".kind::mxf8f6f4"
  std::string vec;    // ".scale_vec::2X", or "" for the default
  Fmt a, b;
  bool ue4m3 = false;
  int k = 32, nvec = 1;                          // K (dense), scale factors per row
  bool sparse = false;                           // mma.sp::ordered_metadata: A is 2:4 / 4:8 sparse
  unsigned byte_a = 0, thread_a = 0, byte_b = 0, thread_b = 0;
  bool register_selectors = false;
  bool braced_scale_data = false;                // `{%r8}`: as CUTLASS writes it, ptxas accepts it
  // the matrices: codes of A (16 x K, dense), B (K x 8); C; scale codes (16 x nvec, 8 x nvec)
  std::vector<uint32_t> A{}, B{};
  std::vector<float> C{};
  std::vector<uint8_t> SA{}, SB{};
  std::vector<std::vector<int>> pairs{}; // mma.sp: per row and chunk, an index into kPairs
  bool packed() const { return kind != ".kind::mxf8f6f4"; } // .e2m1 eight to a register
};

std::string instruction(const Case& c) {
  std::string sel_a = "{" + std::to_string(c.byte_a) + ", " + std::to_string(c.thread_a) + "}",
              sel_b = "{" + std::to_string(c.byte_b) + ", " + std::to_string(c.thread_b) + "}";
  if (c.register_selectors) sel_a = "{%h1, %h2}", sel_b = "{%h3, %h4}";
  return std::string(c.sparse ? "mma.sp::ordered_metadata" : "mma") + ".sync.aligned.m16n8k" +
         std::to_string(c.k) + ".row.col" + c.kind + ".block_scale" + c.vec + ".f32" + c.a.name +
         c.b.name + ".f32" + (c.ue4m3 ? ".ue4m3" : ".ue8m0") +
         " {%f5, %f6, %f7, %f8}, {%r2, %r3, %r4, %r5}, " +
         (c.sparse ? "{%r6, %r7, %r10, %r11}" : "{%r6, %r7}") + ", {%f1, %f2, %f3, %f4}, " +
         (c.sparse ? "%r12, 0, " : "") + (c.braced_scale_data ? "{%r8}, " : "%r8, ") + sel_a +
         (c.braced_scale_data ? ", {%r9}, " : ", %r9, ") + sel_b + ";";
}

// Per lane in `in` (16 words): A registers, C, B registers (2, or 4 for mma.sp), scale-a-data,
// scale-b-data, the sparsity metadata.
std::string kernel(const Case& c) {
  std::string body =
      "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 64;\nadd.s64 %rd2, %rd_in, %rd1;\n"
      "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd2];\nld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+16];\n"
      "ld.global.v4.u32 {%r6, %r7, %r10, %r11}, [%rd2+32];\n"
      "ld.global.v4.u32 {%r8, %r9, %r12, %r13}, [%rd2+48];\n";
  if (c.register_selectors)
    body += "mov.u16 %h1, " + std::to_string(c.byte_a) + ";\nmov.u16 %h2, " + std::to_string(c.thread_a) +
            ";\nmov.u16 %h3, " + std::to_string(c.byte_b) + ";\nmov.u16 %h4, " +
            std::to_string(c.thread_b) + ";\n";
  return body + instruction(c) +
         "\nmul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd_out, %rd3;\n"
         "st.global.v4.f32 [%rd4], {%f5, %f6, %f7, %f8};\n";
}

// The positions (dense columns) of the elements row `row` of A holds: all of them, or for mma.sp
// those the metadata names. Sparse A (§9.7.14.6.1): 8-bit elements 2:4, each 4-element chunk
// holding its two elements at indices i0 < i1; .kind::mxf4* .e2m1 4:8 by pairs, each 8-element
// chunk holding the 2-element sub-chunks i0 < i1. Chunk ch of row r has the index pair
// kPairs[c.pairs[r][ch]].
std::vector<int> held(const Case& c, int row) {
  std::vector<int> cols;
  if (!c.sparse) {
    for (int k = 0; k < c.k; ++k) cols.push_back(k);
    return cols;
  }
  const int chunk = c.packed() ? 8 : 4;
  for (int ch = 0; ch < c.k / chunk; ++ch)
    for (int h = 0; h < 2; ++h) {
      int idx = kPairs[c.pairs[row][ch]][h];
      if (c.packed()) cols.push_back(ch * 8 + 2 * idx), cols.push_back(ch * 8 + 2 * idx + 1);
      else cols.push_back(ch * 4 + idx);
    }
  return cols;
}

// The lanes' input words from the matrices, through the fragments of §9.7.14.5.8-9 (and for
// mma.sp §9.7.14.6.2: the M x K/2 matrix of held elements in the dense fragment of K/2, B of the
// dense K; the metadata of lane 4q + t holds in nibble n chunk 8 (t / 2) + n of row q + 8 (t % 2),
// i0 in its low two bits, i1 in its high two) and the scale-factor selection of §9.7.14.3.
std::vector<uint32_t> lane_words(const Case& c) {
  std::vector<uint32_t> w(32 * 16, 0);
  const int e = c.packed() ? 8 : 4, width = c.packed() ? 4 : 8;
  std::vector<std::vector<int>> cols(16);
  for (int row = 0; row < 16; ++row) cols[row] = held(c, row);
  auto container = [&](const Fmt& f, uint32_t code) {
    return c.packed() ? code : f.name == ".e2m1" ? code << 2 : code; // e2m1 in bits 5..2
  };
  const uint8_t nan = c.ue4m3 ? 0x7f : 0xff;
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    for (int r = 0; r < 4; ++r)
      for (int j = 0; j < e; ++j) { // A: row g + 8 (r % 2), col t*e + j + 4e (r / 2)
        int row = g + 8 * (r % 2), col = t * e + j + 4 * e * (r / 2);
        w[l * 16 + r] |= container(c.a, c.A[row * c.k + cols[row][col]]) << (width * j);
      }
    for (int i = 0; i < 4; ++i) // C: row g + 8 (i / 2), col 2t + i % 2
      w[l * 16 + 4 + i] = std::bit_cast<uint32_t>(c.C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2]);
    for (int r = 0; r < c.k * 8 / (32 * e); ++r)
      for (int j = 0; j < e; ++j) { // B: row t*e + j + 4e r, col g
        int row = t * e + j + 4 * e * r;
        w[l * 16 + 8 + r] |= container(c.b, c.B[row * 8 + g]) << (width * j);
      }
    w[l * 16 + 12] = w[l * 16 + 13] = nan * 0x01010101u;
    if (c.sparse)
      for (int n = 0; n < 8; ++n) {
        int pair = c.pairs[g + 8 * (t % 2)][8 * (t / 2) + n];
        w[l * 16 + 14] |= uint32_t(kPairs[pair][0] | kPairs[pair][1] << 2) << (4 * n);
      }
  }
  for (int row = 0; row < 16; ++row)
    for (int v = 0; v < c.nvec; ++v) {
      int lane = 4 * (row % 8) + 2 * static_cast<int>(c.thread_a) + row / 8, byte = c.byte_a + v;
      uint32_t& word = w[lane * 16 + 12];
      word = (word & ~(0xffu << (8 * byte))) | uint32_t{c.SA[row * c.nvec + v]} << (8 * byte);
    }
  for (int n = 0; n < 8; ++n)
    for (int v = 0; v < c.nvec; ++v) {
      int lane = 4 * n + static_cast<int>(c.thread_b), byte = c.byte_b + v;
      uint32_t& word = w[lane * 16 + 13];
      word = (word & ~(0xffu << (8 * byte))) | uint32_t{c.SB[n * c.nvec + v]} << (8 * byte);
    }
  return w;
}

// D[i][j] from the definition: NaN if a scale factor used is NaN, else the exact sum rounded once.
float reference(const Case& c, int i, int j) {
  const int block = c.k / c.nvec;
  __float128 sum = c.C[i * 8 + j];
  for (int k = 0; k < c.k; ++k) {
    uint8_t sa = c.SA[i * c.nvec + k / block], sb = c.SB[j * c.nvec + k / block];
    if (scale_nan(c.ue4m3, sa) || scale_nan(c.ue4m3, sb)) return NAN;
    sum += value(c.a, c.A[i * c.k + k]) * scale_value(c.ue4m3, sa) * value(c.b, c.B[k * 8 + j]) *
           scale_value(c.ue4m3, sb);
  }
  return static_cast<float>(sum);
}

// D of case `c` as the kernel computes it under `model` (4 floats a lane); empty when the launch
// fails.
std::vector<float> launch(const Case& c, TensorModel model = TensorModel::Sm90) {
  Harness h;
  h.load(kernel_ptx(kernel(c), "sm_120a"));
  uint64_t out = h.buffer(std::vector<float>(128, 0)), in = h.buffer(lane_words(c));
  LaunchConfig cfg;
  cfg.grid = {1}, cfg.block = {32}, cfg.tensor_model = model;
  auto r = h.module->launch("k", cfg, {arg(out), arg(in)});
  EXPECT_TRUE(r.ok) << r.error;
  return r.ok ? h.read<float>(out, 128) : std::vector<float>{};
}

void run(const Case& c) {
  auto d = launch(c);
  ASSERT_EQ(d.size(), 128u);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i) {
      int row = l / 4 + 8 * (i / 2), col = 2 * (l % 4) + i % 2;
      float want = reference(c, row, col);
      // NaN results are the canonical NaN (src/mma/arith.cpp)
      uint32_t bits = std::isnan(want) ? 0x7fffffffu : std::bit_cast<uint32_t>(want);
      EXPECT_EQ(std::bit_cast<uint32_t>(d[l * 4 + i]), bits)
          << instruction(c) << " D[" << row << "][" << col << "] = " << d[l * 4 + i] << ", want " << want;
    }
}

// Random elements, C and scale factors in [2^-lo, 2^hi] (ue8m0) or random finite ue4m3.
Case random_case(Case c, uint64_t seed, int lo = 6, int hi = 6) {
  uint64_t s = seed;
  c.A.resize(16 * c.k), c.B.resize(c.k * 8), c.C.resize(128);
  c.SA.resize(16 * c.nvec), c.SB.resize(8 * c.nvec);
  for (auto& x : c.A) x = random_code(c.a, s);
  for (auto& x : c.B) x = random_code(c.b, s);
  for (auto& x : c.C) x = static_cast<float>(static_cast<int>(splitmix64(s) % 64) - 32) / 4;
  for (auto* v : {&c.SA, &c.SB})
    for (auto& x : *v)
      x = c.ue4m3 ? static_cast<uint8_t>(random_code(kE4M3, s)) // bit 7 random: ignored
                  : static_cast<uint8_t>(127 - lo + static_cast<int>(splitmix64(s) % (lo + hi + 1)));
  if (c.sparse) { // zero every element of A that the metadata does not name
    c.pairs.assign(16, std::vector<int>(16));
    for (auto& row : c.pairs)
      for (int& p : row) p = static_cast<int>(splitmix64(s) % 6);
    for (int row = 0; row < 16; ++row) {
      std::vector<uint32_t> keep(c.k, 0);
      for (int col : held(c, row)) keep[col] = c.A[row * c.k + col];
      std::copy(keep.begin(), keep.end(), c.A.begin() + row * c.k);
    }
  }
  return c;
}

TEST(MmaBlockScale, Mxf8f6f4EveryTypePair) {
  const Fmt fmts[] = {kE4M3, kE5M2, kE3M2, kE2M3, kE2M1};
  uint64_t seed = 1;
  for (const Fmt& a : fmts)
    for (const Fmt& b : fmts) {
      Case c{".kind::mxf8f6f4", ".scale_vec::1X", a, b};
      c.byte_a = static_cast<unsigned>(seed % 4), c.thread_a = static_cast<unsigned>(seed / 4 % 2);
      c.byte_b = static_cast<unsigned>(seed / 2 % 4), c.thread_b = static_cast<unsigned>(seed / 3 % 4);
      if (seed % 5 == 0) c.vec = ""; // 1X is the default
      run(random_case(c, seed++));
    }
}

TEST(MmaBlockScale, Mxf4AndMxf4nvf4) {
  Case mxf4{".kind::mxf4", "", kE2M1, kE2M1};
  mxf4.k = 64, mxf4.nvec = 2, mxf4.byte_a = 2, mxf4.thread_a = 1, mxf4.byte_b = 0, mxf4.thread_b = 3;
  run(random_case(mxf4, 11)); // 2X is the default
  mxf4.vec = ".scale_vec::2X", mxf4.byte_a = 0, mxf4.byte_b = 2, mxf4.thread_b = 1;
  run(random_case(mxf4, 12));
  Case nv2 = mxf4;
  nv2.kind = ".kind::mxf4nvf4", nv2.thread_a = 0, nv2.thread_b = 2;
  run(random_case(nv2, 13));
  Case nv4{".kind::mxf4nvf4", ".scale_vec::4X", kE2M1, kE2M1, true};
  nv4.k = 64, nv4.nvec = 4, nv4.thread_a = 1, nv4.thread_b = 3;
  run(random_case(nv4, 14));
  nv4.register_selectors = true, nv4.thread_a = 0, nv4.thread_b = 1;
  run(random_case(nv4, 15));
}

// mma.sp::ordered_metadata with block scaling (§9.7.14.6.3): .m16n8k64 .kind::mxf8f6f4 and
// .m16n8k128 .kind::mxf4 / .kind::mxf4nvf4; a scale factor covers K / scale_vec of the dense K.
TEST(MmaBlockScale, Sparse) {
  Case f8{".kind::mxf8f6f4", ".scale_vec::1X", kE4M3, kE2M1};
  f8.k = 64, f8.sparse = true, f8.byte_a = 2, f8.thread_a = 1, f8.byte_b = 1, f8.thread_b = 3;
  run(random_case(f8, 61));
  f8.a = kE3M2, f8.b = kE5M2, f8.vec = "", f8.register_selectors = true;
  run(random_case(f8, 62));
  Case f4{".kind::mxf4", "", kE2M1, kE2M1};
  f4.k = 128, f4.nvec = 2, f4.sparse = true, f4.byte_a = 2, f4.thread_b = 2;
  run(random_case(f4, 63));
  f4.kind = ".kind::mxf4nvf4", f4.vec = ".scale_vec::2X", f4.byte_a = 0, f4.byte_b = 2;
  run(random_case(f4, 64));
  f4.vec = ".scale_vec::4X", f4.ue4m3 = true, f4.nvec = 4, f4.byte_b = 0, f4.thread_a = 1;
  run(random_case(f4, 65));
}

TEST(MmaBlockScale, RegisterSelectors) {
  Case c{".kind::mxf8f6f4", ".scale_vec::1X", kE4M3, kE2M1};
  c.register_selectors = true, c.byte_a = 3, c.thread_a = 1, c.byte_b = 1, c.thread_b = 2;
  run(random_case(c, 21));
}

TEST(MmaBlockScale, BracedScaleData) {
  Case c{".kind::mxf4nvf4", ".scale_vec::4X", kE2M1, kE2M1, true};
  c.k = 64, c.nvec = 4, c.thread_a = 1, c.thread_b = 2, c.braced_scale_data = true;
  run(random_case(c, 22));
}

// Scale factors far apart: 2^60 * 2^60 terms cancel exactly beside a 2^-60 * 2^-60 one (the sum
// must hold 2^120 and 2^-120 at once), and the largest ue8m0 scales overflow to infinity.
TEST(MmaBlockScale, WideExponentsSumExactly) {
  Case c{".kind::mxf4", ".scale_vec::2X", kE2M1, kE2M1};
  c.k = 64, c.nvec = 2;
  c.A.assign(16 * 64, 0), c.B.assign(64 * 8, 0), c.C.assign(128, 0.0f);
  c.SA.assign(32, 127), c.SB.assign(16, 127);
  const uint32_t one = 0x2, minus_one = 0xa, six = 0x7;
  c.A[0 * 64 + 0] = one, c.A[0 * 64 + 1] = minus_one, c.A[0 * 64 + 32] = one; // row 0
  c.B[0 * 8 + 0] = one, c.B[1 * 8 + 0] = one, c.B[32 * 8 + 0] = one;           // column 0
  c.SA[0] = 127 + 60, c.SA[1] = 127 - 60, c.SB[0] = 127 + 60, c.SB[1] = 127 - 60;
  c.A[1 * 64 + 3] = six, c.B[3 * 8 + 1] = six;  // row 1, column 1: 36 * 2^127 * 2^127
  c.SA[2] = 254, c.SB[2] = 254;
  c.C[2 * 8 + 2] = 1.5f;
  run(c);
  EXPECT_EQ(reference(c, 0, 0), std::ldexp(1.0f, -120));
  EXPECT_TRUE(std::isinf(reference(c, 1, 1)));
}

// A NaN scale factor (ue8m0 0xff, ue4m3 0x7f) makes its row's (column's) results NaN; e5m2
// infinities scale to infinities, and opposite ones meet as NaN.
TEST(MmaBlockScale, NanScalesAndInfinities) {
  Case c = random_case({".kind::mxf8f6f4", "", kE5M2, kE4M3}, 31);
  c.SA[5] = 0xff; // row 5
  c.SB[6] = 0xff; // column 6
  run(c);
  Case nv = random_case({".kind::mxf4nvf4", ".scale_vec::4X", kE2M1, kE2M1, true, 64, 4}, 32);
  nv.SA[3 * 4 + 2] = 0x7f;  // row 3, k-block 2
  run(nv);
  Case inf = random_case({".kind::mxf8f6f4", "", kE5M2, kE5M2}, 33);
  for (int k = 0; k < 32; ++k) inf.A[2 * 32 + k] = inf.A[4 * 32 + k] = 0x3c; // 1.0
  inf.A[2 * 32 + 7] = 0x7c;                                                   // row 2: +Inf
  inf.A[4 * 32 + 7] = 0x7c, inf.A[4 * 32 + 9] = 0xfc;                        // row 4: +Inf, -Inf
  for (int n = 0; n < 8; ++n) inf.B[7 * 8 + n] = inf.B[9 * 8 + n] = 0x3e;     // 1.5
  auto d = launch(inf);
  ASSERT_EQ(d.size(), 128u);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i) {
      int row = l / 4 + 8 * (i / 2);
      if (row == 2) {
        EXPECT_EQ(d[l * 4 + i], INFINITY) << l;
      } else if (row == 4) {
        EXPECT_EQ(std::bit_cast<uint32_t>(d[l * 4 + i]), 0x7fffffffu) << l;
      }
    }
}

// The exact model runs the same recipe.
TEST(MmaBlockScale, ExactModelAgrees) {
  Case c = random_case({".kind::mxf4nvf4", ".scale_vec::4X", kE2M1, kE2M1, true, 64, 4}, 41);
  auto d = launch(c, TensorModel::Exact);
  ASSERT_EQ(d.size(), 128u);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(std::bit_cast<uint32_t>(d[l * 4 + i]),
                std::bit_cast<uint32_t>(reference(c, l / 4 + 8 * (i / 2), 2 * (l % 4) + i % 2)));
}

// Combinations outside §9.7.14.3 Tables 35-36 (as ptxas 13.0 rejects them) do not load.
TEST(MmaBlockScale, InvalidFormsDoNotLoad) {
  const std::string abc = " {%f5, %f6, %f7, %f8}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%f1, %f2, %f3, %f4}, ";
  const std::string mxf4 = "mma.sync.aligned.m16n8k64.row.col.kind::mxf4";
  const std::string f8 = "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale";
  const std::string cases[] = {
      mxf4 + "nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0" + abc + "%r8, {0, 0}, %r9, {0, 0};",
      mxf4 + "nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue4m3" + abc + "%r8, {0, 0}, %r9, {0, 0};",
      mxf4 + "nvf4.block_scale.f32.e2m1.e2m1.f32.ue8m0" + abc + "%r8, {0, 0}, %r9, {0, 0};",
      mxf4 + ".block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0" + abc + "%r8, {0, 0}, %r9, {0, 0};",
      f8 + ".scale_vec::2X.f32.e4m3.e4m3.f32.ue8m0" + abc + "%r8, {0, 0}, %r9, {0, 0};",
      f8 + ".f32.e4m3.e4m3.f32.ue8m0" + abc + "%r8, {0, 2}, %r9, {0, 0};",  // thread-id-a 2
      f8 + ".f32.e4m3.e4m3.f32.ue8m0" + abc + "%r8, {0, 0}, %r9, {4, 0};",  // byte-id-b 4
      f8 + ".f32.e4m3.e4m3.f32.ue8m0" + abc + "%r8, {0, 0}, %r9, {0, 4};",  // thread-id-b 4
      mxf4 + ".block_scale.f32.e2m1.e2m1.f32.ue8m0" + abc + "%r8, {1, 0}, %r9, {0, 0};",  // 2X: 0, 2
      mxf4 + "nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3" + abc + "%r8, {0, 0}, %r9, {2, 0};",
      "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_"
      "vec::4X.f32.e2m1.e2m1.f32.ue8m0 {%f5, %f6, %f7, %f8}, {%r2, %r3, %r4, %r5}, {%r6, %r7, %r10, "
      "%r11}, {%f1, %f2, %f3, %f4}, %r12, 0, %r8, {0, 0}, %r9, {0, 0};",
      "mma.sp.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0 "
      "{%f5, %f6, %f7, %f8}, {%r2, %r3, %r4, %r5}, {%r6, %r7, %r10, %r11}, {%f1, %f2, %f3, %f4}, "
      "%r12, 0, %r8, {0, 0}, %r9, {0, 0};",
  };
  for (const std::string& instr : cases) {
    Device dev;
    std::string diags;
    auto m = dev.load_module(kernel_ptx(instr, "sm_120a"), "t.ptx", &diags);
    EXPECT_FALSE(m) << instr;
    EXPECT_NE(diags.find("error"), std::string::npos) << diags;
  }
}

// Selectors in registers outside Table 36 are undefined; ptxvm stops with a fault.
TEST(MmaBlockScale, RegisterSelectorOutOfRangeFaults) {
  Case c = random_case({".kind::mxf4", "", kE2M1, kE2M1, false, 64, 2}, 51);
  c.register_selectors = true, c.byte_a = 1;
  Harness h;
  h.load(kernel_ptx(kernel(c), "sm_120a"));
  auto r = h.launch("k", {1}, {32}, {arg(h.buffer(std::vector<float>(128, 0))), arg(h.buffer(lane_words(c)))});
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(r.guest_fault);
  EXPECT_NE(r.error.find("Table 36"), std::string::npos) << r.error;
}

} // namespace
} // namespace ptxvm::test
