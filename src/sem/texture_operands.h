// The operands texture (§9.7.10) and surface (§9.7.11) instructions share, 001_23fdd5978b24a3ed.txt.
#pragma once

#include <cstdint>

#include "exec/warp.h"

namespace ptxvm::sem {

// The object a texture/surface operand names in `lane`: a .u64 register holds the handle; a
// .texref/.samplerref/.surfref variable or kernel parameter holds it in its 8 bytes (§5.3).
inline uint64_t handle(exec::Warp& w, const program::Arg& a, int lane) {
  if (a.kind == program::ArgKind::Reg) return w.slot(a.reg, lane);
  if (a.reg != program::kNoReg) return w.slot(a.reg, lane) + a.imm;
  return w.load<uint64_t>(a.space, a.imm, lane);
}

// Element i of a coordinate or data vector (a scalar is its element 0; §9.7.10.3 allows .v4
// coordinates for any geometry); a missing element reads as an empty operand.
inline const program::Arg& element(const program::Arg& v, size_t i) {
  static const program::Arg none;
  if (v.kind != program::ArgKind::Vector) return i == 0 ? v : none;
  return i < v.elems.size() ? v.elems[i] : none;
}

}  // namespace ptxvm::sem
