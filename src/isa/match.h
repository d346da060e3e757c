// Binding an instruction to its family row: the matcher of the instruction table.
//
// The family is chosen by opcode and the fixed qualifiers of its mnemonic (`cp.async.bulk` before
// `cp.async`); each further qualifier binds to the first unbound axis that lists it, in any order;
// absent axes take their default. The result is the compact form the execution engine selects
// handlers by: a family id and one value index per axis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "front/ast.h"
#include "front/source.h"
#include "isa/family.h"

namespace ptxvm::isa {

struct Bound {
  const Family* family = nullptr;
  Binding binding;                 // value index per axis, defaults filled in; -1 when absent
  uint64_t written = 0;            // bit i: axis i was written (not defaulted)
  std::vector<SourceLoc> axis_loc; // where each written axis was written

  int index(std::string_view axis) const;                // -1 when absent or no such axis
  const std::string* value(std::string_view axis) const; // nullptr when absent
  bool is(std::string_view axis, std::string_view value) const;
  std::string str() const; // the mnemonic and every bound value, defaults included
};

// The instruction as written: opcode, the family's leading qualifiers, then each written axis's
// value in row order — "mad.lo.cc.u32".
std::string spelling(const Bound& b);

struct Problem {
  SourceLoc loc;
  std::string message;
};

// Every row `inst` binds to cleanly, in table order (`mov` has two rows; the checker takes the
// first whose operands also fit). When none does, `problems` says why for the closest row.
std::vector<Bound> bind_all(const ast::Instruction& inst, std::vector<Problem>& problems);

} // namespace ptxvm::isa
