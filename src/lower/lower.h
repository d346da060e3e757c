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
// `global`. `optimize`: compile as ptxas does by default, fusing and folding where it does
// (contraction.h); false as ptxas -O0 (a JIT optimization level of 0) compiles, each instruction
// as written, which a `.target debug` module always is.
std::optional<program::Program> lower_module(const ast::Module& module, const SourceFile& source,
                                    mem::GlobalMemory& global, Diagnostics& diags, bool optimize = true);

}  // namespace ptxvm::lower
