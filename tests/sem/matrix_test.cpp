// Warp-level matrix instructions (PTX §9.7.14, 001_23fdd5978b24a3ed.txt): mma fragment layouts
// and values for every shape and type against the §9.7.14.5.1-13 formulas written out here
// again; mma.sp with its metadata for every shape, type and sparsity selector; integer and .b1
// products exactly; ldmatrix/stmatrix/movmatrix bit movement; wmma load ▶ mma ▶ store against
// the matrix product; the .aligned and alignment faults. Float inputs are small integers, so
// every sum is exact in any arithmetic model. (Bit-exact floats and the recorded wmma and
// ldmatrix layouts: tests/sem/mma_hw_test.cpp.)
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <random>

#include "harness.h"

namespace ptxvm::test {
namespace {

// ---- fragment layouts, as §9.7.14.5 writes them ----

struct RC {
  int row, col;
};
// (lane, i) -> (row, col) of element i of the lane's fragment.
using Where = std::function<RC(int lane, int i)>;
int gid(int l) {
  return l >> 2;
}
int tig(int l) {
  return l % 4;
}

// A of the 16-row shapes: §9.7.14.5.6-13 for `e` elements per 32-bit register and `regs`
// registers: rows g / g+8 alternate by register, columns advance by 4e every two registers.
Where a16(int e) {
  return [e](int l, int i) {
    int r = i / e;
    return RC{r % 2 ? gid(l) + 8 : gid(l), tig(l) * e + i % e + (r >= 2 ? 4 * e : 0) +
                                               (r >= 4 ? 4 * e : 0) + (r >= 6 ? 4 * e : 0)};
  };
}
// A of the 8-row shapes (§9.7.14.5.2-5): one register, row groupID.
Where a8(int e) {
  return [e](int l, int i) { return RC{gid(l), tig(l) * e + i}; };
}
// B (§9.7.14.5.2-13): row threadID_in_group * e + i % e (+ 4e per further register), col groupID.
Where bfrag(int e) {
  return [e](int l, int i) { return RC{tig(l) * e + i % e + 4 * e * (i / e), gid(l)}; };
}
// C/D: row groupID (+8 for c2, c3), col threadID_in_group * 2 + (i & 1).
Where cfrag() {
  return [](int l, int i) { return RC{i < 2 ? gid(l) : gid(l) + 8, tig(l) * 2 + (i & 1)}; };
}

// ---- element encodings of small integers ----

enum class T { F16, BF16, TF32, F32, F64, E4M3, E5M2, E3M2, E2M3, E2M1, S8, U8, S4, U4, B1, S32 };

int width(T t) {
  switch (t) {
  case T::F16:
  case T::BF16:
    return 16;
  case T::TF32:
  case T::F32:
  case T::S32:
    return 32;
  case T::F64:
    return 64;
  case T::S4:
  case T::U4:
    return 4;
  case T::B1:
    return 1;
  default:
    return 8;
  }
}

// Bits of the integer v (|v| small) in a float format with `man` mantissa bits, `bias`, sign at
// bit `sign`.
uint64_t float_bits(int v, int man, int bias, int sign) {
  if (v == 0) return 0;
  uint64_t a = static_cast<uint64_t>(std::abs(v));
  int e = 63 - std::countl_zero(a);
  uint64_t m = (a << man >> e) & ((uint64_t{1} << man) - 1);
  return (v < 0 ? uint64_t{1} << sign : 0) | static_cast<uint64_t>(e + bias) << man | m;
}
uint64_t encode(T t, int v) {
  switch (t) {
  case T::F16:
    return float_bits(v, 10, 15, 15);
  case T::BF16:
    return float_bits(v, 7, 127, 15);
  case T::TF32:
  case T::F32:
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  case T::F64:
    return std::bit_cast<uint64_t>(static_cast<double>(v));
  case T::E4M3:
    return float_bits(v, 3, 7, 7);
  case T::E5M2:
    return float_bits(v, 2, 15, 7);
  case T::E3M2:
    return float_bits(v, 2, 3, 5);
  case T::E2M3:
    return float_bits(v, 3, 1, 5);
  case T::E2M1:
    return float_bits(v, 1, 1, 3) << 2; // bits 5..2 of the 8-bit container
  case T::S4:
  case T::U4:
    return static_cast<uint64_t>(v) & 0xf;
  case T::B1:
    return static_cast<uint64_t>(v) & 1;
  case T::S8:
  case T::U8:
    return static_cast<uint64_t>(v) & 0xff;
  default:
    return static_cast<uint32_t>(v);
  }
}
// Value range of random inputs.
std::pair<int, int> range(T t) {
  switch (t) {
  case T::S8:
    return {-128, 127};
  case T::U8:
    return {0, 255};
  case T::S4:
    return {-8, 7};
  case T::U4:
    return {0, 15};
  case T::B1:
    return {0, 1};
  case T::S32:
    return {-1000, 1000};
  default:
    return {-2, 2};
  }
}

// ---- one mma over a warp ----

struct Operand {
  T type;
  Where where;
  int elems; // per lane
  int sets = 1;
  std::function<int(int lane)> set = [](int) { return 0; };
};

// Per-lane register words of a fragment whose matrix (per set) is `m` (rows x cols).
std::vector<uint64_t> pack(const Operand& o, const std::vector<std::vector<int>>& m, int cols) {
  int w = width(o.type), per = w == 64 ? 1 : 32 / w, regs = o.elems / per;
  std::vector<uint64_t> out(32 * regs, 0);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < o.elems; ++i) {
      RC rc = o.where(l, i);
      uint64_t bits = encode(o.type, m[o.set(l)][rc.row * cols + rc.col]);
      out[l * regs + i / per] |= (w == 64 ? bits : bits & ((uint64_t{1} << w) - 1))
                                 << (i % per * w);
    }
  return out;
}

struct MmaCase {
  std::string instr;
  int m, n, k;
  Operand a, b, c, d;
  bool b1_xor = true;
  bool satfinite = false;
  int selector = -1; // mma.sp: the sparsity selector (a.where is then over the compressed M x K/2)
};

// A kernel of one warp: each lane loads its A, B, C registers (8 bytes each) from `in`, runs
// `instr`, and stores its D registers to `out`.
// mma.sp (selector >= 0): a fourth word per lane, the metadata, in %r50.
std::string mma_kernel(const std::string& instr, int na, int nb, int nc, int nd, bool f64,
                       bool f64_cd, int selector = -1) {
  int words = na + nb + nc + (selector >= 0 ? 1 : 0);
  std::string s = "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, " + std::to_string(8 * words) +
                  ";\nadd.s64 %rd2, %rd_in, %rd1;\nmul.wide.u32 %rd3, %r1, " +
                  std::to_string(8 * nd) + ";\nadd.s64 %rd4, %rd_out, %rd3;\n";
  int slot = 0;
  auto vec = [&](int first, int n, bool wide, bool load) {
    std::string v = "{";
    for (int i = 0; i < n; ++i) {
      std::string r = (wide ? "%fd" : "%r") + std::to_string(first + i);
      v += (i ? ", " : "") + r;
      if (load)
        s += std::string(wide ? "ld.global.f64 " : "ld.global.u32 ") + r + ", [%rd2+" +
             std::to_string(8 * slot++) + "];\n";
    }
    return v + "}";
  };
  // %fd0-7 A, 8-11 B, 12-15 C, 20-23 D; %r10-13 A, 20-21 B, 30-37 C, 40-47 D.
  std::string va = vec(f64 ? 0 : 10, na, f64, true), vb = vec(f64 ? 8 : 20, nb, f64, true),
              vc = vec(f64_cd ? 12 : 30, nc, f64_cd, true);
  int d0 = f64_cd ? 20 : 40;
  std::string vd = vec(d0, nd, f64_cd, false);
  std::string meta;
  if (selector >= 0) {
    s += "ld.global.u32 %r50, [%rd2+" + std::to_string(8 * slot) + "];\n";
    meta = ", %r50, " + std::to_string(selector);
  }
  s += instr + " " + vd + ", " + va + ", " + vb + ", " + vc + meta + ";\n";
  for (int i = 0; i < nd; ++i)
    s += std::string(f64_cd ? "st.global.f64 [%rd4+" : "st.global.u32 [%rd4+") +
         std::to_string(8 * i) + "], " + (f64_cd ? "%fd" : "%r") + std::to_string(d0 + i) + ";\n";
  return s;
}

// mma.sp (§9.7.14.6.1): the dense A of compressed `ac` (M x K/2) under random valid metadata, and
// the 32 lanes' metadata words. Chunks of a row: 4 elements (2:4) for 16- and 8-bit types, 2 for
// .tf32 (1:2, nibbles 0b0100 and 0b1110), 8 for .s4/.u4 (4:8 by pairs); the nibble's low and high
// two bits are the indices. Quad q describes rows q and q+8 from T = chunks/4 of its lanes (the
// selector picks lane q*4+sel for T = 1, lanes q*4+2sel+t for T = 2, all four for T = 4); as an
// H200 reads them (the figures of §9.7.14.6.2): 16/32-bit types, lane t chunks 4t..4t+3 of row q
// in nibbles 0-3 and of row q+8 in nibbles 4-7; 8/4-bit types, lane t chunks 8(t/2).. of row
// q + 8(t%2) in nibbles 0-7. Lanes not selected hold noise.
std::vector<int> sparse_a(const MmaCase& mc, const std::vector<int>& ac, std::mt19937& rng,
                          std::vector<uint64_t>& meta) {
  T t = mc.a.type;
  int chunk = t == T::TF32               ? 2
              : t == T::S4 || t == T::U4 ? 8
                                         : 4,
      chunks = mc.k / chunk, lanes = chunks / 4;
  bool narrow = width(t) <= 8;
  const uint32_t pairs[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE}, tf32[2] = {0x4, 0xE};
  meta.assign(32, 0);
  for (auto& m : meta) m = rng();
  std::vector<int> a(static_cast<size_t>(mc.m * mc.k), 0);
  for (int row = 0; row < mc.m; ++row)
    for (int c = 0; c < chunks; ++c) {
      uint32_t nib = t == T::TF32 ? tf32[rng() % 2] : pairs[rng() % 6];
      int i0 = nib & 3, i1 = nib >> 2 & 3, kc = mc.k / 2;
      if (t == T::TF32) {
        a[row * mc.k + c * 2 + i0 / 2] = ac[row * kc + c];
      } else if (chunk == 8) {
        for (int e = 0; e < 4; ++e)
          a[row * mc.k + c * 8 + 2 * (e < 2 ? i0 : i1) + e % 2] = ac[row * kc + c * 4 + e];
      } else {
        a[row * mc.k + c * 4 + i0] = ac[row * kc + c * 2];
        a[row * mc.k + c * 4 + i1] = ac[row * kc + c * 2 + 1];
      }
      int q = row % 8, h = row / 8;
      int lane = q * 4 +
                 (lanes == 1   ? mc.selector
                  : lanes == 2 ? 2 * mc.selector
                               : 0) +
                 (narrow ? (c / 8) * 2 + h : c / 4);
      int at = narrow ? c % 8 : h * 4 + c % 4;
      meta[lane] = (meta[lane] & ~(uint64_t{0xf} << (4 * at))) | uint64_t{nib} << (4 * at);
    }
  return a;
}

int regs_of(const Operand& o) {
  return o.elems / (width(o.type) == 64 ? 1 : 32 / width(o.type));
}

void run_mma(const MmaCase& mc, uint32_t seed) {
  SCOPED_TRACE(mc.instr);
  std::mt19937 rng(seed);
  auto fill = [&](T t, int n) {
    std::uniform_int_distribution<int> dist(range(t).first, range(t).second);
    std::vector<int> v(static_cast<size_t>(n));
    for (int& x : v) x = dist(rng);
    return v;
  };
  int sets = mc.a.sets;
  std::vector<std::vector<int>> A, B, C;
  for (int s = 0; s < sets; ++s) {
    A.push_back(fill(mc.a.type, mc.m * mc.k));
    B.push_back(fill(mc.b.type, mc.k * mc.n));
    C.push_back(
        fill(mc.c.type == T::S32 || mc.c.type == T::F32 || mc.c.type == T::F64 ? T::S32 : mc.c.type,
             mc.m * mc.n));
  }
  std::vector<uint64_t> pa, meta;
  if (mc.selector >= 0) {
    std::vector<std::vector<int>> Ac = {fill(mc.a.type, mc.m * mc.k / 2)};
    A = {sparse_a(mc, Ac[0], rng, meta)};
    pa = pack(mc.a, Ac, mc.k / 2);
  } else {
    pa = pack(mc.a, A, mc.k);
  }
  std::vector<uint64_t> pb = pack(mc.b, B, mc.n), pc = pack(mc.c, C, mc.n);
  int na = regs_of(mc.a), nb = regs_of(mc.b), nc = regs_of(mc.c), nd = regs_of(mc.d);
  std::vector<uint64_t> in;
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < na; ++i) in.push_back(pa[l * na + i]);
    for (int i = 0; i < nb; ++i) in.push_back(pb[l * nb + i]);
    for (int i = 0; i < nc; ++i) in.push_back(pc[l * nc + i]);
    if (mc.selector >= 0) in.push_back(meta[l]);
  }
  // D = A·B + C exactly.
  std::vector<std::vector<int>> D(static_cast<size_t>(sets),
                                  std::vector<int>(static_cast<size_t>(mc.m * mc.n)));
  for (int s = 0; s < sets; ++s)
    for (int i = 0; i < mc.m; ++i)
      for (int j = 0; j < mc.n; ++j) {
        int64_t acc = C[s][i * mc.n + j];
        for (int kk = 0; kk < mc.k; ++kk) {
          int64_t x = A[s][i * mc.k + kk], y = B[s][kk * mc.n + j];
          acc += mc.a.type == T::B1 ? (mc.b1_xor ? (x ^ y) : (x & y)) : x * y;
        }
        if (mc.satfinite) acc = std::clamp<int64_t>(acc, INT32_MIN, INT32_MAX);
        D[s][i * mc.n + j] = static_cast<int32_t>(static_cast<uint32_t>(acc));
      }
  std::vector<uint64_t> expect = pack(mc.d, D, mc.n);
  Harness h;
  bool f64 = mc.a.type == T::F64;
  h.load(kernel_ptx(mma_kernel(mc.instr, na, nb, nc, nd, f64, f64, mc.selector), "sm_120a"));
  uint64_t out = h.buffer(std::vector<uint64_t>(32 * nd, 0)), din = h.buffer(in);
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  ASSERT_TRUE(r.ok) << r.error;
  auto got = h.read<uint64_t>(out, 32 * static_cast<size_t>(nd));
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < nd; ++i)
      EXPECT_EQ(got[l * nd + i], expect[l * nd + i]) << "lane " << l << " d" << i;
}

