// Inputs of the tensor-core hardware vectors, regenerated from seeds: shared, unchanged, by
// record_mma.cu (which ran on the GPU) and tests/sem/mma_hw_test.cpp (which replays them through
// ptxvm). Integer arithmetic only, so every host computes the same bits.
//
// Per warp: [block words][32 lanes x in-words]; the operand list of classes.inc says which words
// hold which type. Each warp draws its values in one of eight modes, so that every recording has
// raw bit patterns, ordinary values, wide exponent spreads (alignment), exact cancellation, special
// values (NaN, Inf, zeros, subnormals), a dominant or negligible C, and near cancellation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

#include "../splitmix64.h"

namespace ptxvm_hw_mma {

using ptxvm_hw_seed::splitmix64;

struct Operand {
  std::string name, type;
  unsigned words;
};

inline std::vector<Operand> parse_operands(const std::string& s) {
  std::vector<Operand> r;
  std::istringstream in(s);
  std::string item;
  while (in >> item) {
    size_t a = item.find(':'), b = item.rfind(':');
    r.push_back({item.substr(0, a), item.substr(a + 1, b - a - 1), unsigned(std::stoul(item.substr(b + 1)))});
  }
  return r;
}

enum Mode { kRaw, kNormal, kWide, kSmallInt, kSpecial, kDominantC, kSpread, kNearCancel, kModes };

// An IEEE-style binary format by field widths; `ieee`: all-ones exponent is Inf/NaN (not for
// e4m3, whose only NaN is S.1111.111).
struct Fmt {
  int ebits, mbits;
  bool ieee = true;
  int bias() const { return (1 << (ebits - 1)) - 1; }
  int width() const { return 1 + ebits + mbits; }
  uint64_t make(bool neg, int e, uint64_t man) const {
    int field = e + bias();
    const int top = ieee ? (1 << ebits) - 2 : (1 << ebits) - 1;
    if (field < 0) field = 0;
    if (field > top) field = top;
    uint64_t bits = uint64_t(field) << mbits | (man & ((uint64_t{1} << mbits) - 1));
    if (!ieee && field == top && (bits & ((uint64_t{1} << mbits) - 1)) == ((uint64_t{1} << mbits) - 1))
      bits -= 1;  // keep e4m3 finite
    return (neg ? uint64_t{1} << (ebits + mbits) : 0) | bits;
  }
};

inline bool float_fmt(const std::string& t, Fmt& f) {
  if (t == "f16") f = {5, 10};
  else if (t == "bf16") f = {8, 7};
  else if (t == "tf32" || t == "f32") f = {8, 23};
  else if (t == "f64") f = {11, 52};
  else if (t == "e4m3") f = {4, 3, false};
  else if (t == "e5m2") f = {5, 2};
  else return false;
  return true;
}

// One element of a float format in mode `m`; `scale` shifts the exponent (per-warp, per-operand).
inline uint64_t float_element(const Fmt& f, Mode m, int scale, uint64_t& s) {
  const uint64_t r = splitmix64(s);
  const bool neg = r & 1;
  const uint64_t man = r >> 11;
  const int emin = 1 - f.bias(), emax = f.bias();
  auto clamp = [&](int e) { return e < emin - f.mbits ? emin - f.mbits : e > emax ? emax : e; };
  auto value = [&](int e) {  // below emin: a subnormal
    if (e < emin) return (neg ? uint64_t{1} << (f.ebits + f.mbits) : 0) | ((man | uint64_t{1} << f.mbits) >> (emin - e + 1) & ((uint64_t{1} << f.mbits) - 1));
    return f.make(neg, e, man);
  };
  const int spread = std::min(emax, 14);
  switch (m) {
  case kRaw: return r >> (64 - f.width());
  case kNormal: return value(clamp(scale + int(r >> 40 & 7) - 3));
  case kWide: return value(clamp(int((r >> 40) % uint64_t(emax - emin + f.mbits + 1)) + emin - f.mbits));
  case kSmallInt: {  // ±{0..3} * 2^scale: products and sums cancel exactly
    int k = int(r >> 40 & 3);
    if (k == 0) return neg ? uint64_t{1} << (f.ebits + f.mbits) : 0;
    return f.make(neg, clamp(scale + (k == 2)), k == 3 ? uint64_t{1} << (f.mbits - 1) : 0);
  }
  case kSpecial: {
    switch (r >> 40 & 15) {
    case 0: return (neg ? uint64_t{1} << (f.ebits + f.mbits) : 0);                      // ±0
    case 1: return f.ieee ? f.make(neg, emax, 0) + (uint64_t{1} << f.mbits) : f.make(neg, emax, ~0ull);  // ±Inf / max
    case 2: {  // NaN: all-ones exponent, random non-zero payload (e4m3: S.1111.111 only)
      const uint64_t mm = (uint64_t{1} << f.mbits) - 1;
      const uint64_t payload = f.ieee ? (man & mm) | 1 : mm;
      return (neg ? uint64_t{1} << (f.ebits + f.mbits) : 0) | (uint64_t((1 << f.ebits) - 1) << f.mbits) | payload;
    }
    case 3: return value(emin - 1 - int(r >> 44 & 3));                                 // subnormal
    case 4: return f.make(neg, emax, ~0ull);                                           // max finite
    default: return value(clamp(scale + int(r >> 40 & 7) - 3));
    }
  }
  case kDominantC: return value(clamp(scale + int(r >> 40 & 3) - 1));
  case kSpread: return value(clamp(scale + int((r >> 40) % uint64_t(2 * spread + 1)) - spread));
  case kNearCancel: {  // 1.xxx with only the low mantissa bits random: sums cancel to low bits
    const uint64_t low = man & ((uint64_t{1} << (f.mbits / 2 + 1)) - 1);
    return f.make(neg, clamp(scale), (uint64_t{1} << (f.mbits - 1)) | low);
  }
  default: return 0;
  }
}

inline uint64_t int_element(const std::string& t, Mode m, uint64_t& s) {
  const uint64_t r = splitmix64(s);
  const int bits = t == "s8" || t == "u8" ? 8 : t == "s4" || t == "u4" ? 4 : 32;
  const uint64_t mask = bits == 32 ? 0xffffffffull : (uint64_t{1} << bits) - 1;
  if (m == kSpecial || m == kDominantC) {  // extremes: 0, max, min, -1
    const uint64_t ext[4] = {0, mask >> 1, (mask >> 1) + 1, mask};
    if (t == "s32" && m == kDominantC) return (r & 1) ? 0x7fffff00u + (r >> 56) : 0x80000000u + (r >> 56);
    return ext[r >> 40 & 3];
  }
  return r & mask;
}

// The per-lane words of operand `op` for one lane, appended to `w`.
// `tf32`: the class multiplies .tf32 (its sparse metadata differs).
inline void operand_words(const Operand& op, Mode m, int scale, bool tf32, uint64_t& s, std::vector<uint32_t>& w) {
  Fmt f;
  if (op.type == "meta") {  // valid ordered 2:4 indices per nibble; 1:2 for .tf32 (§9.7.14.6.1)
    static const uint32_t nib[6] = {0x4, 0x8, 0x9, 0xC, 0xD, 0xE};
    uint32_t v = 0;
    for (int i = 0; i < 8; ++i) {
      const uint64_t r = splitmix64(s);
      v |= (tf32 ? (r % 2 ? 0xEu : 0x4u) : nib[r % 6]) << (4 * i);
    }
    w.push_back(v);
  } else if (op.type == "b32" || op.type == "b1") {
    for (unsigned i = 0; i < op.words; ++i) w.push_back(uint32_t(splitmix64(s)));
  } else if (float_fmt(op.type, f)) {
    if (op.type == "f64") {
      for (unsigned i = 0; i < op.words / 2; ++i) {
        uint64_t v = float_element(f, m, scale, s);
        w.push_back(uint32_t(v));
        w.push_back(uint32_t(v >> 32));
      }
    } else if (op.type == "tf32") {  // f32 containers: random low 13 bits too
      for (unsigned i = 0; i < op.words; ++i) w.push_back(uint32_t(float_element(f, m, scale, s)) ^ uint32_t(splitmix64(s) & 0x1fff));
    } else {
      const int per = 32 / f.width();
      for (unsigned i = 0; i < op.words; ++i) {
        uint32_t v = 0;
        for (int j = 0; j < per; ++j) v |= uint32_t(float_element(f, m, scale, s)) << (j * f.width());
        w.push_back(v);
      }
    }
  } else {  // integers
    const int bits = op.type == "s8" || op.type == "u8" ? 8 : op.type == "s4" || op.type == "u4" ? 4 : 32;
    for (unsigned i = 0; i < op.words; ++i) {
      uint32_t v = 0;
      for (int j = 0; j < 32 / bits; ++j) v |= uint32_t(int_element(op.type, m, s)) << (j * bits);
      w.push_back(v);
    }
  }
}

// All input words of `warps` warps of one class.
inline std::vector<uint32_t> class_inputs(unsigned in_words, unsigned block_words,
                                          const std::string& operands, uint64_t seed, unsigned warps) {
  const std::vector<Operand> ops = parse_operands(operands);
  bool tf32 = false;
  for (const Operand& op : ops) tf32 = tf32 || op.type == "tf32";
  std::vector<uint32_t> w;
  w.reserve(size_t(warps) * (block_words + 32 * in_words));
  uint64_t s = seed;
  for (unsigned warp = 0; warp < warps; ++warp) {
    const Mode m = Mode(warp % kModes);
    for (unsigned i = 0; i < block_words; ++i) w.push_back(uint32_t(splitmix64(s)));
    // exponent offsets per operand for this warp: A and B near 2^0, C far away for kDominantC
    const int scale_ab = int(splitmix64(s) % 5) - 2;
    const int scale_c = m == kDominantC ? ((splitmix64(s) & 1) ? 1 : -1) * int(8 + splitmix64(s) % 24) : 2 * scale_ab;
    // ldmatrix/stmatrix row addresses: distinct 16-byte rows of the warp's 4 KB
    std::vector<uint32_t> rows(256);
    for (unsigned i = 0; i < 256; ++i) rows[i] = i;
    for (unsigned i = 255; i > 0; --i) std::swap(rows[i], rows[splitmix64(s) % (i + 1)]);
    for (unsigned lane = 0; lane < 32; ++lane) {
      const size_t before = w.size();
      for (const Operand& op : ops) {
        if (op.name == "o") w.push_back(rows[lane] * 16);
        else operand_words(op, m, op.name == "c" ? scale_c : scale_ab, tf32, s, w);
      }
      if (w.size() - before != in_words) throw std::runtime_error("operand words disagree with classes.inc: " + operands);
    }
  }
  return w;
}

}  // namespace ptxvm_hw_mma
