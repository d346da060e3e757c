// Integer arithmetic, PTX §9.7.1 (001_23fdd5978b24a3ed.txt): every family and qualifier
// combination against references transcribed from the spec's semantics, on edge values,
// exhaustive 16-bit operands where cheap, and fixed-seed random values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rows.h"

namespace ptxvm::test {
namespace {

// All 16-bit values of operand 0, with operand 1 over the 16-bit edge values.
std::vector<uint64_t> all16_by_edges() {
  std::vector<uint64_t> rows;
  for (uint64_t b : edges(16))
    for (uint64_t a = 0; a < 0x10000; ++a) rows.insert(rows.end(), {a, b});
  return rows;
}

int64_t sx(uint64_t v, int bits) { return bits == 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits); }

struct TypeInfo {
  const char* name;
  int bits;
  bool sign;
};
const TypeInfo kIntTypes[] = {{".u16", 16, false}, {".u32", 32, false}, {".u64", 64, false},
                              {".s16", 16, true},  {".s32", 32, true},  {".s64", 64, true}};

int64_t val(uint64_t v, const TypeInfo& t) { return t.sign ? sx(v, t.bits) : static_cast<int64_t>(v); }
bool less(uint64_t a, uint64_t b, const TypeInfo& t) { return t.sign ? sx(a, t.bits) < sx(b, t.bits) : a < b; }

TEST(IntegerSem, AddSub) {  // §9.7.1.1, §9.7.1.2: d = a ± b mod 2^n
  for (const TypeInfo& t : kIntTypes) {
    auto rows = t.bits == 16 ? all16_by_edges() : rows_for({t.bits, t.bits});
    expect_op(std::string("add") + t.name, t.bits, {t.bits, t.bits}, rows, [](const uint64_t* r) { return r[0] + r[1]; });
    expect_op(std::string("sub") + t.name, t.bits, {t.bits, t.bits}, rows, [](const uint64_t* r) { return r[0] - r[1]; });
  }
}

TEST(IntegerSem, AddSubSatS32) {  // .sat clamps to MININT..MAXINT
  auto clamp = [](int64_t v) { return static_cast<uint64_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); };
  auto rows = rows_for({32, 32}, 2048);
  expect_op("add.sat.s32", 32, {32, 32}, rows, [&](const uint64_t* r) { return clamp(sx(r[0], 32) + sx(r[1], 32)); });
  expect_op("sub.sat.s32", 32, {32, 32}, rows, [&](const uint64_t* r) { return clamp(sx(r[0], 32) - sx(r[1], 32)); });
}

TEST(IntegerSem, Add16x2) {  // each half-word added on its own
  auto ref = [](const uint64_t* r) {
    uint64_t lo = (r[0] + r[1]) & 0xffff, hi = ((r[0] >> 16) + (r[1] >> 16)) & 0xffff;
    return hi << 16 | lo;
  };
  auto rows = rows_for({32, 32}, 2048);
  expect_op("add.u16x2", 32, {32, 32}, rows, ref);
  expect_op("add.s16x2", 32, {32, 32}, rows, ref);
}