Operand op(T t, Where w, int elems) {
  return {t, std::move(w), elems};
}

// ---- mma, every shape and type (§9.7.14.5.14) ----

TEST(Mma, HalfAndBf16) {
  for (auto [ab, name] : {std::pair{T::F16, ".f16"}, std::pair{T::BF16, ".bf16"}}) {
    std::string t = name;
    run_mma({"mma.sync.aligned.m16n8k16.row.col.f32" + t + t + ".f32", 16, 8, 16, op(ab, a16(2), 8),
             op(ab, bfrag(2), 4), op(T::F32, cfrag(), 4), op(T::F32, cfrag(), 4)},
            1);
    run_mma({"mma.sync.aligned.m16n8k8.row.col.f32" + t + t + ".f32", 16, 8, 8, op(ab, a16(2), 4),
             op(ab, bfrag(2), 2), op(T::F32, cfrag(), 4), op(T::F32, cfrag(), 4)},
            2);
  }
  for (std::string dc : {".f16.f16.f16.f16", ".f32.f16.f16.f16", ".f32.f16.f16.f32"}) {
    T d = dc.substr(0, 4) == ".f16" ? T::F16 : T::F32,
      c = dc.substr(12) == ".f16" ? T::F16 : T::F32;
    run_mma({"mma.sync.aligned.m16n8k16.row.col" + dc, 16, 8, 16, op(T::F16, a16(2), 8),
             op(T::F16, bfrag(2), 4), op(c, cfrag(), 4), op(d, cfrag(), 4)},
            3);
    run_mma({"mma.sync.aligned.m16n8k8.row.col" + dc, 16, 8, 8, op(T::F16, a16(2), 4),
             op(T::F16, bfrag(2), 2), op(c, cfrag(), 4), op(d, cfrag(), 4)},
            4);
  }
}

