// Operands of the floating-point hardware vectors, regenerated from seeds: shared, unchanged,
// by record_float.cu (which ran on the GPU) and tests/sem/float_hw_test.cpp (which replays
// them through ptxvm). Integer arithmetic only, so every host computes the same bits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw_float {

using ptxvm_hw_seed::splitmix64;

// An IEEE binary format by its field widths.
struct Fmt {
  int ebits, mbits;
  int bias() const { return (1 << (ebits - 1)) - 1; }
  uint64_t sign() const { return uint64_t{1} << (ebits + mbits); }
  uint64_t man_mask() const { return (uint64_t{1} << mbits) - 1; }
  int emax_field() const { return (1 << ebits) - 1; }
  // sign, unbiased exponent (clamped to the finite range), mantissa field
  uint64_t make(bool neg, int e, uint64_t man) const {
    int field = e + bias();
    if (field < 1) field = 1;
    if (field > emax_field() - 1) field = emax_field() - 1;
    return (neg ? sign() : 0) | uint64_t(field) << mbits | (man & man_mask());
  }
};
inline constexpr Fmt kF64{11, 52}, kF32{8, 23}, kF16{5, 10}, kBF16{8, 7};

// Values where arithmetic changes behaviour: zeros, subnormal ends, the normal boundary,
// 1 and its neighbours, small integers, the integer-exact limit, the top of the range,
// infinities and NaNs (quiet, signalling, with payloads, negative).
inline std::vector<uint64_t> edges(const Fmt& f) {
  const uint64_t m = f.man_mask(), one = uint64_t(f.bias()) << f.mbits;
  const uint64_t inf = uint64_t(f.emax_field()) << f.mbits;
  std::vector<uint64_t> mag = {0, 1, 2, m, m >> 1, uint64_t{1} << (f.mbits - 1), m + 1, m + 2,
                               one, one + 1, one - 1, one | uint64_t{1} << (f.mbits - 1),
                               one + (uint64_t{1} << f.mbits), one - (uint64_t{1} << f.mbits),
                               one + (uint64_t{3} << (f.mbits - 1)) + (uint64_t{1} << f.mbits),
                               f.make(false, f.mbits, 0), f.make(false, -f.mbits - 1, 0),
                               f.make(false, 1, 0x490fdaa22168c234ull >> (63 - f.mbits)),
                               inf - 1, inf - 2, inf - (uint64_t{1} << f.mbits),
                               f.make(false, f.bias() / 2, 0), f.make(false, -f.bias() / 2, 0), inf};
  std::vector<uint64_t> out;
  for (uint64_t v : mag) {
    out.push_back(v);
    out.push_back(v | f.sign());
  }
  const uint64_t q = uint64_t{1} << (f.mbits - 1);
  for (uint64_t v : {inf | q, inf | q | f.sign(), inf | 1, inf | m, inf | q | 0x15, inf | 1 | f.sign()})
    out.push_back(v);
  return out;
}

struct Operands {
  std::vector<uint64_t> a, b, c;
};

__extension__ typedef unsigned __int128 U128;  // GCC/Clang/NVCC extension

// The high `bits` bits of the product of two significands (with their implicit ones).
inline uint64_t product_top(const Fmt& f, uint64_t ma, uint64_t mb) {
  const U128 p = static_cast<U128>(ma | (f.man_mask() + 1)) * (mb | (f.man_mask() + 1));
  return static_cast<uint64_t>(p >> f.mbits);  // 2^mbits <= top < 2^(mbits+2)
}

