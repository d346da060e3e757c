// `ptxvm check`'s ISA stage: every instruction against its table row, and the module's
// `.version`/`.target`/`.address_size` against each other (PTX §11.1, §9.7 —
// 001_23fdd5978b24a3ed.txt).
//
// Runs after parsing and name resolution (src/check): an undeclared register is not reported here,
// but a declared one of the wrong type is.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "front/ast.h"
#include "front/source.h"
#include "isa/match.h"
#include "isa/target.h"

namespace ptxvm::isa {

// Register declarations in scope (§5.1.1, §10): plain names and `%r<N>` ranges.
class Registers {
public:
  void declare(const std::string& name, const std::string& type) { names_[name] = type; }
  void declare_range(const std::string& prefix, uint64_t count, const std::string& type) {
    ranges_[prefix] = {count, type};
  }
  const std::string* find(std::string_view name) const; // the declared type, or nullptr

private:
  std::map<std::string, std::string, std::less<>> names_;
  std::map<std::string, std::pair<uint64_t, std::string>, std::less<>> ranges_;
};

struct Context {
  Version ptx{99, 0};                   // the module's .version; the default checks no version
  std::optional<Target> target;         // nullopt: no target checks
  const Registers* registers = nullptr; // nullptr: no operand type checks
  uint32_t address_size = 0;            // the module's .address_size; 0 when unknown
};

// The problems of a bound form's qualifiers: PTX version and target minimums, removal, and the
// row's rules (operands aside). `where` locates messages with no written qualifier to point at.
std::vector<Problem> check_qualifiers(const Bound& b, const Context& ctx, SourceLoc where = {});

// Checks one instruction; returns its bound form when it is valid.
std::optional<Bound> check_instruction(const ast::Instruction& inst, const Context& ctx,
                                       Diagnostics& diags);

void check_module(const ast::Module& module, Diagnostics& diags);

} // namespace ptxvm::isa