TEST(Mma, Tf32AndF64) {
  run_mma({"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, 4, op(T::TF32, a16(1), 2),
           op(T::TF32, bfrag(1), 1), op(T::F32, cfrag(), 4), op(T::F32, cfrag(), 4)},
          5);
  run_mma({"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, op(T::TF32, a16(1), 4),
           op(T::TF32, bfrag(1), 2), op(T::F32, cfrag(), 4), op(T::F32, cfrag(), 4)},
          6);
  // §9.7.14.5.2: A row %laneid >> 2, col %laneid % 4; B transposed; C row groupID.
  Where a884 = [](int l, int) { return RC{l >> 2, l % 4}; };
  Where b884 = [](int l, int) { return RC{l % 4, l >> 2}; };
  Where c88 = [](int l, int i) { return RC{gid(l), tig(l) * 2 + (i & 1)}; };
  for (std::string rnd : {"", ".rn", ".rz", ".rm", ".rp"}) {
    run_mma({"mma.sync.aligned.m8n8k4.row.col" + rnd + ".f64.f64.f64.f64", 8, 8, 4,
             op(T::F64, a884, 1), op(T::F64, b884, 1), op(T::F64, c88, 2), op(T::F64, c88, 2)},
            7);
  }
  // §9.7.14.5.6-8 .f64: A row groupID (+8 for odd i), col threadID_in_group + 4 * (i / 2) (the
  // m16n8k16 text "(i * 2) - 2 + (threadID_in_group" for odd i read with its parenthesis closed).
  Where a_f64 = [](int l, int i) {
    return RC{i % 2 ? gid(l) + 8 : gid(l), i % 2 ? i * 2 - 2 + tig(l) : i * 2 + tig(l)};
  };
  Where b_f64 = [](int l, int i) { return RC{tig(l) + i * 4, gid(l)}; };
  for (int k : {4, 8, 16})
    run_mma({"mma.sync.aligned.m16n8k" + std::to_string(k) + ".row.col.f64.f64.f64.f64", 16, 8, k,
             op(T::F64, a_f64, k / 2), op(T::F64, b_f64, k / 4), op(T::F64, cfrag(), 4),
             op(T::F64, cfrag(), 4)},
            8);
}

