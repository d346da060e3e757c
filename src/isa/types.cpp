#include "isa/types.h"

#include <charconv>

namespace ptxvm::isa {

std::optional<TypeInfo> type_info(std::string_view t) {
  if (t == ".pred") return TypeInfo{'p', 1};
  if (t == ".bf16") return TypeInfo{'f', 16};
  if (t == ".tf32") return TypeInfo{'f', 32};
  if (t == ".bf16x2" || t == ".f16x2" || t == ".f32x2")
    return TypeInfo{'x', t == ".f32x2" ? 64u : 32u};
  if (t == ".e4m3x2" || t == ".e5m2x2" || t == ".e2m3x2" || t == ".e3m2x2" || t == ".ue8m0x2")
    return TypeInfo{'x', 16};
  if (t == ".e2m1x2") return TypeInfo{'x', 8};
  if (t == ".e4m3x4" || t == ".e5m2x4" || t == ".e2m3x4" || t == ".e3m2x4")
    return TypeInfo{'x', 32};
  if (t == ".e2m1x4") return TypeInfo{'x', 16};
  if (t.size() < 3 || t[0] != '.') return std::nullopt;
  char k = t[1];
  if (k != 'b' && k != 'u' && k != 's' && k != 'f') return std::nullopt;
  unsigned bits = 0;
  auto [p, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), bits);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128) return std::nullopt;
  return TypeInfo{k, bits};
}

bool operand_type_ok(std::string_view inst, std::string_view reg, bool relaxed) {
  auto i = type_info(inst), r = type_info(reg);
  if (!i || !r) return true; // not a checkable pair (e.g. .texref); other checks own it
  if (i->kind == 'p' || r->kind == 'p') return i->kind == r->kind;
  if (inst == reg) return true;
  // Table 25: bit-size types agree with any type of their size; signed and unsigned integers
  // agree with each other; floating-point (and packed) types only with themselves and .bX.
  if (i->bits == r->bits) {
    if (i->kind == 'b' || r->kind == 'b') return true;
    if ((i->kind == 'u' || i->kind == 's') && (r->kind == 'u' || r->kind == 's')) return true;
    return false;
  }
  // Table 26: ld/st/cvt data operands may be wider than the instruction type; integer and bit
  // values are truncated or extended, floating-point values only move through bit registers.
  if (!relaxed || r->bits < i->bits) return false;
  if (i->kind == 'f' || i->kind == 'x') return r->kind == 'b';
  return r->kind != 'f';
}

} // namespace ptxvm::isa
