#include "check/check.h"

#include "check/calls.h"
#include "check/declarations.h"
#include "check/directives.h"
#include "check/names.h"
#include "front/parser.h"
#include "isa/check.h"

namespace ptxvm::check {

std::optional<ast::Module> check_source(const SourceFile& file, Diagnostics& diags) {
  std::optional<ast::Module> m = front::parse_module(file, diags);
  if (!m) return std::nullopt;
  check_names(*m, diags);
  check_declarations(*m, diags);
  check_directives(*m, diags);
  if (!diags.has_errors()) check_calls(*m, diags);  // needs every name resolved
  if (diags.has_errors()) return std::nullopt;
  isa::check_module(*m, diags);  // every instruction against its row of the ISA table
  if (diags.has_errors()) return std::nullopt;
  return m;
}

}  // namespace ptxvm::check