// m8n8k4 .f16 (§9.7.14.5.1): four products, one per quad pair, every .row/.col and C/D type.
TEST(Mma, M8n8k4QuadPairs) {
  auto qp = [](int l) { return (l >> 2) & 3; };
  Where a_row = [](int l, int i) { return RC{l < 16 ? l % 4 : l % 4 + 4, i}; };
  Where a_col = [](int l, int i) { return RC{l < 16 ? i % 4 : i % 4 + 4, l % 4}; };
  Where b_row = [](int l, int i) { return RC{l % 4, l < 16 ? i : i + 4}; };
  Where b_col = [](int l, int i) { return RC{i, l < 16 ? l % 4 : l % 4 + 4}; };
  Where c_f16 = [](int l, int i) { return RC{l < 16 ? l % 4 : l % 4 + 4, i}; };
  Where c_f32 = [](int l, int i) {
    int x = (l & 1) + (i & 2);
    return RC{l < 16 ? x : x + 4, (i & 4) + (l & 2) + (i & 1)};
  };
  for (std::string al : {".row", ".col"})
    for (std::string bl : {".row", ".col"})
      for (std::string dc :
           {".f16.f16.f16.f16", ".f32.f16.f16.f16", ".f16.f16.f16.f32", ".f32.f16.f16.f32"}) {
        T d = dc.substr(0, 4) == ".f16" ? T::F16 : T::F32,
          c = dc.substr(12) == ".f16" ? T::F16 : T::F32;
        auto quad = [&](T t, Where w, int elems) { return Operand{t, std::move(w), elems, 4, qp}; };
        run_mma({"mma.sync.aligned.m8n8k4" + al + bl + dc, 8, 8, 4,
                 quad(T::F16, al == ".row" ? a_row : a_col, 4),
                 quad(T::F16, bl == ".row" ? b_row : b_col, 4),
                 quad(c, c == T::F16 ? c_f16 : c_f32, 8), quad(d, d == T::F16 ? c_f16 : c_f32, 8)},
                9);
      }
}

