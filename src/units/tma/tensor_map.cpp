// PTX §5.5.8: tensor maps, in ptxvm's encoding, checked by the rules of cuTensorMapEncodeTiled,
// cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide (cuda.h).
#include "units/tma/tensor_map.h"

#include <algorithm>
#include <cstring>

namespace ptxvm::units::tma {
namespace {

// The encoding: a tag, the enumerations, then the numbers, little-endian. The byte at kLayout is
// 0 for a tiled map, 1 im2col, 2 wide im2col in mode W, 3 wide in mode W128.
constexpr uint32_t kTag = 0x4d545850;  // "PXTM"
constexpr size_t kPendingAtomicity = 11, kAddress = 16, kDims = 24, kStrides = 64, kBox = 96, kElementStrides = 106,
                 kLayout = 111, kLower = 112, kUpper = 118, kChannels = 124, kPixels = 126;

template <typename T>
void put(std::array<uint8_t, 128>& b, size_t at, T v) {
  std::memcpy(&b[at], &v, sizeof v);
}
template <typename T>
T get(const uint8_t* b, size_t at) {
  T v;
  std::memcpy(&v, b + at, sizeof v);
  return v;
}

}  // namespace

Packing packing(DataType t) {
  switch (t) {
  case DataType::U8: return {1, 1, 1};
  case DataType::U16:
  case DataType::F16:
  case DataType::BF16: return {1, 2, 2};
  case DataType::U64:
  case DataType::S64:
  case DataType::F64: return {1, 8, 8};
  case DataType::U4x16Align8: return {2, 1, 1};
  case DataType::U4x16Align16: return {16, 8, 16};
  case DataType::U6x16Align16: return {16, 12, 16};
  default: return {1, 4, 4};
  }
}

bool padded(DataType t) { return t == DataType::U4x16Align16 || t == DataType::U6x16Align16; }

std::string validate(const TensorMap& m) {
  const Packing p = packing(m.type);
  const std::string type = m.type == DataType::U4x16Align8    ? "16u4_align8b"
                           : m.type == DataType::U4x16Align16 ? "16u4_align16b"
                                                              : "16u6_align16b";  // named for the packed types only
  if (m.rank < 1 || m.rank > 5) return "the rank must be 1 to 5, not " + std::to_string(m.rank);
  if (m.wide && !m.im2col) return "a wide im2col map is an im2col map (im2col set)";
  if (m.pending_atomicity)
    return "swizzle atomicity " + std::to_string(m.pending_atomicity) +
           " (tensormap.replace .swizzle_atomicity) pairs with the 128B swizzle mode only (PTX §5.5.7 Table 14)";
  if (m.interleave != Interleave::None && m.rank < 3) return "an interleaved layout needs rank 3 or more";
  if (m.type == DataType::U6x16Align16 && m.interleave != Interleave::None) return "16u6_align16b takes no interleave";
  const uint64_t align = m.interleave == Interleave::B32 || padded(m.type) ? 32 : 16;
  if (m.address % align) return "the global address must be " + std::to_string(align) + "-byte aligned";
  if (const unsigned whole = padded(m.type) ? 128 : p.values; m.dims[0] % whole)
    return "dimension 0: a " + type + " tensor's size must be a multiple of " + std::to_string(whole) + " values";
  for (uint32_t i = 0; i < m.rank; ++i) {
    const std::string d = "dimension " + std::to_string(i);
    if (m.dims[i] == 0 || m.dims[i] > (uint64_t{1} << 32)) return d + ": the size must be 1 to 2^32";
    if (!m.im2col && (m.box[i] == 0 || m.box[i] > 256)) return d + ": the box size must be 1 to 256";
    if (m.element_strides[i] == 0 || m.element_strides[i] > 8) return d + ": the element stride must be 1 to 8";
    if (i > 0) {
      const uint64_t s = m.strides[i - 1];
      if (s % align) return d + ": the global stride must be a multiple of " + std::to_string(align) + " bytes";
      if (s >= (uint64_t{1} << 40)) return d + ": the global stride must be below 2^40 bytes";
    }
  }
  if (m.im2col) {
    if (m.rank < 3) return "an im2col map needs rank 3 to 5";
    if (m.channels == 0 || m.channels > 256) return "channels per pixel must be 1 to 256";
    if (padded(m.type) && m.channels != 128) return "channels per pixel must be 128 for " + type;
    if (m.wide != WideMode::W128 && (m.pixels == 0 || m.pixels > 1024)) return "pixels per column must be 1 to 1024";
    if (m.wide) {  // cuTensorMapEncodeIm2colWide
      if (m.lower[0] < -32768 || m.lower[0] > 32767 || m.upper[0] < -32768 || m.upper[0] > 32767)
        return "the bounding box's W corners must lie in [-32768, 32767]";
      if (static_cast<int64_t>(m.dims[1]) + m.upper[0] - m.lower[0] < 1)
        return "the bounding box [lower, W - 1 + upper] of a wide im2col map must not be empty";
      if (m.interleave != Interleave::None) return "a wide im2col map takes no interleave (PTX §5.5.6)";
      if (m.swizzle != Swizzle::B64 && m.swizzle != Swizzle::B128 && m.swizzle != Swizzle::B128Atom32)
        return "a wide im2col map takes the 64B, 128B or 128B_atom_32B swizzle only";
    } else {
      const int32_t limit = m.rank == 3 ? 1 << 15 : m.rank == 4 ? 1 << 7 : 1 << 4;  // §5.5.4.1
      for (uint32_t i = 0; i + 2 < m.rank; ++i)
        if (m.lower[i] < -limit || m.lower[i] >= limit || m.upper[i] < -limit || m.upper[i] >= limit)
          return "the bounding box's corners must lie in [" + std::to_string(-limit) + ", " + std::to_string(limit - 1) +
                 "] for rank " + std::to_string(m.rank);
    }
  } else if (padded(m.type) && m.box[0] != 128) {
    return "dimension 0: a " + type + " box must be 128 values wide";
  }
  if (m.interleave == Interleave::None) {
    if (m.element_strides[0] != 1) return "without interleave the element stride of dimension 0 must be 1 (PTX §5.5.3.2)";
    // the inner dimension in shared memory, in bits (16u4_align8b: 4 per value)
    const uint64_t bits = uint64_t{m.im2col ? m.channels : m.box[0]} * p.shared_bytes * 8 / p.values;
    const std::string inner = std::to_string(bits / 8) + (bits % 8 ? ".5" : "");
    if (bits % 128) return "the box's inner dimension must span a multiple of 16 bytes, not " + inner;
    const uint64_t span = m.swizzle == Swizzle::B32 ? 32 : m.swizzle == Swizzle::B64 ? 64 : m.swizzle == Swizzle::None ? 0 : 128;
    if (span && bits > span * 8)
      return "the box's inner dimension (" + inner + " bytes) must fit the " + std::to_string(span) + "-byte swizzle span";
  } else {
    if (m.interleave == Interleave::B32 && m.swizzle != Swizzle::B32 && m.swizzle != Swizzle::None)
      return "a 32-byte interleave takes no swizzle but 32B";
    // cuTensorMapEncodeTiled (driver 580) refuses an interleaved box of 8 or 12 bytes too
    // (tests/hw/tma/interleave.bin.xz), though cuda.h states the rule for INTERLEAVE_NONE only.
    if (!m.im2col && uint64_t{m.box[0]} * p.shared_bytes / p.values % 16)
      return "the box's inner dimension must span a multiple of 16 bytes, not " +
             std::to_string(uint64_t{m.box[0]} * p.shared_bytes / p.values);
  }
  // The padded types' swizzles (cuda.h): none, 128B, 128B_atom_32B, and for 16u6_align16b also
  // 128B_atom_64B (its stores only: the copy checks the direction).
  if (padded(m.type) && m.swizzle != Swizzle::None && m.swizzle != Swizzle::B128 && m.swizzle != Swizzle::B128Atom32 &&
      !(m.type == DataType::U6x16Align16 && m.swizzle == Swizzle::B128Atom64))
    return type + (m.type == DataType::U6x16Align16 ? " takes the none, 128B, 128B_atom_32B or 128B_atom_64B swizzle only"
                                                    : " takes the none, 128B or 128B_atom_32B swizzle only");
  const bool floating = m.type == DataType::F16 || m.type == DataType::F32 || m.type == DataType::F64 ||
                        m.type == DataType::BF16 || m.type == DataType::F32Ftz || m.type == DataType::TF32 ||
                        m.type == DataType::TF32Ftz;
  if (m.oob == OobFill::NanRequestZeroFma && !floating) return "NaN out-of-bounds fill needs a floating-point type";
  return "";
}

std::array<uint8_t, 128> encode(const TensorMap& m) {
  std::array<uint8_t, 128> b{};
  put(b, 0, kTag);
  b[4] = 1;  // encoding version
  b[5] = static_cast<uint8_t>(m.rank);
  b[6] = static_cast<uint8_t>(m.type);
  b[7] = static_cast<uint8_t>(m.interleave);
  b[8] = static_cast<uint8_t>(m.swizzle);
  b[9] = static_cast<uint8_t>(m.l2);
  b[10] = static_cast<uint8_t>(m.oob);
  put(b, kAddress, m.address);
  for (size_t i = 0; i < 5; ++i) put(b, kDims + 8 * i, m.dims[i]);
  for (size_t i = 0; i < 4; ++i) put(b, kStrides + 8 * i, m.strides[i]);
  for (size_t i = 0; i < 5; ++i) put(b, kBox + 2 * i, static_cast<uint16_t>(m.box[i]));
  for (size_t i = 0; i < 5; ++i) b[kElementStrides + i] = static_cast<uint8_t>(m.element_strides[i]);
  b[kPendingAtomicity] = m.pending_atomicity;
  b[kLayout] = !m.im2col ? 0 : m.wide ? 2 + static_cast<uint8_t>(*m.wide) : 1;
  for (size_t i = 0; i < 3; ++i) put(b, kLower + 2 * i, static_cast<int16_t>(m.lower[i]));
  for (size_t i = 0; i < 3; ++i) put(b, kUpper + 2 * i, static_cast<int16_t>(m.upper[i]));
  put(b, kChannels, static_cast<uint16_t>(m.channels));
  put(b, kPixels, static_cast<uint16_t>(m.pixels));
  return b;
}

std::optional<TensorMap> decode(const uint8_t* b) {
  if (std::all_of(b, b + 128, [](uint8_t x) { return x == 0; })) {  // the blank map
    TensorMap m;
    m.rank = 1;  // the rank field counts from zero (§9.7.9.26): Triton's 1D maps never replace it
    m.element_strides = {};
    return m;
  }
  if (get<uint32_t>(b, 0) != kTag || b[4] != 1) return std::nullopt;
  TensorMap m;
  m.rank = b[5];
  m.type = static_cast<DataType>(b[6]);
  m.interleave = static_cast<Interleave>(b[7]);
  m.swizzle = static_cast<Swizzle>(b[8]);
  m.l2 = static_cast<L2Promotion>(b[9]);
  m.oob = static_cast<OobFill>(b[10]);
  m.address = get<uint64_t>(b, kAddress);
  for (size_t i = 0; i < 5; ++i) m.dims[i] = get<uint64_t>(b, kDims + 8 * i);
  for (size_t i = 0; i < 4; ++i) m.strides[i] = get<uint64_t>(b, kStrides + 8 * i);
  for (size_t i = 0; i < 5; ++i) m.box[i] = get<uint16_t>(b, kBox + 2 * i);
  for (size_t i = 0; i < 5; ++i) m.element_strides[i] = b[kElementStrides + i];
  m.pending_atomicity = b[kPendingAtomicity];
  m.im2col = b[kLayout] != 0;
  if (b[kLayout] >= 2) m.wide = static_cast<WideMode>(b[kLayout] - 2);
  for (size_t i = 0; i < 3; ++i) m.lower[i] = get<int16_t>(b, kLower + 2 * i), m.upper[i] = get<int16_t>(b, kUpper + 2 * i);
  m.channels = get<uint16_t>(b, kChannels);
  m.pixels = get<uint16_t>(b, kPixels);
  if (m.type > DataType::U6x16Align16 || m.interleave > Interleave::B32 || m.swizzle > Swizzle::B128Atom64 ||
      m.l2 > L2Promotion::B256 || m.oob > OobFill::NanRequestZeroFma || m.rank > 5 || m.pending_atomicity > 3 ||
      b[kLayout] > 3)
    return std::nullopt;
  return m;
}

}  // namespace ptxvm::units::tma
