// atom and red (PTX §9.7.13.5, §9.7.13.6, 001_23fdd5978b24a3ed.txt): every operation and type
// on edge values against references written from the "Semantics" pseudo-code, in global,
// shared and generic memory; contention across CTAs on several host threads with exact final
// values; misaligned and wrong-space faults.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "harness.h"

namespace ptxvm::test {
namespace {

// Registers of the harness kernel by access width.
std::string reg(size_t bytes, int i) { return "%x" + std::to_string(bytes * 8) + "_" + std::to_string(i); }
const char* kRegs = ".reg .b16 %x16_<16>;\n.reg .b32 %x32_<16>;\n.reg .b64 %x64_<16>;\n";
std::string bits(size_t bytes) { return ".b" + std::to_string(bytes * 8); }

// Runs `inst d, [cell], b{, c}` (or `inst [cell], b` for red) with one lane per element:
// lane i updates cell i of `mem`, whose copy lives in `space` (.global, .shared, or generic
// pointing to either). Returns the cells after, and in `old` what atom returned.
template <typename T>
std::vector<T> run_atomic(const std::string& inst, std::vector<T> mem, const std::vector<T>& b,
                          const std::vector<T>& c, std::vector<T>* old, const std::string& space = ".global") {
  const size_t n = mem.size(), s = sizeof(T);
  bool atom = inst.rfind("atom", 0) == 0;
  std::string ld = "ld.global" + bits(s), st = "st.global" + bits(s);
  std::string body = std::string(kRegs) +
      ".shared .align 8 .b8 sm[" + std::to_string(n * s) + "];\n"
      "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, " + std::to_string(s) + ";\n"
      "add.s64 %rd2, %rd_out, %rd1;\nadd.s64 %rd3, %rd_in, %rd1;\n" +
      ld + " " + reg(s, 0) + ", [%rd3];\n" + ld + " " + reg(s, 1) + ", [%rd3+" + std::to_string(n * s) + "];\n";
  std::string cell = "%rd2";
  bool shared = space == ".shared" || space == "generic-shared";
  if (shared) {  // copy the cell into shared memory
    body += ld + " " + reg(s, 3) + ", [%rd2];\nmov.u64 %rd4, sm;\nadd.s64 %rd5, %rd4, %rd1;\n"
            "st.shared" + bits(s) + " [%rd5], " + reg(s, 3) + ";\n";
    cell = "%rd5";
    if (space == "generic-shared") body += "cvta.shared.u64 %rd6, %rd5;\n", cell = "%rd6";
  }
  std::string q = space == ".global" || space == ".shared" ? space + "" : "";
  std::string full = inst.substr(0, inst.find('.')) + q + inst.substr(inst.find('.'));
  if (atom) {
    body += full + " " + reg(s, 2) + ", [" + cell + "], " + reg(s, 0) + (c.empty() ? "" : ", " + reg(s, 1)) + ";\n" +
            st + " [%rd3+" + std::to_string(2 * n * s) + "], " + reg(s, 2) + ";\n";
  } else {
    body += full + " [" + cell + "], " + reg(s, 0) + ";\n";
  }
  if (shared)
    body += "ld.shared" + bits(s) + " " + reg(s, 3) + ", [%rd5];\n" + st + " [%rd2], " + reg(s, 3) + ";\n";
  Harness h;
  h.load(kernel_ptx(body));
  std::vector<T> in(3 * n);
  std::copy(b.begin(), b.end(), in.begin());
  if (!c.empty()) std::copy(c.begin(), c.end(), in.begin() + static_cast<long>(n));
  uint64_t dout = h.buffer(mem), din = h.buffer(in);
  auto r = h.launch("k", {1}, {static_cast<uint32_t>(n)}, {arg(dout), arg(din)});
  EXPECT_TRUE(r.ok) << r.error;
  if (old) {
    auto all = h.read<T>(din, 3 * n);
    old->assign(all.begin() + static_cast<long>(2 * n), all.end());
  }
  return h.read<T>(dout, n);
}

// Checks atom (old value and new memory) and red (new memory) of `op` in every space.
template <typename T>
void check(const std::string& op_type, const std::vector<T>& mem, const std::vector<T>& b,
           const std::function<T(T, T)>& ref, const std::vector<std::string>& spaces = {".global", ".shared", "generic",
                                                                                          "generic-shared"}) {
  for (const std::string& space : spaces) {
    std::vector<T> old;
    auto after = run_atomic<T>("atom." + op_type, mem, b, {}, &old, space);
    for (size_t i = 0; i < mem.size(); ++i) {
      EXPECT_EQ(old[i], mem[i]) << op_type << " " << space << " lane " << i;
      EXPECT_EQ(after[i], ref(mem[i], b[i])) << op_type << " " << space << " lane " << i << " mem " << +mem[i]
                                             << " b " << +b[i];
    }
    if (op_type.rfind("exch", 0) == 0) continue;  // red has no .exch
    auto red_after = run_atomic<T>("red." + op_type, mem, b, {}, nullptr, space);
    for (size_t i = 0; i < mem.size(); ++i)
      EXPECT_EQ(red_after[i], ref(mem[i], b[i])) << "red." << op_type << " " << space << " lane " << i;
  }
}

// Pairs every value of `v` with every value: lane count |v|^2 (at most 1024).
template <typename T>
std::pair<std::vector<T>, std::vector<T>> all_pairs(const std::vector<T>& v) {
  std::pair<std::vector<T>, std::vector<T>> p;
  for (T x : v)
    for (T y : v) p.first.push_back(x), p.second.push_back(y);
  return p;
}

const std::vector<uint32_t> k32 = {0, 1, 2, 3, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0x12345678u,
                                   100, 0xdeadbeefu};
const std::vector<uint64_t> k64 = {0, 1, 2, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
                                   0xfffffffffffffffeull, 0x00000000ffffffffull, 0x0000000100000000ull, 0x0123456789abcdefull};

TEST(Atomic, Bitwise32And64) {
  auto [m, b] = all_pairs(k32);
  check<uint32_t>("and.b32", m, b, [](uint32_t x, uint32_t y) { return x & y; });
  check<uint32_t>("or.b32", m, b, [](uint32_t x, uint32_t y) { return x | y; });
  check<uint32_t>("xor.b32", m, b, [](uint32_t x, uint32_t y) { return x ^ y; });
  check<uint32_t>("exch.b32", m, b, [](uint32_t, uint32_t y) { return y; });
  auto [m64, b64] = all_pairs(k64);
  check<uint64_t>("and.b64", m64, b64, [](uint64_t x, uint64_t y) { return x & y; });
  check<uint64_t>("or.b64", m64, b64, [](uint64_t x, uint64_t y) { return x | y; });
  check<uint64_t>("xor.b64", m64, b64, [](uint64_t x, uint64_t y) { return x ^ y; });
  check<uint64_t>("exch.b64", m64, b64, [](uint64_t, uint64_t y) { return y; });
}

TEST(Atomic, IntegerArithmetic) {
  auto [m, b] = all_pairs(k32);
  auto add = [](uint32_t x, uint32_t y) { return x + y; };
  check<uint32_t>("add.u32", m, b, add);
  check<uint32_t>("add.s32", m, b, add);
  // inc(r, s) = (r >= s) ? 0 : r+1; dec(r, s) = (r == 0 || r > s) ? s : r-1
  check<uint32_t>("inc.u32", m, b, [](uint32_t r, uint32_t s) { return r >= s ? 0u : r + 1; });
  check<uint32_t>("dec.u32", m, b, [](uint32_t r, uint32_t s) { return (r == 0 || r > s) ? s : r - 1; });
  check<uint32_t>("min.u32", m, b, [](uint32_t x, uint32_t y) { return x < y ? x : y; });
  check<uint32_t>("max.u32", m, b, [](uint32_t x, uint32_t y) { return x > y ? x : y; });
  auto smin = [](uint32_t x, uint32_t y) { return static_cast<int32_t>(x) < static_cast<int32_t>(y) ? x : y; };
  auto smax = [](uint32_t x, uint32_t y) { return static_cast<int32_t>(x) > static_cast<int32_t>(y) ? x : y; };
  check<uint32_t>("min.s32", m, b, smin);
  check<uint32_t>("max.s32", m, b, smax);
  auto [m64, b64] = all_pairs(k64);
  check<uint64_t>("add.u64", m64, b64, [](uint64_t x, uint64_t y) { return x + y; });
  check<uint64_t>("min.u64", m64, b64, [](uint64_t x, uint64_t y) { return x < y ? x : y; });
  check<uint64_t>("max.u64", m64, b64, [](uint64_t x, uint64_t y) { return x > y ? x : y; });
  check<uint64_t>("min.s64", m64, b64,
                  [](uint64_t x, uint64_t y) { return static_cast<int64_t>(x) < static_cast<int64_t>(y) ? x : y; });
  check<uint64_t>("max.s64", m64, b64,
                  [](uint64_t x, uint64_t y) { return static_cast<int64_t>(x) > static_cast<int64_t>(y) ? x : y; });
}

TEST(Atomic, CompareAndSwap) {  // cas(r, s, t) = (r == s) ? t : r
  for (std::string space : {".global", ".shared", "generic"}) {
    std::vector<uint32_t> mem = {0, 5, 5, 0xffffffffu, 7}, b = {0, 5, 4, 0xffffffffu, 8}, c = {9, 6, 6, 0, 1}, old;
    auto after = run_atomic<uint32_t>("atom.cas.b32", mem, b, c, &old, space);
    EXPECT_EQ(old, mem) << space;
    EXPECT_EQ(after, (std::vector<uint32_t>{9, 6, 5, 0, 7})) << space;
    std::vector<uint64_t> m64 = {1ull << 40, 3, 0xffffffffffffffffull}, b64 = {1ull << 40, 4, 0xffffffffffffffffull},
                          c64 = {~0ull, 5, 0x8000000000000000ull}, old64;
    auto after64 = run_atomic<uint64_t>("atom.cas.b64", m64, b64, c64, &old64, space);
    EXPECT_EQ(old64, m64) << space;
    EXPECT_EQ(after64, (std::vector<uint64_t>{~0ull, 3, 0x8000000000000000ull})) << space;
    std::vector<uint16_t> m16 = {0x8000, 1, 0xffff, 0}, b16 = {0x8000, 2, 0xffff, 1}, c16 = {0x7fff, 3, 0, 2}, old16;
    auto after16 = run_atomic<uint16_t>("atom.cas.b16", m16, b16, c16, &old16, space);
    EXPECT_EQ(old16, m16) << space;
    EXPECT_EQ(after16, (std::vector<uint16_t>{0x7fff, 1, 0, 0})) << space;
  }
}

// ---- floating point references ----
float f32(uint32_t x) { return std::bit_cast<float>(x); }
bool f32_subnormal(uint32_t x) { return (x & 0x7f800000u) == 0 && (x & 0x7fffffu) != 0; }
// add.f32 rounds to nearest even; NaN results are the canonical NaN; with `ftz` subnormal
// inputs and results become zeros of their sign.
uint32_t ref_add_f32(uint32_t a, uint32_t b, bool ftz) {
  if (ftz && f32_subnormal(a)) a &= 0x80000000u;
  if (ftz && f32_subnormal(b)) b &= 0x80000000u;
  float s = f32(a) + f32(b);
  if (std::isnan(s)) return 0x7fffffffu;
  uint32_t r = std::bit_cast<uint32_t>(s);
  return ftz && f32_subnormal(r) ? r & 0x80000000u : r;
}
const std::vector<uint32_t> kF32 = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu,
                                    0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u, 0x80400000u, 0x00800000u,
                                    0x33800000u, 0x4b800000u, 0x7fa00001u, 0x3eaaaaabu};

TEST(Atomic, AddF32FlushesSubnormalsOnlyInGlobalMemory) {
  // §9.7.13.5: atom.add.f32 on global memory flushes subnormal inputs and results to
  // sign-preserving zero; on shared memory it keeps them. Generic addresses follow the space
  // they point to.
  auto [m, b] = all_pairs(kF32);
  m.push_back(0x00800001u), b.push_back(0x80800000u);  // a subnormal result from normal inputs
  check<uint32_t>("add.f32", m, b, [](uint32_t x, uint32_t y) { return ref_add_f32(x, y, true); }, {".global", "generic"});
  check<uint32_t>("add.f32", m, b, [](uint32_t x, uint32_t y) { return ref_add_f32(x, y, false); },
                  {".shared", "generic-shared"});
}

TEST(Atomic, AddF64) {
  std::vector<uint64_t> v = {0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                             0x7fefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                             0x0000000000000001ull, 0x8000000000000003ull, 0x3ca0000000000000ull, 0x4340000000000000ull,
                             0x7ff0000000000001ull, 0xfff8000000000000ull, 0x0010000000000000ull, 0x8010000000000000ull};
  auto [m, b] = all_pairs(v);
  // NaNs as recorded on an H200. Global memory: b's NaN as is, else memory's. Shared memory:
  // memory's NaN first, either quieted. Inf + -Inf gives 0xfff8000000000000.
  auto ref = [](bool global) {
    return [global](uint64_t x, uint64_t y) -> uint64_t {
      constexpr uint64_t kQuiet = uint64_t{1} << 51;
      double dx = std::bit_cast<double>(x), dy = std::bit_cast<double>(y);
      if (global && std::isnan(dy)) return y;
      if (global && std::isnan(dx)) return x;
      if (std::isnan(dx)) return x | kQuiet;
      if (std::isnan(dy)) return y | kQuiet;
      double s = dx + dy;
      return std::isnan(s) ? 0xfff8000000000000ull : std::bit_cast<uint64_t>(s);
    };
  };
  check<uint64_t>("add.f64", m, b, ref(true), {".global", "generic"});
  check<uint64_t>("add.f64", m, b, ref(false), {".shared", "generic-shared"});
}

// f16 and bf16 references: the sum in float (exact up to one rounding, and float has
// 24 >= 2p+2 bits so rounding it again is the correctly rounded sum) rounded to nearest even.
uint16_t ref_f16(float x) {
  if (std::isnan(x)) return 0x7fff;
  return std::bit_cast<uint16_t>(static_cast<_Float16>(x));
}
float from_f16(uint16_t h) { return static_cast<float>(std::bit_cast<_Float16>(h)); }
uint16_t ref_bf16(float x) {
  if (std::isnan(x)) return 0x7fff;
  uint32_t u = std::bit_cast<uint32_t>(x);
  u += 0x7fffu + ((u >> 16) & 1);  // round to nearest even on the 16 dropped bits
  return static_cast<uint16_t>(u >> 16);
}
float from_bf16(uint16_t h) { return std::bit_cast<float>(uint32_t{h} << 16); }
bool nan16(uint16_t h, bool bf) { return (h & 0x7fff) > (bf ? 0x7f80 : 0x7c00); }
// min/max.f16 (§9.7.4.7): NaN operand gives the other, two NaNs the canonical NaN; -0 < +0.
uint16_t ref_minmax16(uint16_t a, uint16_t b, bool bf, bool max) {
  if (nan16(a, bf) && nan16(b, bf)) return 0x7fff;
  if (nan16(a, bf)) return b;
  if (nan16(b, bf)) return a;
  float x = bf ? from_bf16(a) : from_f16(a), y = bf ? from_bf16(b) : from_f16(b);
  if (x == y) return std::signbit(x) == !max ? a : b;
  return (max ? x > y : x < y) ? a : b;
}
const std::vector<uint16_t> kF16 = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
                                    0x0001, 0x8001, 0x03ff, 0x0400, 0x3555, 0x1400, 0x7d01};