// .e4m3/.e5m2 (sm_89+) and .kind::f8f6f4 (sm_120a): A and B in 8-bit containers.
TEST(Mma, Fp8Fp6Fp4) {
  const std::pair<T, const char*> f8[] = {{T::E4M3, ".e4m3"}, {T::E5M2, ".e5m2"}};
  for (auto [at, an] : f8)
    for (auto [bt, bn] : f8) {
      for (std::string dc : {".f32", ".f16"}) {
        T d = dc == ".f16" ? T::F16 : T::F32;
        run_mma({"mma.sync.aligned.m16n8k32.row.col" + dc + an + bn + dc, 16, 8, 32,
                 op(at, a16(4), 16), op(bt, bfrag(4), 8), op(d, cfrag(), 4), op(d, cfrag(), 4)},
                10);
        run_mma({"mma.sync.aligned.m16n8k16.row.col" + dc + an + bn + dc, 16, 8, 16,
                 op(at, a16(4), 8), op(bt, bfrag(4), 4), op(d, cfrag(), 4), op(d, cfrag(), 4)},
                11);
      }
    }
  const std::pair<T, const char*> f8f6f4[] = {{T::E4M3, ".e4m3"},
                                              {T::E5M2, ".e5m2"},
                                              {T::E3M2, ".e3m2"},
                                              {T::E2M3, ".e2m3"},
                                              {T::E2M1, ".e2m1"}};
  for (auto [at, an] : f8f6f4)
    for (auto [bt, bn] : f8f6f4)
      run_mma({std::string("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32") + an + bn + ".f32",
               16, 8, 32, op(at, a16(4), 16), op(bt, bfrag(4), 8), op(T::F32, cfrag(), 4),
               op(T::F32, cfrag(), 4)},
              12);
}

// Integers: the full input ranges, wrapping or .satfinite (§9.7.14.5.14).
TEST(Mma, Integers) {
  const std::pair<T, const char*> i8[] = {{T::S8, ".s8"}, {T::U8, ".u8"}},
                                  i4[] = {{T::S4, ".s4"}, {T::U4, ".u4"}};
  for (std::string sat : {"", ".satfinite"}) {
    for (auto [at, an] : i8)
      for (auto [bt, bn] : i8) {
        std::string ty = std::string(".s32") + an + bn + ".s32";
        auto s32 = [](Where w, int e) { return op(T::S32, std::move(w), e); };
        Where c88 = [](int l, int i) { return RC{gid(l), tig(l) * 2 + i}; };
        run_mma({"mma.sync.aligned.m8n8k16.row.col" + sat + ty, 8, 8, 16, op(at, a8(4), 4),
                 op(bt, bfrag(4), 4), s32(c88, 2), s32(c88, 2), true, !sat.empty()},
                13);
        run_mma({"mma.sync.aligned.m16n8k16.row.col" + sat + ty, 16, 8, 16, op(at, a16(4), 8),
                 op(bt, bfrag(4), 4), s32(cfrag(), 4), s32(cfrag(), 4), true, !sat.empty()},
                14);
        run_mma({"mma.sync.aligned.m16n8k32.row.col" + sat + ty, 16, 8, 32, op(at, a16(4), 16),
                 op(bt, bfrag(4), 8), s32(cfrag(), 4), s32(cfrag(), 4), true, !sat.empty()},
                15);
      }
    for (auto [at, an] : i4)
      for (auto [bt, bn] : i4) {
        std::string ty = std::string(".s32") + an + bn + ".s32";
        auto s32 = [](Where w, int e) { return op(T::S32, std::move(w), e); };
        Where c88 = [](int l, int i) { return RC{gid(l), tig(l) * 2 + i}; };
        run_mma({"mma.sync.aligned.m8n8k32.row.col" + sat + ty, 8, 8, 32, op(at, a8(8), 8),
                 op(bt, bfrag(8), 8), s32(c88, 2), s32(c88, 2), true, !sat.empty()},
                16);
        run_mma({"mma.sync.aligned.m16n8k32.row.col" + sat + ty, 16, 8, 32, op(at, a16(8), 16),
                 op(bt, bfrag(8), 8), s32(cfrag(), 4), s32(cfrag(), 4), true, !sat.empty()},
                17);
        run_mma({"mma.sync.aligned.m16n8k64.row.col" + sat + ty, 16, 8, 64, op(at, a16(8), 32),
                 op(bt, bfrag(8), 16), s32(cfrag(), 4), s32(cfrag(), 4), true, !sat.empty()},
                18);
      }
  }
}

