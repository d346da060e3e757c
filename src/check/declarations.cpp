#include "check/declarations.h"

#include "front/const_eval.h"
#include "isa/types.h"

namespace ptxvm::check {
namespace {

using namespace ast;

// True when `e` names no variable, label or address operator: it must then evaluate.
bool is_pure_constant(const Expr& e) {
  if (e.kind == Expr::Kind::Symbol) return e.name == "WARP_SZ";
  if (e.kind == Expr::Kind::Generic || e.kind == Expr::Kind::Mask) return false;
  for (const ExprPtr& k : e.kids)
    if (!is_pure_constant(*k)) return false;
  return true;
}

class DeclarationChecker {
public:
  explicit DeclarationChecker(Diagnostics& d) : diags_(d) {}

  void decl(const VarDecl& d) {
    // §5.2: a fundamental type, or an opaque one (§5.3)
    if (!isa::type_info(d.type) && d.type != ".texref" && d.type != ".samplerref" && d.type != ".surfref")
      diags_.error(d.loc, "unknown type '" + d.type + "' in the declaration of '" +
                              (d.names.empty() ? std::string() : d.names[0].name) +
                              "': expected a fundamental type such as .b32 or .f16x2, or .texref, .samplerref, "
                              ".surfref (§5.2, §5.3)");
    for (const Declarator& dc : d.names) {
      for (size_t i = 0; i < dc.dims.size(); ++i) {
        const auto& dim = dc.dims[i];
        if (!dim) {
          if (i != 0) diags_.error(dc.loc, "only the first array dimension of '" + dc.name +
                                               "' may be left unsized (§5.4.3)");
          continue;
        }
        // §5.4.3 allows a constant expression, but ptxas parses only an integer literal.
        if ((*dim)->kind != Expr::Kind::Int)
          diags_.error((*dim)->loc, "array size of '" + dc.name +
                                        "' must be an integer literal: ptxas does not accept an "
                                        "expression here (§5.4.3)");
      }
      if (dc.init) init(*dc.init);
    }
  }

  void block(const Block& b) {
    for (const Statement& s : b.body) {
      if (s.kind == Statement::Kind::Decl) decl(s.decl);
      if (s.kind == Statement::Kind::Block) block(*s.block);
    }
  }

private:
  void init(const Initializer& in) {
    for (const Initializer& i : in.list) init(i);
    if (!in.expr || !in.key.empty() || !is_pure_constant(*in.expr)) return;
    front::EvalResult r = front::evaluate(*in.expr);
    if (!r.value) diags_.error(r.loc, r.error);
  }

  Diagnostics& diags_;
};

}  // namespace

void check_declarations(const Module& m, Diagnostics& diags) {
  DeclarationChecker c(diags);
  for (const TopLevel& t : m.items) {
    if (t.kind == TopLevel::Kind::Decl) c.decl(t.decl);
    if (t.kind != TopLevel::Kind::Function) continue;
    for (const VarDecl& d : t.func->params) c.decl(d);
    if (t.func->body) c.block(*t.func->body);
  }
}

}  // namespace ptxvm::check
