// Canonical PTX printer: AST ▶ text. Printing a parsed module and parsing the result gives the
// same AST, so printing is a fixed point; the text is PTX that ptxas accepts.
#pragma once

#include <string>

#include "front/ast.h"

namespace ptxvm::front {

std::string print_module(const ast::Module& m);
std::string print_expr(const ast::Expr& e);
std::string print_operand(const ast::Operand& o);
std::string print_instruction(const ast::Instruction& in);

}  // namespace ptxvm::front
