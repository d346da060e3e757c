// PTX parser: tokens ▶ AST (PTX ISA §4, §5, §6, §11 — 001_23fdd5978b24a3ed.txt).
#pragma once

#include <optional>

#include "front/ast.h"
#include "front/source.h"

namespace ptxvm::front {

// Parses a whole module. Syntax errors go to `diags` (with recovery, so several are reported);
// the module is returned only when there were none.
std::optional<ast::Module> parse_module(const SourceFile& file, Diagnostics& diags);

}  // namespace ptxvm::front
