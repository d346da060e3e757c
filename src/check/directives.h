// Directive placement and declaration rules that ptxas enforces (PTX §11.4 performance-tuning
// directives, §11.6 linking directives, §5.1/§5.4 state spaces and initializers —
// 001_23fdd5978b24a3ed.txt): which directives a `.entry` or `.func` may carry, their value counts,
// conflicts and minimum PTX version and target; which state spaces, linkages and initializers a
// declaration may combine.
#pragma once

#include "front/ast.h"
#include "front/source.h"

namespace ptxvm::check {

void check_directives(const ast::Module& m, Diagnostics& diags);

}  // namespace ptxvm::check