const std::vector<uint16_t> kBF16 = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0,
                                     0x0001, 0x8001, 0x007f, 0x0080, 0x3eab, 0x3b80, 0x7f81};

TEST(Atomic, AddHalfNoftz) {  // .noftz keeps subnormal inputs and results
  auto [m, b] = all_pairs(kF16);
  check<uint16_t>("add.noftz.f16", m, b, [](uint16_t x, uint16_t y) { return ref_f16(from_f16(x) + from_f16(y)); });
  auto [mb, bb] = all_pairs(kBF16);
  check<uint16_t>("add.noftz.bf16", mb, bb,
                  [](uint16_t x, uint16_t y) { return ref_bf16(from_bf16(x) + from_bf16(y)); });
  // Packed pairs: each half independently.
  std::vector<uint32_t> pm, pb;
  for (size_t i = 0; i < m.size(); i += 3) pm.push_back(m[i] | uint32_t{mb[i]} << 16), pb.push_back(b[i] | uint32_t{bb[i]} << 16);
  auto pair = [](bool bf) {
    return [bf](uint32_t x, uint32_t y) {
      auto one = [bf](uint16_t p, uint16_t q) {
        return bf ? ref_bf16(from_bf16(p) + from_bf16(q)) : ref_f16(from_f16(p) + from_f16(q));
      };
      return one(static_cast<uint16_t>(x), static_cast<uint16_t>(y)) |
             uint32_t{one(static_cast<uint16_t>(x >> 16), static_cast<uint16_t>(y >> 16))} << 16;
    };
  };
  // Lane i's low half comes from the f16 table, its high half from the bf16 table: as .f16x2
  // both halves are f16, as .bf16x2 both are bf16.
  check<uint32_t>("add.noftz.f16x2", pm, pb, pair(false));
  check<uint32_t>("add.noftz.bf16x2", pm, pb, pair(true));
}