TEST(IntegerSem, MulMad) {  // §9.7.1.3, §9.7.1.4: t = a*b exactly; .lo, .hi, .wide halves
  for (const TypeInfo& t : kIntTypes) {
    int n = t.bits;
    __extension__ typedef unsigned __int128 u128;
    auto exact = [t](uint64_t a, uint64_t b) -> u128 {
      __extension__ typedef __int128 i128;
      if (t.sign) return static_cast<u128>(static_cast<i128>(val(a, t)) * static_cast<i128>(val(b, t)));
      return static_cast<u128>(a) * static_cast<u128>(b);
    };
    auto rows = n == 16 ? all16_by_edges() : rows_for({n, n}, 1024);
    std::string ty = t.name;
    expect_op("mul.lo" + ty, n, {n, n}, rows, [&](const uint64_t* r) { return static_cast<uint64_t>(exact(r[0], r[1])); });
    expect_op("mul.hi" + ty, n, {n, n}, rows, [&](const uint64_t* r) { return static_cast<uint64_t>(exact(r[0], r[1]) >> n); });
    auto rows3 = rows_for({n, n, n}, 1024);
    expect_op("mad.lo" + ty, n, {n, n, n}, rows3, [&](const uint64_t* r) { return static_cast<uint64_t>(exact(r[0], r[1])) + r[2]; });
    expect_op("mad.hi" + ty, n, {n, n, n}, rows3,
              [&](const uint64_t* r) { return static_cast<uint64_t>(exact(r[0], r[1]) >> n) + r[2]; });
    if (n == 64) continue;
    expect_op("mul.wide" + ty, 2 * n, {n, n}, rows, [&](const uint64_t* r) { return static_cast<uint64_t>(exact(r[0], r[1])); });
    auto rows_w = rows_for({n, n, 2 * n}, 1024);
    expect_op("mad.wide" + ty, 2 * n, {n, n, 2 * n}, rows_w,
              [&](const uint64_t* r) { return static_cast<uint64_t>(exact(r[0], r[1])) + r[2]; });
  }
}

TEST(IntegerSem, MadHiSatS32) {  // t<63..32> + c clamped to the s32 range
  expect_op("mad.hi.sat.s32", 32, {32, 32, 32}, rows_for({32, 32, 32}, 2048), [](const uint64_t* r) {
    int64_t hi = (sx(r[0], 32) * sx(r[1], 32)) >> 32;
    return static_cast<uint64_t>(std::clamp<int64_t>(hi + sx(r[2], 32), INT32_MIN, INT32_MAX));
  });
}

TEST(IntegerSem, Mul24Mad24) {  // §9.7.1.5, §9.7.1.6: 24x24-bit product t; .lo t<31..0>, .hi t<47..16>
  for (bool sign : {false, true}) {
    auto t48 = [sign](uint64_t a, uint64_t b) {
      int64_t x = sign ? sx(a & 0xffffff, 24) : static_cast<int64_t>(a & 0xffffff);
      int64_t y = sign ? sx(b & 0xffffff, 24) : static_cast<int64_t>(b & 0xffffff);
      return static_cast<uint64_t>(x * y);
    };
    std::string ty = sign ? ".s32" : ".u32";
    auto rows = rows_for({32, 32, 32}, 1024);
    expect_op("mul24.lo" + ty, 32, {32, 32}, rows_for({32, 32}, 1024), [&](const uint64_t* r) { return t48(r[0], r[1]); });
    expect_op("mul24.hi" + ty, 32, {32, 32}, rows_for({32, 32}, 1024), [&](const uint64_t* r) { return t48(r[0], r[1]) >> 16; });
    expect_op("mad24.lo" + ty, 32, {32, 32, 32}, rows, [&](const uint64_t* r) { return t48(r[0], r[1]) + r[2]; });
    expect_op("mad24.hi" + ty, 32, {32, 32, 32}, rows, [&](const uint64_t* r) { return (t48(r[0], r[1]) >> 16) + r[2]; });
  }
  expect_op("mad24.hi.sat.s32", 32, {32, 32, 32}, rows_for({32, 32, 32}, 1024), [](const uint64_t* r) {
    int64_t t = sx(r[0] & 0xffffff, 24) * sx(r[1] & 0xffffff, 24);
    int64_t hi = sx(static_cast<uint64_t>(t) >> 16, 32);
    return static_cast<uint64_t>(std::clamp<int64_t>(hi + sx(r[2], 32), INT32_MIN, INT32_MAX));
  });
}

TEST(IntegerSem, Sad) {  // §9.7.1.7: d = c + ((a<b) ? b-a : a-b)
  for (const TypeInfo& t : kIntTypes)
    expect_op(std::string("sad") + t.name, t.bits, {t.bits, t.bits, t.bits}, rows_for({t.bits, t.bits, t.bits}, 512),
              [t](const uint64_t* r) { return r[2] + (less(r[0], r[1], t) ? r[1] - r[0] : r[0] - r[1]); });
}

