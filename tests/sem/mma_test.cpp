// mma (PTX §9.7.14, 001_23fdd5978b24a3ed.txt): fragment layouts and values for every shape and
// type against the §9.7.14.5.1-13 formulas written out here again; mma.sp with its metadata for
// every shape, type and sparsity selector; integer and .b1 products exactly; the .aligned faults.
// Float inputs are small integers, so every sum is exact in any arithmetic model. (Bit-exact
// floats and the recorded layouts: tests/sem/mma_hw_test.cpp; wmma: wmma_test.cpp; ldmatrix,
// stmatrix, movmatrix: ldmatrix_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <random>

#include "harness.h"
#include "matrix_elements.h"

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

} // namespace
} // namespace ptxvm::test
