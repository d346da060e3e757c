#include "numeric/names.h"

#include <utility>

namespace ptxvm::numeric {

std::optional<Format> format_by_name(std::string_view name) {
  static constexpr std::pair<std::string_view, Format> kTable[] = {
      {"f64", kF64},   {"f32", kF32},   {"tf32", kTF32}, {"f16", kF16},   {"bf16", kBF16},
      {"e4m3", kE4M3}, {"e5m2", kE5M2}, {"e2m3", kE2M3}, {"e3m2", kE3M2}, {"e2m1", kE2M1},
      {"ue8m0", kUE8M0}, {"ue4m3", kUE4M3},
  };
  for (const auto& [n, f] : kTable)
    if (n == name) return f;
  return std::nullopt;
}

std::optional<IntType> int_type_by_name(std::string_view name) {
  static constexpr std::pair<std::string_view, IntType> kTable[] = {
      {"u8", kU8}, {"u16", kU16}, {"u32", kU32}, {"u64", kU64},
      {"s8", kS8}, {"s16", kS16}, {"s32", kS32}, {"s64", kS64},
  };
  for (const auto& [n, t] : kTable)
    if (n == name) return t;
  return std::nullopt;
}

std::optional<Round> round_by_name(std::string_view name) {
  static constexpr std::pair<std::string_view, Round> kTable[] = {
      {"rn", Round::RN},  {"rna", Round::RNA}, {"rz", Round::RZ},  {"rm", Round::RM},
      {"rp", Round::RP},  {"rs", Round::RS},   {"rni", Round::RN}, {"rzi", Round::RZ},
      {"rmi", Round::RM}, {"rpi", Round::RP},
  };
  for (const auto& [n, r] : kTable)
    if (n == name) return r;
  return std::nullopt;
}

}  // namespace ptxvm::numeric