TEST(IntegerSem, DivRem) {  // §9.7.1.8, §9.7.1.9: truncating division
  for (const TypeInfo& t : kIntTypes) {
    auto rows = t.bits == 16 ? all16_by_edges() : rows_for({t.bits, t.bits}, 2048);
    uint64_t m = mask_of(t.bits);
    auto div = [t, m](const uint64_t* r) -> uint64_t {
      if ((r[1] & m) == 0) return m;  // ptxvm's documented choice (an H200's): all ones
      if (!t.sign) return r[0] / r[1];
      int64_t a = val(r[0], t), b = val(r[1], t);
      if (b == -1) return static_cast<uint64_t>(0) - static_cast<uint64_t>(a);  // MININT / -1 wraps
      return static_cast<uint64_t>(a / b);
    };
    auto rem = [t, m](const uint64_t* r) -> uint64_t {
      if ((r[1] & m) == 0) return m;  // ptxvm's documented choice (an H200's): all ones
      if (!t.sign) return r[0] % r[1];
      int64_t a = val(r[0], t), b = val(r[1], t);
      if (b == -1) return 0;
      return static_cast<uint64_t>(a % b);
    };
    expect_op(std::string("div") + t.name, t.bits, {t.bits, t.bits}, rows, div);
    expect_op(std::string("rem") + t.name, t.bits, {t.bits, t.bits}, rows, rem);
  }
}

TEST(IntegerSem, AbsNeg) {  // §9.7.1.10, §9.7.1.11: MININT maps to itself
  for (const TypeInfo& t : kIntTypes) {
    if (!t.sign) continue;
    std::vector<uint64_t> rows;
    if (t.bits == 16)
      for (uint64_t a = 0; a < 0x10000; ++a) rows.push_back(a);
    else
      rows = rows_for({t.bits}, 1024);
    expect_op(std::string("abs") + t.name, t.bits, {t.bits}, rows,
              [t](const uint64_t* r) { return val(r[0], t) < 0 ? 0 - r[0] : r[0]; });
    expect_op(std::string("neg") + t.name, t.bits, {t.bits}, rows, [](const uint64_t* r) { return 0 - r[0]; });
  }
}

TEST(IntegerSem, MinMax) {  // §9.7.1.12, §9.7.1.13
  for (const TypeInfo& t : kIntTypes) {
    auto rows = t.bits == 16 ? all16_by_edges() : rows_for({t.bits, t.bits}, 1024);
    expect_op(std::string("min") + t.name, t.bits, {t.bits, t.bits}, rows,
              [t](const uint64_t* r) { return less(r[0], r[1], t) ? r[0] : r[1]; });
    expect_op(std::string("max") + t.name, t.bits, {t.bits, t.bits}, rows,
              [t](const uint64_t* r) { return less(r[1], r[0], t) ? r[0] : r[1]; });
  }
  auto rows = rows_for({32, 32}, 2048);
  expect_op("min.relu.s32", 32, {32, 32}, rows,
            [](const uint64_t* r) { return static_cast<uint64_t>(std::max<int64_t>(0, std::min(sx(r[0], 32), sx(r[1], 32)))); });
  expect_op("max.relu.s32", 32, {32, 32}, rows,
            [](const uint64_t* r) { return static_cast<uint64_t>(std::max<int64_t>(0, std::max(sx(r[0], 32), sx(r[1], 32)))); });
  // 16x2: iA[i] = a[16i+15:16i], each half compared on its own.
  for (bool sign : {false, true})
    for (bool is_max : {false, true})
      for (bool relu : {false, true}) {
        if (relu && !sign) continue;
        std::string insn = std::string(is_max ? "max" : "min") + (relu ? ".relu" : "") + (sign ? ".s16x2" : ".u16x2");
        expect_op(insn, 32, {32, 32}, rows, [=](const uint64_t* r) {
          uint64_t d = 0;
          for (int i = 0; i < 2; ++i) {
            uint64_t x = r[0] >> (16 * i) & 0xffff, y = r[1] >> (16 * i) & 0xffff;
            int64_t vx = sign ? sx(x, 16) : static_cast<int64_t>(x), vy = sign ? sx(y, 16) : static_cast<int64_t>(y);
            int64_t v = is_max ? std::max(vx, vy) : std::min(vx, vy);
            if (relu && v < 0) v = 0;
            d |= (static_cast<uint64_t>(v) & 0xffff) << (16 * i);
          }
          return d;
        });
      }
}

