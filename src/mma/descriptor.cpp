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
  out.absolute_leading = (bits >> 52) & 1;
  if (out.absolute_leading && swizzle != 2)
    return "the absolute leading-dimension mode (bit 52) takes the 128-byte swizzle (mode 2) only, not mode " +
           std::to_string(swizzle) + " (§9.7.16.3.1.2.1)";
  if (out.absolute_leading && out.base_offset)
    return "the absolute leading-dimension mode (bit 52) needs the matrix base offset 0, not " +
           std::to_string(out.base_offset) + " (§9.7.16.3.1.2.1)";
  return std::nullopt;
}

}  // namespace ptxvm::mma
