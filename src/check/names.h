// Name resolution (PTX §4.4 identifiers, §5.4 declarations, §11 directives): every register,
// variable, label and function an instruction names is declared, and nothing is declared twice.
#pragma once

#include "front/ast.h"
#include "front/source.h"

namespace ptxvm::check {

void check_names(const ast::Module& m, Diagnostics& diags);

}  // namespace ptxvm::check
