// PTX §5.5.8: tensor maps, in ptxvm's encoding, checked by cuTensorMapEncodeTiled's rules.
#include "units/tma/tensor_map.h"

#include <algorithm>

#include <cstring>

namespace ptxvm::units::tma {
namespace {

// The encoding: a tag, the enumerations, then the numbers, little-endian.
constexpr uint32_t kTag = 0x4d545850;  // "PXTM"
constexpr size_t kAddress = 16, kDims = 24, kStrides = 64, kBox = 96, kElementStrides = 106, kIm2col = 111,
                 kLower = 112, kUpper = 118, kChannels = 124, kPixels = 126;

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

unsigned element_bytes(DataType t) {
  switch (t) {
  case DataType::U8: return 1;
  case DataType::U16:
  case DataType::F16:
  case DataType::BF16: return 2;
  case DataType::U64:
  case DataType::S64:
  case DataType::F64:
  case DataType::U4x16Align8: return 8;
  case DataType::U4x16Align16:
  case DataType::U6x16Align16: return 16;
  default: return 4;
  }
}

std::string validate(const TensorMap& m) {
  const unsigned size = element_bytes(m.type);
  if (m.rank < 1 || m.rank > 5) return "the rank must be 1 to 5, not " + std::to_string(m.rank);
  if (m.type >= DataType::U4x16Align8)  // packed in global memory, padded in shared memory (§5.5.1.1.1)
    return "unsupported: the packed sub-byte element types (16u4_align8b, 16u4_align16b, 16u6_align16b) are not "
           "implemented yet";
  if (m.interleave != Interleave::None && m.rank < 3) return "an interleaved layout needs rank 3 or more";
  const uint64_t align = m.interleave == Interleave::B32 ? 32 : 16;
  if (m.address % align) return "the global address must be " + std::to_string(align) + "-byte aligned";
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
    if (m.pixels == 0 || m.pixels > 1024) return "pixels per column must be 1 to 1024";
    const int32_t limit = m.rank == 3 ? 1 << 15 : m.rank == 4 ? 1 << 7 : 1 << 4;  // §5.5.4.1
    for (uint32_t i = 0; i + 2 < m.rank; ++i)
      if (m.lower[i] < -limit || m.lower[i] >= limit || m.upper[i] < -limit || m.upper[i] >= limit)
        return "the bounding box's corners must lie in [" + std::to_string(-limit) + ", " + std::to_string(limit - 1) +
               "] for rank " + std::to_string(m.rank);
  }
  if (m.interleave == Interleave::None) {
    if (m.element_strides[0] != 1) return "without interleave the element stride of dimension 0 must be 1 (PTX §5.5.3.2)";
    const uint64_t inner = uint64_t{m.im2col ? m.channels : m.box[0]} * size;
    if (inner % 16) return "the box's inner dimension must span a multiple of 16 bytes, not " + std::to_string(inner);
    const uint64_t span = m.swizzle == Swizzle::B32 ? 32 : m.swizzle == Swizzle::B64 ? 64 : m.swizzle == Swizzle::None ? 0 : 128;
    if (span && inner > span)
      return "the box's inner dimension (" + std::to_string(inner) + " bytes) must fit the " + std::to_string(span) +
             "-byte swizzle span";
  } else if (m.interleave == Interleave::B32 && m.swizzle != Swizzle::B32 && m.swizzle != Swizzle::None) {
    return "a 32-byte interleave takes no swizzle but 32B";
  }
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
  b[kIm2col] = m.im2col;
  for (size_t i = 0; i < 3; ++i) put(b, kLower + 2 * i, static_cast<int16_t>(m.lower[i]));
  for (size_t i = 0; i < 3; ++i) put(b, kUpper + 2 * i, static_cast<int16_t>(m.upper[i]));
  put(b, kChannels, static_cast<uint16_t>(m.channels));
  put(b, kPixels, static_cast<uint16_t>(m.pixels));
  return b;
}

std::optional<TensorMap> decode(const uint8_t* b) {
  if (std::all_of(b, b + 128, [](uint8_t x) { return x == 0; })) {  // the blank map
    TensorMap m;
    m.rank = 0;
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
  m.im2col = b[kIm2col] != 0;
  for (size_t i = 0; i < 3; ++i) m.lower[i] = get<int16_t>(b, kLower + 2 * i), m.upper[i] = get<int16_t>(b, kUpper + 2 * i);
  m.channels = get<uint16_t>(b, kChannels);
  m.pixels = get<uint16_t>(b, kPixels);
  if (m.type > DataType::U6x16Align16 || m.interleave > Interleave::B32 || m.swizzle > Swizzle::B128Atom64 ||
      m.l2 > L2Promotion::B256 || m.oob > OobFill::NanRequestZeroFma || m.rank > 5)
    return std::nullopt;
  return m;
}

}  // namespace ptxvm::units::tma
