#include "mma/types.h"

#include <map>

namespace ptxvm::mma {

bool type_named(std::string_view t, Type& out) {
  static const std::map<std::string_view, Type> types = {
      {".f16", Type::F16},   {".bf16", Type::BF16}, {".tf32", Type::TF32}, {".f32", Type::F32},
      {".f64", Type::F64},   {".e4m3", Type::E4M3}, {".e5m2", Type::E5M2}, {".e3m2", Type::E3M2},
      {".e2m3", Type::E2M3}, {".e2m1", Type::E2M1}, {".s8", Type::S8},     {".u8", Type::U8},
      {".s4", Type::S4},     {".u4", Type::U4},     {".b1", Type::B1},     {".s32", Type::S32}};
  auto it = types.find(t);
  if (it == types.end()) return false;
  out = it->second;
  return true;
}

unsigned register_bits(Type t) {
  switch (t) {
  case Type::F16:
  case Type::BF16:
    return 16;
  case Type::TF32:
  case Type::F32:
  case Type::S32:
    return 32;
  case Type::F64:
    return 64;
  case Type::S4:
  case Type::U4:
    return 4;
  case Type::B1:
    return 1;
  default:
    return 8;
  }
}

std::array<uint8_t, 16> unpack_b8x16(const uint8_t* row, unsigned bits) {
  std::array<uint8_t, 16> out{};
  for (unsigned i = 0; i < 16; ++i) {
    if (bits == 8) {
      out[i] = row[i];
      continue;
    }
    unsigned at = bits * i, v = row[at / 8] | (at / 8 + 1 < 16 ? row[at / 8 + 1] << 8 : 0);
    out[i] = static_cast<uint8_t>((v >> (at % 8)) & ((1u << bits) - 1));
  }
  return out;
}

}  // namespace ptxvm::mma