// .satfinite clamps where the wrapped sum would overflow: 16 products of 127 * 127 on a C near
// INT32_MAX.
TEST(Mma, SatfiniteClamps) {
  for (std::string sat : {"", ".satfinite"}) {
    Harness h;
    std::string body =
        "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 16;\nadd.s64 %rd2, %rd_out, %rd1;\n"
        "mov.b32 %r2, 0x7f7f7f7f;\nmov.b32 %r3, 0x7ffffff0;\n"
        "mma.sync.aligned.m16n8k16.row.col" +
        sat +
        ".s32.s8.s8.s32 {%r10, %r11, %r12, %r13}, {%r2, %r2}, "
        "{%r2}, {%r3, %r3, %r3, %r3};\n"
        "st.global.v4.u32 [%rd2], {%r10, %r11, %r12, %r13};\n";
    h.load(kernel_ptx(body));
    uint64_t out = h.buffer(std::vector<uint32_t>(128, 0));
    auto r = h.launch("k", {1}, {32}, {arg(out), arg(uint64_t{0})});
    ASSERT_TRUE(r.ok) << r.error;
    uint32_t want =
        sat.empty() ? static_cast<uint32_t>(0x7ffffff0u + 16u * 127u * 127u) : 0x7fffffffu;
    for (uint32_t v : h.read<uint32_t>(out, 128)) EXPECT_EQ(v, want) << sat;
  }
}

TEST(Mma, SingleBit) {
  for (std::string opn : {".xor", ".and"}) {
    bool x = opn == ".xor";
    auto s32 = [](Where w, int e) { return op(T::S32, std::move(w), e); };
    Where c88 = [](int l, int i) { return RC{gid(l), tig(l) * 2 + i}; };
    std::string ty = ".s32.b1.b1.s32" + opn + ".popc";
    run_mma({"mma.sync.aligned.m8n8k128.row.col" + ty, 8, 8, 128, op(T::B1, a8(32), 32),
             op(T::B1, bfrag(32), 32), s32(c88, 2), s32(c88, 2), x},
            19);
    run_mma({"mma.sync.aligned.m16n8k128.row.col" + ty, 16, 8, 128, op(T::B1, a16(32), 64),
             op(T::B1, bfrag(32), 32), s32(cfrag(), 4), s32(cfrag(), 4), x},
            20);
    run_mma({"mma.sync.aligned.m16n8k256.row.col" + ty, 16, 8, 256, op(T::B1, a16(32), 128),
             op(T::B1, bfrag(32), 64), s32(cfrag(), 4), s32(cfrag(), 4), x},
            21);
  }
}

// The result is the same in both arithmetic models for exact sums; the launch option reaches the
// warp (a run in each).
TEST(Mma, ExactModelLaunch) {
  Harness h;
  h.load(kernel_ptx(
      "mov.b32 %r2, 0x3c003c00;\nmov.f32 %f1, 0f3F800000;\n"
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r2, %r2}, {%r2}, "
      "{%f1, %f1, %f1, %f1};\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 4;\n"
      "add.s64 %rd2, %rd_out, %rd1;\nst.global.f32 [%rd2], %f2;\n"));
  for (TensorModel model : {TensorModel::Exact, TensorModel::Sm90}) {
    uint64_t out = h.buffer(std::vector<float>(32, 0));
    LaunchConfig c;
    c.block = {32};
    c.threads = 1;
    c.tensor_model = model;
    auto r = h.module->launch("k", c, {arg(out), arg(uint64_t{0})});
    ASSERT_TRUE(r.ok) << r.error;
    for (float v : h.read<float>(out, 32)) EXPECT_EQ(v, 9.0f); // 1 + 8 * 1 * 1
  }
}