// Operands for one scalar format: every pair of edges (c a third edge), then `n` generated
// triples, an eighth each of: raw bits; exponents within +-20; b close to -a or a
// (cancellation); products near the subnormal boundary; products near overflow; c close
// to -(a*b) (fma cancellation); b a half-ulp-sized tie or sticky tail of a; subnormals.
inline Operands operands(const Fmt& f, uint64_t seed, size_t n) {
  Operands o;
  const std::vector<uint64_t> e = edges(f);
  for (size_t i = 0; i < e.size(); ++i)
    for (size_t j = 0; j < e.size(); ++j) {
      o.a.push_back(e[i]);
      o.b.push_back(e[j]);
      o.c.push_back(e[(i * 7 + j * 3 + 1) % e.size()]);
    }
  uint64_t s = seed;
  const uint64_t width_mask = f.sign() | (f.sign() - 1);
  const int emin = 1 - f.bias(), emax = f.bias();
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = splitmix64(s), ra = splitmix64(s), rb = splitmix64(s), rc = splitmix64(s);
    const bool sa = ra >> 63, sb = rb >> 63, sc = rc >> 63;
    const uint64_t ma = ra & f.man_mask(), mb = rb & f.man_mask(), mc = rc & f.man_mask();
    const int small = static_cast<int>((r >> 8) % 41) - 20;
    const int d = static_cast<int>((r >> 16) % 7) - 3;
    const int ea = small, eb = static_cast<int>((r >> 24) % 41) - 20, ec = static_cast<int>((r >> 32) % 41) - 20;
    uint64_t a = f.make(sa, ea, ma), b = f.make(sb, eb, mb), c = f.make(sc, ec, mc);
    switch (r & 7) {
      case 0: a = ra & width_mask; b = rb & width_mask; c = rc & width_mask; break;
      case 1: break;
      case 2: {  // b = -a or a with a few low bits changed, exponent moved by at most one
        const uint64_t low = mb & ((uint64_t{1} << ((r >> 40) % (f.mbits + 1))) - 1);
        b = f.make(((r >> 48) & 1) ? !sa : sa, ea + (d % 2), ma ^ low);
        break;
      }
      case 3: {  // a*b near 2^emin, c tiny
        const int x = emin / 2 + small / 4;
        a = f.make(sa, x, ma);
        b = f.make(sb, emin - x + d, mb);
        c = f.make(sc, emin + d, mc);
        break;
      }
      case 4: {  // a*b near 2^emax
        const int x = emax / 2 + small / 4;
        a = f.make(sa, x, ma);
        b = f.make(sb, emax - x + d + 1, mb);
        c = f.make(sc, emax + d / 2, mc);
        break;
      }
      case 5: {  // c close to -(a*b)
        const uint64_t top = product_top(f, ma, mb);
        const int carry = top >> (f.mbits + 1) ? 1 : 0;
        const uint64_t man = (top >> carry) + static_cast<uint64_t>(d);
        c = f.make(((r >> 48) & 1) ? sa == sb : sa != sb, ea + eb + carry, man);
        break;
      }
      case 6: {  // b a tie or sticky tail of a: exponents mbits+1 (+-1) and far below
        const int gap = ((r >> 40) & 3) == 3 ? f.mbits + 5 + static_cast<int>((r >> 44) % 40)
                                             : f.mbits + 1 + d / 2;
        b = f.make(sb, ea - gap, ((r >> 50) & 1) ? 0 : mb);
        break;
      }
      case 7:  // subnormals and tiny normals
        a = (sa ? f.sign() : 0) | (ra & (((r >> 40) & 1) ? f.man_mask() : f.man_mask() * 4 + 3));
        b = ((r >> 41) & 1) ? f.make(sb, emin + (d + 3), mb) : (sb ? f.sign() : 0) | (rb & f.man_mask());
        break;
    }
    o.a.push_back(a);
    o.b.push_back(b);
    o.c.push_back(c);
  }
  return o;
}

// Packed pairs: the high halves from one scalar list, the low halves from another seed.
inline Operands packed(const Fmt& f, uint64_t seed, size_t n) {
  const Operands hi = operands(f, seed, n), lo = operands(f, seed + 1000, n);
  Operands o;
  const size_t m = hi.a.size();
  for (size_t i = 0; i < m; ++i) {
    const size_t k = (i * 40503 + 12345) % m;  // a permutation when gcd(40503, m) = 1
    o.a.push_back(hi.a[i] << 16 | lo.a[k]);
    o.b.push_back(hi.b[i] << 16 | lo.b[k]);
    o.c.push_back(hi.c[i] << 16 | lo.c[k]);
  }
  return o;
}

// The input sets: name, element bytes, operands. N_RANDOM per set is fixed here.
enum Set { F32, F64, F16, BF16, F16X2, BF16X2, U16 };
inline const char* set_name(Set s) {
  static const char* n[] = {"f32", "f64", "f16", "bf16", "f16x2", "bf16x2", "u16"};
  return n[s];
}
inline size_t set_bytes(Set s) { return s == F64 ? 8 : s == F16 || s == BF16 || s == U16 ? 2 : 4; }

inline Operands set_operands(Set s) {
  switch (s) {
    case F32: return operands(kF32, 1, 12288);
    case F64: return operands(kF64, 2, 8192);
    case F16: return operands(kF16, 3, 8192);
    case BF16: return operands(kBF16, 4, 8192);
    case F16X2: return packed(kF16, 5, 4096);
    case BF16X2: return packed(kBF16, 6, 4096);
    case U16: {  // every 16-bit pattern (unary f16/bf16 functions)
      Operands o;
      for (uint64_t i = 0; i < 65536; ++i) {
        o.a.push_back(i);
        o.b.push_back((i * 40503 + 12345) & 0xffff);
        o.c.push_back((i * 7 + 3) & 0xffff);
      }
      return o;
    }
  }
  return {};
}

}  // namespace ptxvm_hw_float