// Vector atomics (§9.7.13.5, .global only): lane i updates elements [i*n, i*n+n).
template <typename T>
void check_vector(const std::string& inst, const std::vector<T>& mem, const std::vector<T>& b, size_t n,
                  const std::function<T(T, T)>& ref) {
  const size_t s = sizeof(T), lanes = mem.size() / n;
  std::string dl, bl;
  for (size_t i = 0; i < n; ++i) {
    dl += (i ? ", " : "") + reg(s, static_cast<int>(i));
    bl += (i ? ", " : "") + reg(s, static_cast<int>(i + 8));
  }
  std::string v = ".v" + std::to_string(n), ld = "ld.global" + v + bits(s), st = "st.global" + v + bits(s);
  bool atom = inst.rfind("atom", 0) == 0;
  std::string body = std::string(kRegs) + "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, " + std::to_string(n * s) +
                     ";\nadd.s64 %rd2, %rd_out, %rd1;\nadd.s64 %rd3, %rd_in, %rd1;\n" + ld + " {" + bl + "}, [%rd3];\n" +
                     (atom ? inst + " {" + dl + "}, [%rd2], {" + bl + "};\n" + st + " [%rd3+" +
                                 std::to_string(mem.size() * s) + "], {" + dl + "};\n"
                           : inst + " [%rd2], {" + bl + "};\n");
  Harness h;
  h.load(kernel_ptx(body));
  std::vector<T> in(2 * mem.size());
  std::copy(b.begin(), b.end(), in.begin());
  uint64_t dout = h.buffer(mem), din = h.buffer(in);
  auto r = h.launch("k", {1}, {static_cast<uint32_t>(lanes)}, {arg(dout), arg(din)});
  ASSERT_TRUE(r.ok) << r.error;
  auto after = h.read<T>(dout, mem.size());
  auto all = h.read<T>(din, 2 * mem.size());
  for (size_t i = 0; i < mem.size(); ++i) {
    EXPECT_EQ(after[i], ref(mem[i], b[i])) << inst << " element " << i;
    if (atom) {
      EXPECT_EQ(all[mem.size() + i], mem[i]) << inst << " old element " << i;
    }
  }
}

