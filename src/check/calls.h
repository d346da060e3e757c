// Call checks (PTX §9.7.12.5 call, §7 abstract ABI — 001_23fdd5978b24a3ed.txt): a direct call's
// argument and return lists match the callee's parameters, an indirect call names a
// `.callprototype` or `.calltargets` whose lists it matches, and no call targets a `.entry`.
// Runs after name resolution: undeclared names are reported there, not here.
#pragma once

#include "front/ast.h"
#include "front/source.h"

namespace ptxvm::check {

void check_calls(const ast::Module& m, Diagnostics& diags);

}  // namespace ptxvm::check