TEST(IntegerSem, PopcClz) {  // §9.7.1.14, §9.7.1.15, transcribed loops
  for (int n : {32, 64}) {
    auto rows = rows_for({n}, 2048);
    for (int s = 0; s < n; ++s) rows.push_back(uint64_t{1} << s);
    std::string ty = n == 32 ? ".b32" : ".b64";
    expect_op("popc" + ty, 32, {n}, rows, [](const uint64_t* r) {
      uint64_t a = r[0], d = 0;
      while (a != 0) {
        if (a & 1) ++d;
        a >>= 1;
      }
      return d;
    });
    expect_op("clz" + ty, 32, {n}, rows, [n](const uint64_t* r) {
      uint64_t a = r[0], d = 0, msb = uint64_t{1} << (n - 1);
      while (d < static_cast<uint64_t>(n) && (a & msb) == 0) {
        ++d;
        a <<= 1;
      }
      return d;
    });
  }
}

TEST(IntegerSem, Bfind) {  // §9.7.1.16, transcribed
  for (const TypeInfo& t : kIntTypes) {
    if (t.bits == 16) continue;
    auto rows = rows_for({t.bits}, 2048);
    for (int s = 0; s < t.bits; ++s) rows.insert(rows.end(), {uint64_t{1} << s, ~(uint64_t{1} << s) & mask_of(t.bits)});
    for (bool shiftamt : {false, true}) {
      expect_op(std::string("bfind") + (shiftamt ? ".shiftamt" : "") + t.name, 32, {t.bits}, rows, [=](const uint64_t* r) {
        int msb = t.bits - 1;
        uint64_t a = r[0];
        if (t.sign && (a >> msb & 1)) a = ~a;
        uint64_t d = 0xffffffff;
        for (int i = msb; i >= 0; --i)
          if (a >> i & 1) {
            d = static_cast<uint64_t>(i);
            break;
          }
        if (shiftamt && d != 0xffffffff) d = static_cast<uint64_t>(msb) - d;
        return d;
      });
    }
  }
}

TEST(IntegerSem, Fns) {  // §9.7.1.17, transcribed; every base 0..31 and offsets -33..33
  std::vector<uint64_t> rows;
  for (uint64_t mask : {0x0ull, 0xffffffffull, 0xaaaaaaaaull, 0x80000001ull, 0x00f0f000ull, 0x12345678ull})
    for (uint64_t base = 0; base < 32; ++base)
      for (int64_t off = -33; off <= 33; ++off) rows.insert(rows.end(), {mask, base, static_cast<uint64_t>(off) & 0xffffffff});
  expect_op("fns.b32", 32, {32, 32, 32}, rows, [](const uint64_t* r) {
    uint64_t mask = r[0];
    int64_t base = static_cast<int64_t>(r[1]), offset = sx(r[2], 32);
    uint64_t d = 0xffffffff;
    if (offset == 0) {
      if (mask >> base & 1) d = static_cast<uint64_t>(base);
    } else {
      int64_t pos = base, count = (offset < 0 ? -offset : offset) - 1, inc = offset > 0 ? 1 : -1;
      while (pos >= 0 && pos < 32) {
        if (mask >> pos & 1) {
          if (count == 0) {
            d = static_cast<uint64_t>(pos);
            break;
          }
          --count;
        }
        pos += inc;
      }
    }
    return d;
  });
}