TEST(Atomic, VectorForms) {
  auto [m, b] = all_pairs(kF16);  // 256 elements
  auto [mb, bb] = all_pairs(kBF16);
  for (const char* k : {"atom", "red"}) {
    std::string a = std::string(k) + ".global";
    for (size_t n : {2, 4, 8}) {
      std::string v = ".v" + std::to_string(n);
      check_vector<uint16_t>(a + v + ".f16.add.noftz", m, b, n,
                             [](uint16_t x, uint16_t y) { return ref_f16(from_f16(x) + from_f16(y)); });
      check_vector<uint16_t>(a + v + ".bf16.add.noftz", mb, bb, n,
                             [](uint16_t x, uint16_t y) { return ref_bf16(from_bf16(x) + from_bf16(y)); });
      check_vector<uint16_t>(a + v + ".f16.min.noftz", m, b, n,
                             [](uint16_t x, uint16_t y) { return ref_minmax16(x, y, false, false); });
      check_vector<uint16_t>(a + v + ".f16.max.noftz", m, b, n,
                             [](uint16_t x, uint16_t y) { return ref_minmax16(x, y, false, true); });
      check_vector<uint16_t>(a + v + ".bf16.min.noftz", mb, bb, n,
                             [](uint16_t x, uint16_t y) { return ref_minmax16(x, y, true, false); });
      check_vector<uint16_t>(a + v + ".bf16.max.noftz", mb, bb, n,
                             [](uint16_t x, uint16_t y) { return ref_minmax16(x, y, true, true); });
    }
    std::vector<uint32_t> pm, pb;
    for (size_t i = 0; i < m.size(); ++i) pm.push_back(m[i] | uint32_t{m[255 - i]} << 16), pb.push_back(b[i] | uint32_t{b[255 - i]} << 16);
    auto half2 = [](uint16_t (*f)(uint16_t, uint16_t)) {
      return [f](uint32_t x, uint32_t y) {
        return f(static_cast<uint16_t>(x), static_cast<uint16_t>(y)) |
               uint32_t{f(static_cast<uint16_t>(x >> 16), static_cast<uint16_t>(y >> 16))} << 16;
      };
    };
    for (size_t n : {2, 4}) {
      std::string v = ".v" + std::to_string(n);
      check_vector<uint32_t>(a + v + ".f16x2.add.noftz", pm, pb, n,
                             half2([](uint16_t x, uint16_t y) { return ref_f16(from_f16(x) + from_f16(y)); }));
      check_vector<uint32_t>(a + v + ".f16x2.min.noftz", pm, pb, n,
                             half2([](uint16_t x, uint16_t y) { return ref_minmax16(x, y, false, false); }));
      check_vector<uint32_t>(a + v + ".bf16x2.max.noftz", pm, pb, n,
                             half2([](uint16_t x, uint16_t y) { return ref_minmax16(x, y, true, true); }));
      auto [fm, fb] = all_pairs(kF32);
      check_vector<uint32_t>(a + v + ".f32.add", fm, fb, n,
                             [](uint32_t x, uint32_t y) { return ref_add_f32(x, y, true); });
    }
  }
}

