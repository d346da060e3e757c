// The instruction table: every family row of the group files (integer.cpp, float.cpp, ...), built
// once, with lookup by AST opcode.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "isa/family.h"

namespace ptxvm::isa {

// Every family, indexed by Family::id.
const std::vector<Family>& families();
// The families whose head is `opcode` (an AST opcode: "cp", "mma"), most fixed qualifiers first.
const std::vector<const Family*>& families_for(std::string_view opcode);
// Every distinct head, for suggestions.
const std::vector<std::string>& heads();

} // namespace ptxvm::isa
