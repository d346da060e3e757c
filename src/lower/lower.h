// AST ▶ Program: registers, variables and labels resolved to slots and addresses, module
// variables laid out and initialised (§5.4.4), and one handler chosen per instruction from its
// ISA row. An instruction ptxvm does not execute yet is a load-time diagnostic
// `unsupported: <instruction> (PTX §x.y)`, never a silent wrong answer.
#pragma once

#include <optional>

#include "front/ast.h"
#include "front/source.h"
#include "program/program.h"
#include "mem/memory.h"

namespace ptxvm::lower {

// `module` must have passed check::check_source. Module .global variables are allocated in
// `global`.
std::optional<program::Program> lower_module(const ast::Module& module, const SourceFile& source,
                                    mem::GlobalMemory& global, Diagnostics& diags);

}  // namespace ptxvm::lower