TEST(Atomic, QualifiersDoNotChangeValues) {
  // .sem, .scope, ::cta and .L2::cache_hint change ordering or caching, not the result.
  std::vector<uint32_t> mem = {1, 2, 3}, b = {10, 20, 30};
  std::vector<uint32_t> old;
  for (const char* q : {"relaxed.gpu.add.u32", "acquire.cta.add.u32", "release.cluster.add.u32", "acq_rel.sys.add.u32",
                        "sys.add.u32", "relaxed.cta.add.u32"}) {
    EXPECT_EQ(run_atomic<uint32_t>(std::string("atom.") + q, mem, b, {}, &old, ".global"),
              (std::vector<uint32_t>{11, 22, 33})) << q;
    EXPECT_EQ(old, mem) << q;
  }
  for (const char* q : {"relaxed.gpu.add.u32", "release.sys.add.u32", "cluster.add.u32"})
    EXPECT_EQ(run_atomic<uint32_t>(std::string("red.") + q, mem, b, {}, nullptr, ".shared"),
              (std::vector<uint32_t>{11, 22, 33})) << q;
  Harness h;
  h.load(kernel_ptx("createpolicy.fractional.L2::evict_last.b64 %rd5, 0.5;\n"
                    "atom.global.add.L2::cache_hint.u32 %r1, [%rd_out], 5, %rd5;\n"
                    "red.global.add.L2::cache_hint.u32 [%rd_out+4], 7, %rd5;\n"
                    ".shared .align 4 .b32 sx;\natom.shared::cluster.add.u32 %r2, [sx], 1;\n"
                    "atom.shared::cta.add.u32 %r3, [sx], 1;\nadd.s32 %r4, %r2, %r3;\nst.global.u32 [%rd_out+8], %r4;\n"));
  uint64_t out = h.buffer(std::vector<uint32_t>{1, 2, 0});
  auto r = h.launch("k", {1}, {1}, {arg(out), arg(uint64_t{0})});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint32_t>(out, 3), (std::vector<uint32_t>{6, 9, 1}));  // shared starts at 0: 0 + 1
}