// mma.sp / mma.sp::ordered_metadata (§9.7.14.6.3): every shape and type, every sparsity selector.
// The compressed A fragment is the dense A fragment of K/2 (§9.7.14.6.2.1-8: rows groupID and
// groupID + 8, the chunk of threadID_in_group).
TEST(Mma, Sparse) {
  struct Form {
    std::string shape, types;
    int m, k, e; // e: elements per register
    T a, cd;
    int selectors;
  };
  const Form forms[] = {
      {"m16n8k16", ".f32.f16.f16.f32", 16, 16, 2, T::F16, T::F32, 4},
      {"m16n8k32", ".f32.f16.f16.f32", 16, 32, 2, T::F16, T::F32, 2},
      {"m16n8k16", ".f16.f16.f16.f16", 16, 16, 2, T::F16, T::F16, 4},
      {"m16n8k32", ".f32.bf16.bf16.f32", 16, 32, 2, T::BF16, T::F32, 2},
      {"m16n8k8", ".f32.tf32.tf32.f32", 16, 8, 1, T::TF32, T::F32, 4},
      {"m16n8k16", ".f32.tf32.tf32.f32", 16, 16, 1, T::TF32, T::F32, 2},
      {"m16n8k32", ".s32.s8.s8.s32", 16, 32, 4, T::S8, T::S32, 2},
      {"m16n8k64", ".s32.u8.s8.s32", 16, 64, 4, T::U8, T::S32, 1},
      {"m16n8k64", ".s32.s4.s4.s32", 16, 64, 8, T::S4, T::S32, 2},
      {"m16n8k128", ".s32.u4.u4.s32", 16, 128, 8, T::U4, T::S32, 1},
      {"m16n8k64", ".f32.e4m3.e5m2.f32", 16, 64, 4, T::E4M3, T::F32, 1},
  };
  for (const Form& f : forms)
    for (std::string mn : {"mma.sp", "mma.sp::ordered_metadata"})
      for (int sel = 0; sel < f.selectors; ++sel) {
        T b = f.types == ".s32.u8.s8.s32" ? T::S8 : f.types == ".f32.e4m3.e5m2.f32" ? T::E5M2 : f.a;
        int eb = width(b) == 32 ? 1 : 32 / width(b);
        MmaCase mc{mn + ".sync.aligned." + f.shape + ".row.col" + f.types,
                   f.m,
                   8,
                   f.k,
                   op(f.a, a16(f.e), f.m * f.k / 64),
                   op(b, bfrag(eb), 8 * f.k / 32),
                   op(f.cd, cfrag(), 4),
                   op(f.cd, cfrag(), 4)};
        mc.selector = sel;
        run_mma(mc, 30 + static_cast<uint32_t>(sel));
      }
}

// ---- .aligned: all 32 lanes ----

TEST(Mma, PartialWarpFaults) {
  Harness h;
  h.load(kernel_ptx("mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\nmov.b32 %r2, 0;\n"
                    "@%p1 mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, "
                    "{%r2, %r2}, {%r2}, "
                    "{%f1, %f1, %f1, %f1};\n"));
  auto r = h.launch("k", {1}, {32}, {arg(uint64_t{0}), arg(uint64_t{0})});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("all 32 lanes"), std::string::npos) << r.error;
  auto r2 = h.launch("k", {1}, {16}, {arg(uint64_t{0}), arg(uint64_t{0})}); // a 16-thread warp
  EXPECT_FALSE(r2.ok);
  EXPECT_NE(r2.error.find("all 32 lanes"), std::string::npos) << r2.error;
}

// ---- ldmatrix / stmatrix / movmatrix (§9.7.14.5.15-17) ----

// Shared memory `sm` of 4 matrices x 8 rows, each row 16 bytes at a 32-byte pitch (rows need not
// be contiguous); lane l addresses row l % 8 of matrix l / 8.
const char* kShared =
    ".shared .align 16 .b8 sm[1024];\nmov.u32 %r1, %tid.x;\nmov.u64 %rd5, sm;\n"
    "mul.wide.u32 %rd6, %r1, 32;\nadd.s64 %rd7, %rd5, %rd6;\n"; // %rd7: this lane's row (shared)

uint16_t element(int q, int r, int c) {
  return static_cast<uint16_t>(q << 12 | r << 8 | c << 4 | 0xa);
}

TEST(LdMatrix, EveryNumAndTrans) {
  // Global image of shared memory: matrix q row r at (q*8+r)*32 bytes, element (r, c) distinct.
  std::vector<uint16_t> image(512, 0xdead);
  for (int q = 0; q < 4; ++q)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) image[(q * 8 + r) * 16 + c] = element(q, r, c);
  for (int num : {1, 2, 4})
    for (bool trans : {false, true}) {
      std::string regs = "{%r20";
      for (int i = 1; i < num; ++i) regs += ", %r" + std::to_string(20 + i);
      regs += "}";
      std::string body =
          std::string(kShared) +
          "mul.wide.u32 %rd8, %r1, 32;\nadd.s64 %rd9, %rd_in, %rd8;\n"
          "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd9];\nst.shared.v4.u32 [%rd7], {%r2, %r3, "
          "%r4, %r5};\n"
          "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd9+16];\nst.shared.v4.u32 [%rd7+16], {%r2, "
          "%r3, %r4, %r5};\n"
          "bar.sync 0;\nldmatrix.sync.aligned.m8n8.x" +
          std::to_string(num) + (trans ? ".trans" : "") + ".shared.b16 " + regs +
          ", [%rd7];\nmul.wide.u32 %rd10, %r1, 16;\nadd.s64 %rd11, %rd_out, %rd10;\n";
      for (int i = 0; i < num; ++i)
        body += "st.global.u32 [%rd11+" + std::to_string(4 * i) + "], %r" + std::to_string(20 + i) +
                ";\n";
      Harness h;
      h.load(kernel_ptx(body));
      uint64_t out = h.buffer(std::vector<uint32_t>(128, 0)), din = h.buffer(image);
      auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
      ASSERT_TRUE(r.ok) << r.error;
      auto v = h.read<uint32_t>(out, 128);
      for (int l = 0; l < 32; ++l)
        for (int q = 0; q < num; ++q) {
          // Figure 103: lane l holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1; .trans reads
          // the matrix column-major.
          int row = l / 4, col = 2 * (l % 4);
          uint32_t lo = trans ? element(q, col, row) : element(q, row, col);
          uint32_t hi = trans ? element(q, col + 1, row) : element(q, row, col + 1);
          EXPECT_EQ(v[l * 4 + q], lo | hi << 16)
              << "x" << num << (trans ? ".trans" : "") << " lane " << l << " matrix " << q;
        }
    }
}

