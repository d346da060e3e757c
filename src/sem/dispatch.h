// Helpers for selectors: map a bound type qualifier to a handler template instance.
#pragma once

#include <cstdint>
#include <string>

#include "isa/match.h"
#include "program/program.h"

namespace ptxvm::sem {

// The value of axis `name` ("" when absent).
inline std::string axis(const isa::Bound& b, std::string_view name) {
  const std::string* v = b.value(name);
  return v ? *v : std::string();
}

// H<T>::run for the integer type named by `type` (".u32", ".s64", ".b16", ...), or null.
template <template <typename> class H>
program::Handler by_int_type(const std::string& type) {
  if (type == ".u8" || type == ".b8") return &H<uint8_t>::run;
  if (type == ".s8") return &H<int8_t>::run;
  if (type == ".u16" || type == ".b16") return &H<uint16_t>::run;
  if (type == ".s16") return &H<int16_t>::run;
  if (type == ".u32" || type == ".b32") return &H<uint32_t>::run;
  if (type == ".s32") return &H<int32_t>::run;
  if (type == ".u64" || type == ".b64") return &H<uint64_t>::run;
  if (type == ".s64") return &H<int64_t>::run;
  return nullptr;
}

// H<T>::run for the 16- and 32-bit integer types (forms that widen their result).
template <template <typename> class H>
program::Handler by_narrow_int_type(const std::string& type) {
  if (type == ".u16") return &H<uint16_t>::run;
  if (type == ".s16") return &H<int16_t>::run;
  if (type == ".u32") return &H<uint32_t>::run;
  if (type == ".s32") return &H<int32_t>::run;
  return nullptr;
}

// H<T>::run for the bit-size types and f32/f64 (mov, selp, ld, st move bits).
template <template <typename> class H>
program::Handler by_bits(const std::string& type) {
  if (type == ".pred") return nullptr;
  if (type == ".f32") return &H<uint32_t>::run;
  if (type == ".f64") return &H<uint64_t>::run;
  if (type == ".f16" || type == ".bf16") return &H<uint16_t>::run;
  if (type == ".f16x2" || type == ".bf16x2") return &H<uint32_t>::run;
  return by_int_type<H>(type);
}

inline bool unsupported(std::string& why, const std::string& what) {
  why = what;
  return false;
}

}  // namespace ptxvm::sem