TEST(Atomic, VectorDestinationMayNameSourceRegisters) {
  // d's registers are b's in another order: every element still adds its own b.
  Harness h;
  h.load(kernel_ptx("mov.f32 %f1, 0f3F800000;\nmov.f32 %f2, 0f40000000;\n"
                    "atom.global.v2.f32.add {%f2, %f1}, [%rd_out], {%f1, %f2};\n"
                    "st.global.v2.f32 [%rd_out+8], {%f1, %f2};\n"));
  uint64_t out = h.buffer(std::vector<float>{10, 20, 0, 0});
  auto r = h.launch("k", {1}, {1}, {arg(out), arg(uint64_t{0})});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<float>(out, 4), (std::vector<float>{11, 22, 20, 10}));
}

// ---- contention: several CTAs on several host threads ----
const char* kGlobalTid =
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmad.lo.s32 %r4, %r2, %r3, %r1;\n";

TEST(Atomic, ContendedCountersAcrossHostThreads) {
  // 16 CTAs x 256 threads on 4 host threads: every update is counted exactly once.
  Harness h;
  h.load(kernel_ptx(std::string(kGlobalTid) +
                    "atom.global.add.u32 %r5, [%rd_out], 1;\n"
                    "red.global.add.u64 [%rd_out+8], 3;\n"
                    "atom.global.inc.u32 %r6, [%rd_out+16], 999;\n"      // wraps at 1000
                    "mul.wide.u32 %rd5, %r4, 1;\nred.global.max.s64 [%rd_out+24], %rd5;\n"
                    "neg.s32 %r7, %r4;\natom.global.min.s32 %r8, [%rd_out+32], %r7;\n"
                    "and.b32 %r9, %r4, 31;\nshl.b32 %r10, 1, %r9;\nred.global.or.b32 [%rd_out+36], %r10;\n"
                    "red.global.xor.b32 [%rd_out+40], %r4;\n"
                    "atom.global.add.f32 %f1, [%rd_out+44], 0f3F800000;\n"   // 1.0: exact to 2^24
                    "red.global.add.f64 [%rd_out+48], 0d3FE0000000000000;\n"  // 0.5
                    "atom.global.dec.u32 %r11, [%rd_out+56], 0xffffffff;\n"
                    "red.global.add.noftz.f16x2 [%rd_out+60], 0x3C003C00;\n"   // 1.0 each, exact to 2048
                    "setp.gt.u32 %p1, %r4, 99999;\n@%p1 red.global.add.u32 [%rd_out], 1000;\n"));  // guarded off
  std::vector<uint32_t> init(16, 0);
  init[14] = 5;
  uint64_t out = h.buffer(init);
  auto r = h.launch("k", {16}, {256}, {arg(out), arg(uint64_t{0})}, 4);
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 16);
  const uint32_t n = 16 * 256;
  uint32_t x = 0;
  for (uint32_t i = 0; i < n; ++i) x ^= i;
  EXPECT_EQ(v[0], n);
  EXPECT_EQ(v[2] | uint64_t{v[3]} << 32, 3ull * n);
  EXPECT_EQ(v[4], n % 1000);
  EXPECT_EQ(v[6] | uint64_t{v[7]} << 32, n - 1);
  EXPECT_EQ(static_cast<int32_t>(v[8]), -static_cast<int32_t>(n - 1));
  EXPECT_EQ(v[9], 0xffffffffu);
  EXPECT_EQ(v[10], x);
  EXPECT_EQ(std::bit_cast<float>(v[11]), static_cast<float>(n));
  EXPECT_EQ(std::bit_cast<double>(v[12] | uint64_t{v[13]} << 32), 0.5 * n);
  EXPECT_EQ(v[14], 5 - n);  // dec with bound 0xffffffff counts down 5, 4, ... wrapping at 0 to the bound
  // f16 counts exactly to 2048; 2048 + 1 is a tie that rounds to the even 2048 from then on.
  EXPECT_EQ(v[15], 0x68006800u);
}

TEST(Atomic, CasSpinLockAcrossHostThreads) {
  // A lock taken with atom.cas and released with atom.exch guards a plain load/add/store.
  // One thread per warp contends, so that lanes of one warp do not spin on each other.
  Harness h;
  h.load(kernel_ptx(std::string(kGlobalTid) +
                    "and.b32 %r5, %r1, 31;\nsetp.ne.u32 %p1, %r5, 0;\n@%p1 bra DONE;\n"
                    "mov.u32 %r9, 0;\nREPEAT:\n"
                    "SPIN:\natom.global.acquire.gpu.cas.b32 %r6, [%rd_out], 0, 1;\n"
                    "setp.ne.u32 %p2, %r6, 0;\n@%p2 bra SPIN;\n"
                    "ld.global.u32 %r7, [%rd_out+4];\nadd.s32 %r7, %r7, 1;\nst.global.u32 [%rd_out+4], %r7;\n"
                    "ld.global.u64 %rd5, [%rd_out+8];\nadd.s64 %rd5, %rd5, 2;\nst.global.u64 [%rd_out+8], %rd5;\n"
                    "atom.global.release.gpu.exch.b32 %r8, [%rd_out], 0;\n"
                    "add.s32 %r9, %r9, 1;\nsetp.lt.u32 %p3, %r9, 50;\n@%p3 bra REPEAT;\nDONE:\n"));
  uint64_t out = h.buffer(std::vector<uint32_t>(4, 0));
  auto r = h.launch("k", {16}, {128}, {arg(out), arg(uint64_t{0})}, 4);
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 4);
  EXPECT_EQ(v[0], 0u);
  EXPECT_EQ(v[1], 16u * 4 * 50);
  EXPECT_EQ(v[2], 2u * 16 * 4 * 50);
}

