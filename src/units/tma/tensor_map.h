// Tensor maps (PTX §5.5.8, 001_23fdd5978b24a3ed.txt): the 128-byte opaque object that describes a
// tensor in global memory and the box a tensor copy moves. The ISA leaves the encoding to the
// implementation; ptxvm's is below (encode/decode), with the fields and the validation rules of
// CUDA's cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide
// (cuda.h), so that a map built by the manifest, the C++ API or, later, the driver describes what
// the CUDA one would.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxvm::units::tma {

// CUDA's enumerations, by value (CUtensorMapDataType, ...Interleave, ...Swizzle, ...L2promotion,
// ...FloatOOBfill, ...Im2ColWideMode).
enum class DataType : uint8_t {
  U8, U16, U32, S32, U64, S64, F16, F32, F64, BF16, F32Ftz, TF32, TF32Ftz, U4x16Align8, U4x16Align16, U6x16Align16
};
enum class Interleave : uint8_t { None, B16, B32 };
enum class Swizzle : uint8_t { None, B32, B64, B128, B128Atom32, B128Atom32Flip8, B128Atom64 };
enum class L2Promotion : uint8_t { None, B64, B128, B256 };
enum class OobFill : uint8_t { Zero, NanRequestZeroFma };
enum class WideMode : uint8_t { W, W128 };

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
  // tensormap.replace's .swizzle_atomicity (§9.7.9.26 Table 32: 1 32B, 2 32B + 8B flip, 3 64B)
  // given while the swizzle mode is not 128B, a pairing no swizzle has (§5.5.7 Table 14): kept
  // until a .swizzle_mode of 128B completes it; validate() refuses a map that holds one.
  uint8_t pending_atomicity = 0;
  L2Promotion l2 = L2Promotion::None;
  OobFill oob = OobFill::Zero;
  // im2col maps (cuTensorMapEncodeIm2col, §5.5.4): the bounding box's corners in the spatial
  // dimensions (1 .. rank-2, innermost first), channels per pixel and pixels per column.
  bool im2col = false;
  std::array<int32_t, 3> lower{}, upper{};
  uint32_t channels = 0, pixels = 0;
  // Wide im2col maps (cuTensorMapEncodeIm2colWide, §5.5.5; im2col is set too): the corners are
  // W's alone (lower[0], upper[0]), and pixels is ignored in mode W128.
  std::optional<WideMode> wide;
};

// How a copy moves elements of type t: one element is `values` of the tensor's values (the
// dimensions count values) and takes `global_bytes` in global memory, `shared_bytes` in shared
// memory. The packed sub-byte types (§5.5.1.1.1, cuda.h's CU_TENSOR_MAP_DATA_TYPE_16U*): 16u4_align8b
// moves bytes of two 4-bit values, alike in both memories; 16u4_align16b and 16u6_align16b move
// chunks of 16 values, 8 (12) packed bytes in global memory and 16 in shared memory: the packed
// bytes first, then 8 (4) bytes of padding.
struct Packing {
  unsigned values, global_bytes, shared_bytes;
};
Packing packing(DataType t);
// 16u4_align16b and 16u6_align16b: the types padded to 16-byte chunks in shared memory.
bool padded(DataType t);

// Why `m` is no map cuTensorMapEncodeTiled (cuTensorMapEncodeIm2col, cuTensorMapEncodeIm2colWide
// for an im2col map) would build (the rule it breaks), or "" when it is.
std::string validate(const TensorMap& m);

// The 128 bytes of `m` in ptxvm's encoding, and back: nullopt for bytes that hold no map; 128
// zero bytes are the blank map, every field zero (Triton zeroes a map in shared memory and
// fills it with tensormap.replace). A decoded map need not be valid (tensormap.replace edits a
// map one field at a time): its user validates it.
std::array<uint8_t, 128> encode(const TensorMap& m);
std::optional<TensorMap> decode(const uint8_t* bytes);

}  // namespace ptxvm::units::tma
