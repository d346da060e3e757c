// Shared-memory matrix descriptors and the canonical layouts they describe (PTX §9.7.15.5.1,
// 001_23fdd5978b24a3ed.txt): how wgmma.mma_async (and later tcgen05.mma) finds element (mn, k)
// of an A or B operand in shared memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ptxvm::mma {

// Bits 62-63 of a descriptor (§9.7.15.5.1.2.2 table): the swizzle the operand was stored with.
// B128Atom32 is tcgen05's mode 1 only: 128-byte swizzling with 32-byte atomicity.
enum class Swizzle : uint8_t { None = 0, B128 = 1, B64 = 2, B32 = 3, B128Atom32 = 4 };

// A decoded 64-bit matrix descriptor, in bytes: start address (bits 0-13), leading- and
// stride-dimension byte offsets (bits 16-29, 32-45), each encoded as (x & 0x3FFFF) >> 4;
// the base offset (bits 49-51) and the swizzle mode.
struct MatrixDescriptor {
  uint32_t start = 0, leading = 0, stride = 0;
  uint8_t base_offset = 0;
  Swizzle swizzle = Swizzle::None;
  // tcgen05's bit 52 (§9.7.16.3.1.2, sm_103a): `leading` is the absolute address at which a K-major
  // 128B-swizzled row continues past the 128-byte row its start lies in.
  bool absolute_leading = false;
};

MatrixDescriptor decode_descriptor(uint64_t bits);

// The shared-memory address, in bits (an element of fewer than 8 bits sits inside its byte), of
// element (mn, k) of an operand stored `k_major` (K contiguous within a 16-byte row chunk) or
// MN-major, with elements of `elem_bits` bits, under the canonical layout of §9.7.15.5.1.2.1.3
// for the descriptor's swizzle (T = 128 / elem_bits elements per 16 bytes):
//   K-major   none  ((8,m),(T,2k)):((1T,SBO),(1,LBO))     MN-major none  ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
//             32B   ((8,m),(T,2k)):((2T,SBO),(1,T))                32B   ((T,2,m),(8,k)):((1,T,LBO),(2T,SBO))
//             64B   ((8,m),(T,2k)):((4T,SBO),(1,T))                64B   ((T,4,m),(8,k)):((1,T,LBO),(4T,SBO))
//             128B  ((8,m),(T,2k)):((8T,SBO),(1,T))                128B  ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))
// then Swizzle<B,4,3> on the byte address (B = 1, 2, 3 for 32B, 64B, 128B): bits 4..4+B of the
// address XOR bits 7..7+B, which repeat every 256, 512, 1024 bytes, less the base offset: the
// pattern row of an address is ((address >> 7) - base offset) mod 2^B. So the swizzle follows
// the absolute address (a start address inside a pattern needs no base offset), and a base
// offset of (start >> 7) & 7 anchors the pattern at the start instead (H100: tests/hw/wgmma).
// A tcgen05 shared-memory descriptor (§9.7.16.4.1 Table 40, 000_70a4b524dfe259fa.txt): the
// fields above, the fixed 0b001 in bits 46-48, the leading-dimension mode in bit 52, and a 3-bit
// swizzle in bits 61-63 (0 none, 1 128B with 32B atomicity, 2 128B, 4 64B, 6 32B) that is the
// wgmma encoding in bits 62-63 with bit 61 added. The canonical layouts (§9.7.16.3.3) are
// wgmma's, and for mode 1 (MN-major only, Table 53: atoms of 8 x 4 128-bit elements)
//   ((T,8,m),(4,k)):((1,T,LBO),(8T,SBO)) then Swizzle<2,5,2>: address bits 5-6 XOR bits 7-8
// (CUTLASS's SWIZZLE_128B_BASE32B, cute/arch/mma_sm100_desc.hpp). Bit 52 set: the absolute
// leading-dimension mode, whose restrictions (§9.7.16.3.1.2.1: 128B swizzle, base offset 0) are
// checked here and whose K-major rule by the reader. Returns what makes `bits` invalid, else nullopt.
std::optional<std::string> decode_tcgen05_descriptor(uint64_t bits, MatrixDescriptor& out);

// Inline: the operand readers call it per 16-byte chunk.
inline uint64_t element_bit_address(const MatrixDescriptor& d, bool k_major, unsigned elem_bits, unsigned mn,
                                    unsigned k) {
  const unsigned per_chunk = 128 / elem_bits;  // T: elements in 16 bytes
  if (d.swizzle == Swizzle::B128Atom32) {  // MN-major: 4 K rows of 128 bytes per atom, 32-byte units
    const unsigned inner = mn % per_chunk, chunk = mn / per_chunk;
    uint64_t address = d.start + (chunk % 8) * 16 + (chunk / 8) * uint64_t{d.leading} + (k % 4) * 128 +
                       (k / 4) * uint64_t{d.stride} + inner * elem_bits / 8;
    address ^= (((address >> 7) - d.base_offset) & 3) << 5;  // Swizzle<2,5,2>
    return address * 8 + inner * elem_bits % 8;
  }
  const unsigned swizzle_bits = d.swizzle == Swizzle::B128 ? 3 : d.swizzle == Swizzle::B64 ? 2
                                : d.swizzle == Swizzle::B32 ? 1 : 0;
  const uint64_t row_bytes = 16u << swizzle_bits;  // a swizzle pattern's row: 16, 32, 64, 128
  uint64_t bytes;       // offset of the element's 16-byte chunk from the start address
  unsigned inner;       // the element's place inside its chunk
  uint64_t origin = d.start;
  if (k_major) {
    inner = k % per_chunk;
    const uint64_t row = mn % 8, group = mn / 8, chunk = k / per_chunk;
    bytes = row * row_bytes + group * d.stride + chunk * (swizzle_bits ? 16 : d.leading);
    // Absolute mode: the chunks past the start's 128-byte row come from `leading`, from its first
    // 16 bytes on (CUTLASS's sm_103a K = 96 main loop reads 48 contiguous bytes of K across its
    // circular stage buffers only this way: sm103_blockscaled_mma_warpspecialized.hpp).
    if (const uint64_t column = (d.start >> 4) % 8 + chunk; d.absolute_leading && column >= 8)
      origin = d.leading, bytes = row * row_bytes + group * d.stride + (column - 8) * 16;
  } else if (!swizzle_bits) {
    inner = mn % per_chunk;
    bytes = (mn / per_chunk) * d.stride + (k % 8) * 16 + (k / 8) * d.leading;
  } else {
    inner = mn % per_chunk;
    const uint64_t chunks = row_bytes / 16, chunk = mn / per_chunk;
    bytes = (chunk % chunks) * 16 + (chunk / chunks) * d.leading + (k % 8) * row_bytes + (k / 8) * d.stride;
  }
  const uint64_t inner_bits = uint64_t{inner} * elem_bits;
  uint64_t address = origin + bytes + inner_bits / 8;
  const uint64_t mask = (uint64_t{1} << swizzle_bits) - 1;
  address ^= (((address >> 7) - d.base_offset) & mask) << 4;  // Swizzle<B,4,3>, shifted by the base offset
  return address * 8 + inner_bits % 8;
}

}  // namespace ptxvm::mma
