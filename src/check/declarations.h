// Declaration checks the grammar cannot express (PTX §5.4): array sizes and constant
// initializers, evaluated with the §4.5.5 rules.
#pragma once

#include "front/ast.h"
#include "front/source.h"

namespace ptxvm::check {

void check_declarations(const ast::Module& m, Diagnostics& diags);

}  // namespace ptxvm::check