TEST(Atomic, SharedMemoryCountersPerCta) {
  Harness h;
  h.load(kernel_ptx(std::string(kGlobalTid) +
                    ".shared .align 8 .b8 s[16];\n"
                    "setp.eq.u32 %p1, %r1, 0;\n@%p1 st.shared.u32 [s], 0;\n@%p1 st.shared.u64 [s+8], 0;\n"
                    "@%p1 st.shared.u32 [s+4], 0x7fffffff;\nbar.sync 0;\n"
                    "atom.shared.add.u32 %r5, [s], 2;\nred.shared.min.s32 [s+4], %r1;\n"
                    "mov.u64 %rd5, s;\ncvta.shared.u64 %rd6, %rd5;\natom.add.u64 %rd7, [%rd6+8], 1;\n"
                    "bar.sync 0;\n@%p1 ld.shared.u32 %r6, [s];\n@%p1 ld.shared.u32 %r7, [s+4];\n"
                    "@%p1 ld.shared.u32 %r8, [s+8];\nmul.wide.u32 %rd8, %r2, 16;\nadd.s64 %rd9, %rd_out, %rd8;\n"
                    "@%p1 st.global.v2.u32 [%rd9], {%r6, %r7};\n@%p1 st.global.u32 [%rd9+8], %r8;\n"));
  uint64_t out = h.buffer(std::vector<uint32_t>(8 * 4, 0));
  auto r = h.launch("k", {8}, {192}, {arg(out), arg(uint64_t{0})}, 4);
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint32_t>(out, 8 * 4);
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(v[4 * c], 2u * 192);
    EXPECT_EQ(v[4 * c + 1], 0u);
    EXPECT_EQ(v[4 * c + 2], 192u);
  }
}

TEST(Atomic, FaultsOnMisalignedAndWrongSpace) {
  struct Case {
    const char* body;
    const char* expect;
  };
  for (const Case& c : {Case{"atom.global.add.u32 %r1, [%rd_out+2], 1;", "misaligned 4-byte global"},
                        Case{"atom.global.cas.b64 %rd1, [%rd_out+4], 1, 2;", "misaligned 8-byte global"},
                        Case{"red.global.add.noftz.f16 [%rd_out+1], %h1;", "misaligned 2-byte global"},
                        Case{"atom.global.v4.f32.add {%f1, %f2, %f3, %f4}, [%rd_out+8], {%f1, %f2, %f3, %f4};",
                             "misaligned 16-byte global"},
                        Case{".local .align 4 .b32 loc;\nmov.u64 %rd1, loc;\ncvta.local.u64 %rd2, %rd1;\n"
                             "atom.add.u32 %r1, [%rd2], 1;",
                             "atomic operation on local memory"},
                        Case{"atom.global.add.u32 %r1, [%rd_out+64], 1;", "out-of-bounds 4-byte global"}}) {
    Harness h;
    h.load(kernel_ptx(c.body));
    uint64_t out = h.buffer(std::vector<uint32_t>(16, 0));
    auto r = h.launch("k", {1}, {1}, {arg(out), arg(uint64_t{0})});
    EXPECT_FALSE(r.ok) << c.body;
    EXPECT_NE(r.error.find(c.expect), std::string::npos) << r.error;
  }
}

// ---- .b128 (PTX 8.3, sm_90): exch and cas on 16 bytes; a .b128 register is {lo, hi} ----
TEST(Atomic, B128CasCountsPairsAcrossHostThreads) {
  // Every thread adds {1, 3} to a 128-bit pair with a cas loop (the halves start at
  // {0xffffffffffffff00, 7}, so the low half carries into no other word: halves are separate
  // 64-bit values). 8 CTAs x 64 threads on 4 host threads; one lane per warp at a time
  // contends (the warp's lanes run in turn).
  Harness h;
  h.load(kernel_ptx(std::string(kGlobalTid) +
                    ".reg .b128 %q<4>;\n"
                    "ld.global.v2.u64 {%rd5, %rd6}, [%rd_out];\n"
                    "RETRY:\nmov.b128 %q1, {%rd5, %rd6};\nadd.s64 %rd7, %rd5, 1;\nadd.s64 %rd8, %rd6, 3;\n"
                    "mov.b128 %q2, {%rd7, %rd8};\n"
                    "atom.global.acq_rel.gpu.cas.b128 %q0, [%rd_out], %q1, %q2;\n"
                    "mov.b128 {%rd9, %rd10}, %q0;\n"
                    "setp.ne.u64 %p1, %rd9, %rd5;\nsetp.ne.or.u64 %p1, %rd10, %rd6, %p1;\n"
                    "mov.u64 %rd5, %rd9;\nmov.u64 %rd6, %rd10;\n@%p1 bra RETRY;\n"));
  uint64_t out = h.buffer(std::vector<uint64_t>{0xffffffffffffff00ull, 7});
  auto r = h.launch("k", {8}, {64}, {arg(out), arg(uint64_t{0})}, 4);
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint64_t>(out, 2);
  EXPECT_EQ(v[0], 0xffffffffffffff00ull + 8 * 64);
  EXPECT_EQ(v[1], 7u + 3 * 8 * 64);
}