TEST(IntegerSem, Brev) {  // §9.7.1.18: d[i] = a[msb-i]
  for (int n : {32, 64})
    expect_op(n == 32 ? "brev.b32" : "brev.b64", n, {n}, rows_for({n}, 2048), [n](const uint64_t* r) {
      uint64_t d = 0;
      for (int i = 0; i < n; ++i) d |= (r[0] >> (n - 1 - i) & 1) << i;
      return d;
    });
}

// Positions and lengths around the edges and past 255.
std::vector<uint64_t> field_values() {
  return {0, 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 255, 256, 257, 0x1ff, 0x200, 0x201, 0x10001, 0xffffffff};
}
// The spec restricts pos and len to 8 bits; an H200 does so for 32-bit types only (integer.cpp).
uint64_t field_arg(uint64_t v, int bits) { return bits == 64 ? v : v & 0xff; }

TEST(IntegerSem, Bfe) {  // §9.7.1.19, transcribed
  for (const TypeInfo& t : kIntTypes) {
    if (t.bits == 16) continue;
    std::vector<uint64_t> rows;
    for (uint64_t a : {0x0ull, ~0ull, 0x8000000080000000ull, 0x7fffffff7fffffffull, 0x0123456789abcdefull, 0xfedcba9876543210ull})
      for (uint64_t pos : field_values())
        for (uint64_t len : field_values()) rows.insert(rows.end(), {a & mask_of(t.bits), pos, len});
    expect_op(std::string("bfe") + t.name, t.bits, {t.bits, 32, 32}, rows, [t](const uint64_t* r) {
      uint64_t msb = static_cast<uint64_t>(t.bits - 1), a = r[0], pos = field_arg(r[1], t.bits), len = field_arg(r[2], t.bits);
      uint64_t sbit = (!t.sign || len == 0) ? 0 : a >> std::min(pos + len - 1, msb) & 1;
      uint64_t d = 0;
      for (uint64_t i = 0; i <= msb; ++i) d |= ((i < len && pos + i <= msb) ? a >> (pos + i) & 1 : sbit) << i;
      return d;
    });
  }
}

TEST(IntegerSem, Bfi) {  // §9.7.1.20, transcribed
  for (int n : {32, 64}) {
    std::vector<uint64_t> rows;
    for (auto [a, b] : {std::pair{~0ull, 0ull}, {0ull, ~0ull}, {0x0123456789abcdefull, 0xfedcba9876543210ull}})
      for (uint64_t pos : field_values())
        for (uint64_t len : field_values()) rows.insert(rows.end(), {a & mask_of(n), b & mask_of(n), pos, len});
    expect_op(n == 32 ? "bfi.b32" : "bfi.b64", n, {n, n, 32, 32}, rows, [n](const uint64_t* r) {
      uint64_t msb = static_cast<uint64_t>(n - 1), pos = field_arg(r[2], n), len = field_arg(r[3], n), f = r[1];
      for (uint64_t i = 0; i < len && pos + i <= msb; ++i) f = (f & ~(uint64_t{1} << (pos + i))) | ((r[0] >> i & 1) << (pos + i));
      return f;
    });
  }
}

