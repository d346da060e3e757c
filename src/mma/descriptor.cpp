// PTX §9.7.15.5.1 (001_23fdd5978b24a3ed.txt): matrix descriptors and canonical layouts.
#include "mma/descriptor.h"

namespace ptxvm::mma {

MatrixDescriptor decode_descriptor(uint64_t bits) {
  auto field = [&](unsigned lo) { return static_cast<uint32_t>((bits >> lo) & 0x3FFF) << 4; };
  MatrixDescriptor d;
  d.start = field(0);
  d.leading = field(16);
  d.stride = field(32);
  d.base_offset = static_cast<uint8_t>((bits >> 49) & 7);
  d.swizzle = static_cast<Swizzle>(bits >> 62);
  return d;
}

std::optional<std::string> decode_tcgen05_descriptor(uint64_t bits, MatrixDescriptor& out) {
  out = decode_descriptor(bits);
  const unsigned swizzle = static_cast<unsigned>(bits >> 61);
  if (((bits >> 46) & 7) != 1)
    return "bits 46-48 of the shared-memory descriptor must hold the constant 0b001, not " +
           std::to_string((bits >> 46) & 7) + " (§9.7.16.4.1 Table 40)";
  if (swizzle == 3 || swizzle == 5 || swizzle == 7)
    return "the shared-memory descriptor's swizzle mode " + std::to_string(swizzle) +
           " is invalid (0, 1, 2, 4 or 6, §9.7.16.4.1 Table 40)";
  if (swizzle == 1) out.swizzle = Swizzle::B128Atom32;
  if ((bits >> 52) & 1)
    return "unsupported: the absolute leading-dimension address mode (bit 52, §9.7.16.3.1.2, sm_103a) is not "
           "implemented yet";
  return std::nullopt;
}

uint64_t element_bit_address(const MatrixDescriptor& d, bool k_major, unsigned elem_bits, unsigned mn,
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
  if (k_major) {
    inner = k % per_chunk;
    const uint64_t row = mn % 8, group = mn / 8, chunk = k / per_chunk;
    bytes = row * row_bytes + group * d.stride + chunk * (swizzle_bits ? 16 : d.leading);
  } else if (!swizzle_bits) {
    inner = mn % per_chunk;
    bytes = (mn / per_chunk) * d.stride + (k % 8) * 16 + (k / 8) * d.leading;
  } else {
    inner = mn % per_chunk;
    const uint64_t chunks = row_bytes / 16, chunk = mn / per_chunk;
    bytes = (chunk % chunks) * 16 + (chunk / chunks) * d.leading + (k % 8) * row_bytes + (k / 8) * d.stride;
  }
  const uint64_t inner_bits = uint64_t{inner} * elem_bits;
  uint64_t address = d.start + bytes + inner_bits / 8;
  const uint64_t mask = (uint64_t{1} << swizzle_bits) - 1;
  address ^= (((address >> 7) - d.base_offset) & mask) << 4;  // Swizzle<B,4,3>, shifted by the base offset
  return address * 8 + inner_bits % 8;
}

}  // namespace ptxvm::mma