TEST(Atomic, B128ExchangeIsAPermutation) {
  // Each thread exchanges {t, ~t} into one location (generic address) and stores what it got:
  // the values received plus the final one are the initial value and every thread's, once each.
  Harness h;
  h.load(kernel_ptx(std::string(kGlobalTid) +
                    ".reg .b128 %q<2>;\ncvt.u64.u32 %rd5, %r4;\nnot.b64 %rd6, %rd5;\n"
                    "mov.b128 %q1, {%rd5, %rd6};\natom.exch.b128 %q0, [%rd_in], %q1;\nmov.b128 {%rd7, %rd8}, %q0;\n"
                    "mul.wide.u32 %rd9, %r4, 16;\nadd.s64 %rd10, %rd_out, %rd9;\n"
                    "st.global.v2.u64 [%rd10], {%rd7, %rd8};\n"));
  const uint32_t n = 4 * 96;
  uint64_t out = h.buffer(std::vector<uint64_t>(2 * n, 0));
  uint64_t loc = h.buffer(std::vector<uint64_t>{0x1234, 0x5678});
  auto r = h.launch("k", {4}, {96}, {arg(out), arg(loc)}, 4);
  ASSERT_TRUE(r.ok) << r.error;
  auto v = h.read<uint64_t>(out, 2 * n);
  auto last = h.read<uint64_t>(loc, 2);
  std::vector<int> seen(n, 0);
  int initial = 0;
  auto count = [&](uint64_t lo, uint64_t hi) {
    if (lo == 0x1234 && hi == 0x5678) return void(++initial);
    ASSERT_LT(lo, n);
    EXPECT_EQ(hi, ~lo);
    ++seen[lo];
  };
  for (uint32_t t = 0; t < n; ++t) count(v[2 * t], v[2 * t + 1]);
  count(last[0], last[1]);
  EXPECT_EQ(initial, 1);
  for (uint32_t t = 0; t < n; ++t) EXPECT_EQ(seen[t], 1) << t;
}

TEST(Atomic, B128SharedCasAndFaults) {
  // Shared memory: a cas whose compare value differs leaves memory and returns it; a matching
  // one stores c. Then: a 16-byte atomic at an 8-byte aligned address faults.
  Harness h;
  h.load(kernel_ptx(".shared .align 16 .b8 s[32];\n.reg .b128 %q<4>;\n"
                    "mov.u64 %rd1, 11;\nmov.u64 %rd2, 22;\nst.shared.v2.u64 [s+16], {%rd1, %rd2};\n"
                    "mov.b128 %q1, {%rd1, %rd1};\nmov.u64 %rd3, 33;\nmov.u64 %rd4, 44;\nmov.b128 %q2, {%rd3, %rd4};\n"
                    "atom.shared.cas.b128 %q0, [s+16], %q1, %q2;\nmov.b128 {%rd5, %rd6}, %q0;\n"
                    "mov.b128 %q1, {%rd1, %rd2};\natom.shared.cta.relaxed.cas.b128 %q3, [s+16], %q1, %q2;\n"
                    "mov.b128 {%rd7, %rd8}, %q3;\nld.shared.v2.u64 {%rd9, %rd10}, [s+16];\n"
                    "st.global.v2.u64 [%rd_out], {%rd5, %rd6};\nst.global.v2.u64 [%rd_out+16], {%rd7, %rd8};\n"
                    "st.global.v2.u64 [%rd_out+32], {%rd9, %rd10};\n"));
  uint64_t out = h.buffer(std::vector<uint64_t>(6, 0));
  auto r = h.launch("k", {1}, {1}, {arg(out), arg(uint64_t{0})});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(h.read<uint64_t>(out, 6), (std::vector<uint64_t>{11, 22, 11, 22, 33, 44}));

  Harness bad;
  bad.load(kernel_ptx(".reg .b128 %q<3>;\natom.global.exch.b128 %q0, [%rd_out+8], %q1;"));
  uint64_t buf = bad.buffer(std::vector<uint64_t>(4, 0));
  auto f = bad.launch("k", {1}, {1}, {arg(buf), arg(uint64_t{0})});
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.error.find("misaligned 16-byte global"), std::string::npos) << f.error;
}

TEST(Atomic, B128OnlyExchAndCas) {
  Device dev;
  std::string diags;
  EXPECT_FALSE(dev.load_module(kernel_ptx(".reg .b128 %q<3>;\natom.global.add.b128 %q0, [%rd_out], %q1;"), "t.ptx",
                               &diags));
  EXPECT_NE(diags.find("b128"), std::string::npos) << diags;
}

}  // namespace
}  // namespace ptxvm::test