TEST(IntegerSem, Szext) {  // §9.7.1.21, transcribed; every b in 0..64 and some past
  for (bool sign : {false, true})
    for (bool clamp : {false, true}) {
      std::vector<uint64_t> rows;
      for (uint64_t a : {0x0ull, 0xffffffffull, 0x80000000ull, 0x7fffffffull, 0x12345678ull, 0x89abcdefull, 0x00008000ull})
        for (uint64_t b = 0; b <= 70; ++b) rows.insert(rows.end(), {a, b});
      for (uint64_t b : {0x100ull, 0x80000000ull, 0xffffffffull}) rows.insert(rows.end(), {0x89abcdefull, b});
      std::string insn = std::string("szext") + (clamp ? ".clamp" : ".wrap") + (sign ? ".s32" : ".u32");
      expect_op(insn, 32, {32, 32}, rows, [=](const uint64_t* r) {
        uint32_t a = static_cast<uint32_t>(r[0]), b = static_cast<uint32_t>(r[1]);
        uint32_t b1 = b & 0x1f;
        bool too_large = b >= 32 && clamp;
        uint32_t mask = too_large ? 0 : ~0u << b1;
        uint32_t sign_pos = (b1 - 1) & 0x1f;
        bool sign_bit = (b1 == 0 || too_large || !sign) ? false : (a >> sign_pos & 1);
        return uint64_t{(a & ~mask) | (sign_bit ? mask : 0)};
      });
    }
  // The spec's example: szext.wrap.u32 d, 0xffffffff, 0 gives 0.
  expect_op("szext.wrap.u32", 32, {32, 32}, {0xffffffff, 0}, [](const uint64_t*) { return uint64_t{0}; });
}

TEST(IntegerSem, Bmsk) {  // §9.7.1.22, transcribed; a and b over 0..40 and some past
  for (bool clamp : {false, true}) {
    std::vector<uint64_t> vals;
    for (uint64_t v = 0; v <= 40; ++v) vals.push_back(v);
    for (uint64_t v : {63ull, 64ull, 0x100ull, 0xffffffffull}) vals.push_back(v);
    std::vector<uint64_t> rows;
    for (uint64_t a : vals)
      for (uint64_t b : vals) rows.insert(rows.end(), {a, b});
    expect_op(clamp ? "bmsk.clamp.b32" : "bmsk.wrap.b32", 32, {32, 32}, rows, [=](const uint64_t* r) {
      uint32_t a = static_cast<uint32_t>(r[0]), b = static_cast<uint32_t>(r[1]);
      uint32_t a1 = a & 0x1f, mask0 = ~0u << a1, b1 = b & 0x1f, sum = a1 + b1;
      uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;  // (the spec's ~0 << sum; sum < 32 here)
      bool sum_overflow = sum >= 32, pos_overflow = false, width_overflow = false;
      if (clamp) {
        if (a >= 32) {
          pos_overflow = true;
          mask0 = 0;
        }
        if (b >= 32) width_overflow = true;
      }
      if (sum_overflow || pos_overflow || width_overflow) mask1 = 0;
      else if (b1 == 0) mask1 = ~0u;
      return uint64_t{mask0 & ~mask1};
    });
  }
  expect_op("bmsk.wrap.b32", 32, {32, 32}, {1, 2}, [](const uint64_t*) { return uint64_t{6}; });  // the spec's example
}

TEST(IntegerSem, Dp4aDp2a) {  // §9.7.1.23, §9.7.1.24
  auto rows = rows_for({32, 32, 32}, 2048);
  for (bool sa : {false, true})
    for (bool sb : {false, true}) {
      auto ext = [](uint64_t v, int i, int w, bool s) {
        uint64_t f = v >> (w * i) & mask_of(w);
        return s ? sx(f, w) : static_cast<int64_t>(f);
      };
      std::string types = std::string(sa ? ".s32" : ".u32") + (sb ? ".s32" : ".u32");
      expect_op("dp4a" + types, 32, {32, 32, 32}, rows, [=](const uint64_t* r) {
        int64_t d = static_cast<int64_t>(r[2]);
        for (int i = 0; i < 4; ++i) d += ext(r[0], i, 8, sa) * ext(r[1], i, 8, sb);
        return static_cast<uint64_t>(d);
      });
      for (bool hi : {false, true})
        expect_op(std::string("dp2a") + (hi ? ".hi" : ".lo") + types, 32, {32, 32, 32}, rows, [=](const uint64_t* r) {
          int64_t d = static_cast<int64_t>(r[2]);
          for (int i = 0; i < 2; ++i) d += ext(r[0], i, 16, sa) * ext(r[1], (hi ? 2 : 0) + i, 8, sb);
          return static_cast<uint64_t>(d);
        });
    }
}

}  // namespace
}  // namespace ptxvm::test
