// Tensor maps (PTX §5.5.8, 001_23fdd5978b24a3ed.txt): the 128-byte opaque object that describes a
// tensor in global memory and the box a tensor copy moves. The ISA leaves the encoding to the
// implementation; ptxvm's is below (encode/decode), with the fields and the validation rules of
// CUDA's cuTensorMapEncodeTiled, so that a map built by the manifest, the C++ API or, later, the
// driver describes what the CUDA one would.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxvm::units::tma {

// CUDA's enumerations, by value (CUtensorMapDataType, ...Interleave, ...Swizzle, ...L2promotion,
// ...FloatOOBfill).
enum class DataType : uint8_t {
  U8, U16, U32, S32, U64, S64, F16, F32, F64, BF16, F32Ftz, TF32, TF32Ftz, U4x16Align8, U4x16Align16, U6x16Align16
};
enum class Interleave : uint8_t { None, B16, B32 };
enum class Swizzle : uint8_t { None, B32, B64, B128, B128Atom32, B128Atom32Flip8, B128Atom64 };
enum class L2Promotion : uint8_t { None, B64, B128, B256 };
enum class OobFill : uint8_t { Zero, NanRequestZeroFma };

struct TensorMap {
  DataType type = DataType::U8;
  uint32_t rank = 1;
  uint64_t address = 0;                          // global address of element (0, ..., 0)
  std::array<uint64_t, 5> dims{};                // elements per dimension, innermost first
  std::array<uint64_t, 4> strides{};             // bytes between consecutive indices of dims 1..rank-1
  std::array<uint32_t, 5> box{};                 // the box's size per dimension, in elements
  std::array<uint32_t, 5> element_strides{1, 1, 1, 1, 1};  // traversal stride per dimension
  Interleave interleave = Interleave::None;
  Swizzle swizzle = Swizzle::None;
  L2Promotion l2 = L2Promotion::None;
  OobFill oob = OobFill::Zero;
  // im2col maps (cuTensorMapEncodeIm2col, §5.5.4): the bounding box's corners in the spatial
  // dimensions (1 .. rank-2, innermost first), channels per pixel and pixels per column.
  bool im2col = false;
  std::array<int32_t, 3> lower{}, upper{};
  uint32_t channels = 0, pixels = 0;
};

unsigned element_bytes(DataType t);

// Why `m` is no map cuTensorMapEncodeTiled (cuTensorMapEncodeIm2col for an im2col map) would
// build (the rule it breaks), or "" when it is.
std::string validate(const TensorMap& m);

// The 128 bytes of `m` in ptxvm's encoding, and back: nullopt for bytes that hold no map; 128
// zero bytes are the blank map, every field zero (Triton zeroes a map in shared memory and
// fills it with tensormap.replace). A decoded map need not be valid (tensormap.replace edits a
// map one field at a time): its user validates it.
std::array<uint8_t, 128> encode(const TensorMap& m);
std::optional<TensorMap> decode(const uint8_t* bytes);

}  // namespace ptxvm::units::tma
