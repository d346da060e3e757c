// Operand types against instruction types: PTX §9.4 Table 25 (type-checking rules) and §9.4.1
// Table 26 (relaxed rules for the data operands of ld, st and cvt) — 001_23fdd5978b24a3ed.txt.
#pragma once

#include <optional>
#include <string_view>

namespace ptxvm::isa {

struct TypeInfo {
  char kind;     // 'b' bits, 'u', 's', 'f' float, 'p' predicate, 'x' packed (.f16x2, .e4m3x2 ...)
  unsigned bits; // storage size
};

// `.u32` -> {'u', 32}; nullopt for a name that is not a fundamental or packed type.
std::optional<TypeInfo> type_info(std::string_view type);

// Whether a register declared `reg` may be an operand of an instruction of type `inst`.
bool operand_type_ok(std::string_view inst, std::string_view reg, bool relaxed);

} // namespace ptxvm::isa
