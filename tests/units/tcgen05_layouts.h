// The shared-memory side of tcgen05.mma as the tests lay it out, written from the ISA
// (000_70a4b524dfe259fa.txt): the matrix descriptor (§9.7.16.4.1 Table 40) and the canonical
// layouts (§9.7.16.3.3, in CuTe form) with their swizzles. Independent of src/mma/descriptor.
#pragma once

#include <cstdint>

namespace ptxvm::test {

// Swizzle modes of the descriptor's bits 61-63 and the rows of their pattern (16-byte units).
// B128A32 is 128B swizzling with 32-byte atomicity, for MN-major operands (Table 53).
enum class Swz { None = 0, B128A32 = 1, B128 = 2, B64 = 4, B32 = 6 };
inline unsigned swizzle_rows(Swz s) {
  return s == Swz::B128 || s == Swz::B128A32 ? 8 : s == Swz::B64 ? 4 : s == Swz::B32 ? 2 : 1;
}

// The tcgen05 shared-memory descriptor (Table 40).
inline uint64_t sdesc(uint32_t start, uint32_t lbo, uint32_t sbo, Swz s) {
  return uint64_t{(start & 0x3ffff) >> 4} | uint64_t{(lbo & 0x3ffff) >> 4} << 16 | uint64_t{(sbo & 0x3ffff) >> 4} << 32 |
         uint64_t{1} << 46 | uint64_t(s) << 61;
}

// Bit offset of element (mn, k) under the canonical layout of §9.7.16.3.3 (T elements of
// `ebits` per 16 bytes; strides in elements as the table gives them, LBO/SBO in bytes), then
// Swizzle<B,4,3> on its byte (16-byte chunks move whole).
inline uint64_t canonical_bit(bool k_major, Swz s, unsigned ebits, uint32_t lbo, uint32_t sbo, unsigned mn, unsigned k) {
  const unsigned T = 128 / ebits, C = swizzle_rows(s);
  uint64_t bits;
  if (k_major) {  // ((8,m),(T,2k)):((C*T,SBO),(1, none ? LBO : T))
    const uint64_t row = mn % 8, grp = mn / 8, t = k % T, chunk = k / T;
    bits = (row * C * T + t) * ebits + grp * sbo * 8 + chunk * (s == Swz::None ? lbo * 8 : uint64_t{T} * ebits);
  } else if (s == Swz::B128A32) {  // ((T,8,m),(4,k)):((1,T,LBO),(8T,SBO)), then Swizzle<2,5,2>
    const uint64_t t = mn % T, c = (mn / T) % 8, grp = mn / (T * 8), r = k % 4, kk = k / 4;
    uint64_t byte = ((t + c * T + r * 8 * T) * ebits + grp * lbo * 8 + kk * sbo * 8) / 8;
    byte ^= ((byte >> 7) & 3) << 5;
    return byte * 8 + (t * ebits) % 8;
  } else if (s == Swz::None) {  // ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
    const uint64_t t = mn % T, grp = mn / T, r = k % 8, kk = k / 8;
    bits = (t + r * T) * ebits + grp * sbo * 8 + kk * lbo * 8;
  } else {  // ((T,C,m),(8,k)):((1,T,LBO),(C*T,SBO))
    const uint64_t t = mn % T, c = (mn / T) % C, grp = mn / (T * C), r = k % 8, kk = k / 8;
    bits = (t + c * T + r * C * T) * ebits + grp * lbo * 8 + kk * sbo * 8;
  }
  uint64_t byte = bits / 8;
  const unsigned b = s == Swz::B128 ? 3 : s == Swz::B64 ? 2 : s == Swz::B32 ? 1 : 0;
  byte ^= ((byte >> 7) & ((1u << b) - 1)) << 4;
  return byte * 8 + bits % 8;
}

inline uint32_t canonical(bool k_major, Swz s, unsigned ebits, uint32_t lbo, uint32_t sbo, unsigned mn, unsigned k) {
  return static_cast<uint32_t>(canonical_bit(k_major, s, ebits, lbo, sbo, mn, k) / 8);
}

// LBO and SBO (bytes) of an operand of `mns` rows laid out as the tests do: one MN group after
// another, then K chunks (no swizzle) or K groups of 8 (MN-major swizzled) after all of them. A
// swizzled K-major operand keeps its whole K inside one atom row.
inline void canonical_strides(bool k_major, Swz s, unsigned ebits, unsigned mns, uint32_t& lbo, uint32_t& sbo) {
  const unsigned T = 128 / ebits, C = swizzle_rows(s);
  if (k_major) {  // 8 rows x (C*16 bytes) atoms; SBO between 8-row groups; LBO between 16-byte K chunks (none)
    sbo = 8 * 16 * C;
    lbo = s == Swz::None ? sbo * (mns / 8) : 16;
  } else if (s == Swz::None) {  // T x 8 core matrices: SBO between MN groups, LBO between K groups of 8
    sbo = 128;
    lbo = 128 * (mns / T);
  } else if (s == Swz::B128A32) {  // atoms of 8T MN elements x 4 K: LBO between them, SBO between K groups of 4
    lbo = 512;
    sbo = lbo * (mns / (T * 8));
  } else {  // atoms of C*T MN elements x 8 K: LBO between MN atoms, SBO between K groups of 8
    lbo = 128 * C;
    sbo = lbo * (mns / (T * C));
  }
}

// The descriptor's move (in its 16-byte units) for one MMA's K of 32 bytes: K-major swizzled
// moves inside the atom row, K-major none by two chunks (2 LBO), MN-major by K/8 groups (K/4
// with 32-byte atomicity).
inline uint64_t k_step(bool k_major, Swz s, unsigned ebits, uint32_t lbo, uint32_t sbo) {
  if (k_major) return (s == Swz::None ? 2 * lbo : 32) >> 4;
  if (s == Swz::B128A32) return (256 / ebits / 4) * sbo >> 4;
  return (256 / ebits / 8) * (s == Swz::None ? lbo : sbo) >> 4;
}

}  // namespace ptxvm::test
