// The checking pipeline behind `ptxvm check`: parse, resolve names, check declarations, then
// every instruction against the ISA table (src/isa).
#pragma once

#include <optional>

#include "front/ast.h"
#include "front/source.h"

namespace ptxvm::check {

// Parses and checks one source; the module is returned only when it is valid.
std::optional<ast::Module> check_source(const SourceFile& file, Diagnostics& diags);

}  // namespace ptxvm::check