TEST(StMatrix, EveryNumAndTrans) {
  for (int num : {1, 2, 4})
    for (bool trans : {false, true}) {
      std::string regs = "{%r20";
      for (int i = 1; i < num; ++i) regs += ", %r" + std::to_string(20 + i);
      regs += "}";
      // Lane l register q = element(q, row, col) pair as the ldmatrix fragment of the stored
      // matrix.
      std::string body = std::string(kShared) +
                         "mul.lo.u32 %r6, %r1, 0x10001;\n"
                         "st.shared.v4.u32 [%rd7], {%r6, %r6, %r6, %r6};\n"
                         "st.shared.v4.u32 [%rd7+16], {%r6, %r6, %r6, %r6};\nbar.sync 0;\n"
                         "mul.wide.u32 %rd8, %r1, 16;\nadd.s64 %rd9, %rd_in, %rd8;\n";
      for (int i = 0; i < num; ++i)
        body += "ld.global.u32 %r" + std::to_string(20 + i) + ", [%rd9+" + std::to_string(4 * i) +
                "];\n";
      body += "stmatrix.sync.aligned.m8n8.x" + std::to_string(num) + (trans ? ".trans" : "") +
              ".shared.b16 [%rd7], " + regs +
              ";\nbar.sync 0;\nmul.wide.u32 %rd10, %r1, 32;\nadd.s64 %rd11, %rd_out, %rd10;\n"
              "ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%rd7];\nst.global.v4.u32 [%rd11], {%r2, "
              "%r3, %r4, %r5};\n"
              "ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%rd7+16];\nst.global.v4.u32 [%rd11+16], "
              "{%r2, %r3, %r4, %r5};\n";
      std::vector<uint32_t> in(128, 0);
      for (int l = 0; l < 32; ++l)
        for (int q = 0; q < num; ++q) {
          int row = l / 4, col = 2 * (l % 4);
          in[l * 4 + q] = element(q, row, col) | uint32_t{element(q, row, col + 1)} << 16;
        }
      Harness h;
      h.load(kernel_ptx(body));
      uint64_t out = h.buffer(std::vector<uint16_t>(512, 0)), din = h.buffer(in);
      auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
      ASSERT_TRUE(r.ok) << r.error;
      auto v = h.read<uint16_t>(out, 512);
      for (int q = 0; q < 4; ++q)
        for (int r8 = 0; r8 < 8; ++r8)
          for (int c = 0; c < 16; ++c) {
            uint16_t untouched = static_cast<uint16_t>(q * 8 + r8); // the lane's %r1, low half
            uint16_t want =
                q < num && c < 8 ? (trans ? element(q, c, r8) : element(q, r8, c)) : untouched;
            EXPECT_EQ(v[(q * 8 + r8) * 16 + c], want)
                << "x" << num << (trans ? ".trans" : "") << " m" << q << " r" << r8 << " c" << c;
          }
    }
}

TEST(MovMatrix, Transposes) {
  Harness h;
  h.load(
      kernel_ptx("mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %rd_in, %rd1;\n"
                 "add.s64 %rd3, %rd_out, %rd1;\nld.global.u32 %r2, [%rd2];\n"
                 "movmatrix.sync.aligned.m8n8.trans.b16 %r3, %r2;\nst.global.u32 [%rd3], %r3;\n"));
  std::vector<uint32_t> in(32);
  for (int l = 0; l < 32; ++l)
    in[l] = element(0, l / 4, 2 * (l % 4)) | uint32_t{element(0, l / 4, 2 * (l % 4) + 1)} << 16;
  uint64_t out = h.buffer(std::vector<uint32_t>(32, 0)), din = h.buffer(in);
  auto r = h.launch("k", {1}, {32}, {arg(out), arg(din)});
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 32);
  for (int l = 0; l < 32; ++l) {
    int row = l / 4, col = 2 * (l % 4); // of the transpose: element (row, col) = input (col, row)
    EXPECT_EQ(v[l], element(0, col, row) | uint32_t{element(0, col + 1, row)} << 16)
        << "lane " << l;
  }
}

TEST(LdMatrix, MisalignedRowFaults) {
  Harness h;
  h.load(kernel_ptx(std::string(kShared) +
                    "setp.eq.u32 %p1, %r1, 5;\n@%p1 add.s64 %rd7, %rd7, 8;\n"
                    "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%rd7];\n"));
  auto r = h.launch("k", {1}, {32}, {arg(uint64_t{0}), arg(uint64_t{0})});
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(r.guest_fault);
  EXPECT_NE(r.error.find("lane 5"), std::string::npos) << r.error;
}

// ---- wmma: load ▶ mma ▶ store against the matrix product, whatever the fragment layout ----

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
