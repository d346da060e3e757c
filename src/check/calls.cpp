#include "check/calls.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ptxvm::check {
namespace {

using namespace ast;

const char* kCall = "§9.7.12.5 (001_23fdd5978b24a3ed.txt)";

// A variable as a call sees it: an argument, a return slot or a formal parameter.
struct Slot {
  const VarDecl* decl;
  const Declarator* name;
};

// What ptxas compares between an argument and its formal parameter (checked against ptxas 13.0):
// the byte size, array or scalar, the type class (.b matches any; .u/.s integers; .f floats) and,
// for .param variables, the alignment (.align or the element size).
struct Shape {
  bool known = false;  // false for types and forms not compared here (.v2, .pred, unsized arrays)
  bool reg = false;
  bool array = false;
  uint64_t bytes = 0;
  uint64_t align = 0;
  char cls = 0;  // 'b', 'i' or 'f'
};

Shape shape_of(const Slot& s) {
  Shape sh;
  const VarDecl& d = *s.decl;
  const std::string& t = d.type;
  if (d.vector || t.size() < 3 || t[0] != '.') return sh;
  size_t digits = t.find_first_of("0123456789");
  if (digits == std::string::npos) return sh;
  std::string kind = t.substr(1, digits - 1);
  uint64_t bits = std::stoull(t.substr(digits));
  if (kind == "b") sh.cls = 'b';
  else if (kind == "u" || kind == "s") sh.cls = 'i';
  else if (kind == "f" || kind == "bf") sh.cls = 'f';
  else return sh;
  uint64_t elem = bits / 8, count = 1;
  for (const auto& dim : s.name->dims) {
    if (!dim || (*dim)->kind != Expr::Kind::Int) return sh;
    count *= (*dim)->value;
  }
  sh.known = elem > 0;
  sh.reg = d.space == Space::Reg;
  sh.array = !s.name->dims.empty();
  sh.bytes = elem * count;
  sh.align = d.align.value_or(elem);
  return sh;
}

std::vector<Slot> slots(const std::vector<VarDecl>& decls) {
  std::vector<Slot> out;
  for (const VarDecl& d : decls)
    for (const Declarator& n : d.names) out.push_back({&d, &n});
  return out;
}

std::string type_text(const Slot& s) {
  std::string t = std::string(to_string(s.decl->space)) + " ";
  if (s.decl->align) t += ".align " + std::to_string(*s.decl->align) + " ";
  t += s.decl->type;
  for (const auto& dim : s.name->dims)
    t += "[" + (dim && (*dim)->kind == Expr::Kind::Int ? std::to_string((*dim)->value) : "") + "]";
  return t;
}

// Names in scope: variables (with their declarations) and call-prototype/call-target labels.
class Scope {
public:
  explicit Scope(const Scope* parent) : parent_(parent) {}
  void add_var(const VarDecl& d) {
    for (const Declarator& n : d.names) {
      if (n.range) ranges_[n.name] = {&d, &n};
      else vars_[n.name] = {&d, &n};
    }
  }
  void add_label(const Statement& s) { labels_[s.name] = &s; }
  const Slot* var(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent_) {
      if (auto it = s->vars_.find(name); it != s->vars_.end()) return &it->second;
      size_t i = name.size();
      while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
      if (i < name.size())
        if (auto it = s->ranges_.find(name.substr(0, i)); it != s->ranges_.end()) return &it->second;
    }
    return nullptr;
  }
  const Statement* label(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent_)
      if (auto it = s->labels_.find(name); it != s->labels_.end()) return it->second;
    return nullptr;
  }

private:
  const Scope* parent_;
  std::unordered_map<std::string, Slot> vars_, ranges_;
  std::unordered_map<std::string, const Statement*> labels_;
};

class CallChecker {
public:
  explicit CallChecker(Diagnostics& d) : diags_(d) {}

  void run(const Module& m) {
    Scope module(nullptr);
    for (const TopLevel& t : m.items) {
      if (t.kind == TopLevel::Kind::Decl) module.add_var(t.decl);
      if (t.kind == TopLevel::Kind::Function && !functions_.count(t.func->name))
        functions_[t.func->name] = t.func.get();
    }
    for (const TopLevel& t : m.items) {
      if (t.kind != TopLevel::Kind::Function || !t.func->body) continue;
      Scope params(&module);
      formals_.clear();
      for (const auto* list : {&t.func->returns, &t.func->params})
        for (const VarDecl& d : *list) {
          params.add_var(d);
          formals_.insert(&d);
        }
      block(*t.func->body, params);
    }
  }

private:
  void block(const Block& b, const Scope& parent) {
    Scope scope(&parent);
    // Labels are visible in their whole block (names.cpp resolves them the same way).
    for (const Statement& s : b.body)
      if (s.kind == Statement::Kind::CallPrototype || s.kind == Statement::Kind::CallTargets)
        scope.add_label(s);
    for (const Statement& s : b.body) {
      if (s.kind == Statement::Kind::Decl) scope.add_var(s.decl);
      if (s.kind == Statement::Kind::Block) block(*s.block, scope);
      if (s.kind == Statement::Kind::Instruction && s.inst.opcode == "call") call(s.inst, scope);
    }
  }

  // `call{.uni} (rets), f, (args) {, proto}` — operand layout from §9.7.12.5's syntax block.
  void call(const Instruction& in, const Scope& scope) {
    const Operand* rets = nullptr;
    const Operand* args = nullptr;
    const Operand* callee = nullptr;
    const Operand* proto = nullptr;
    for (const Operand& o : in.operands) {
      if (o.kind == Operand::Kind::List) {
        (callee ? args : rets) = &o;
      } else if (!callee) {
        callee = &o;
      } else {
        proto = &o;
      }
    }
    if (!callee || callee->kind != Operand::Kind::Expr || callee->expr->kind != Expr::Kind::Symbol)
      return;
    const std::string& name = callee->expr->name;
    if (auto it = functions_.find(name); it != functions_.end()) {
      const Function& f = *it->second;
      if (f.is_entry) {
        // ptxas: "Illegal call target, device function expected".
        diags_.error(callee->loc, "call-target: `" + name + "` is a .entry, which cannot be called — " +
                                      kCall + "; call a .func");
        return;
      }
      match(in, scope, rets, args, slots(f.returns), slots(f.params), "`" + name + "`");
      return;
    }
    if (!scope.var(name)) return;  // names.cpp reports undeclared callees
    // An indirect call through a register: the last operand names the prototype or targets.
    const Statement* p = nullptr;
    if (proto && proto->kind == Operand::Kind::Expr && proto->expr->kind == Expr::Kind::Symbol)
      p = scope.label(proto->expr->name);
    if (!p) {
      std::string what = proto ? "`" + (proto->expr ? proto->expr->name : std::string("?")) +
                                     "` is not a .callprototype or .calltargets label in scope"
                               : "it names no .callprototype or .calltargets";
      // ptxas: "Call target not recognized".
      diags_.error(proto ? proto->loc : in.loc,
                   "indirect-call: the call through `" + name + "` needs a prototype, but " + what +
                       " — " + kCall +
                       "; add `, P` naming a `P: .callprototype ...` label declared in scope");
      return;
    }
    if (p->kind == Statement::Kind::CallPrototype) {
      match(in, scope, rets, args, slots(p->proto.returns), slots(p->proto.params),
            ".callprototype `" + p->name + "`");
      return;
    }
    for (const std::string& target : p->words)
      if (auto it = functions_.find(target); it != functions_.end())
        match(in, scope, rets, args, slots(it->second->returns), slots(it->second->params),
              "`" + target + "` (from .calltargets `" + p->name + "`)");
  }

  void match(const Instruction& in, const Scope& scope, const Operand* rets, const Operand* args,
             const std::vector<Slot>& formal_rets, const std::vector<Slot>& formal_args,
             const std::string& callee) {
    size_t nr = rets ? rets->elems.size() : 0, na = args ? args->elems.size() : 0;
    if (nr != formal_rets.size() || na != formal_args.size()) {
      // ptxas: "Call has wrong number of parameters".
      diags_.error(in.loc, "call-arity: the call passes " + std::to_string(na) + " argument(s) and " +
                               std::to_string(nr) + " return value(s), but " + callee + " takes " +
                               std::to_string(formal_args.size()) + " and " +
                               std::to_string(formal_rets.size()) + " — " + kCall +
                               "; write one .param variable per parameter");
      return;
    }
    for (size_t i = 0; i < nr; ++i) actual(scope, rets->elems[i], formal_rets[i], "return value", callee);
    for (size_t i = 0; i < na; ++i) actual(scope, args->elems[i], formal_args[i], "argument", callee);
  }

  void actual(const Scope& scope, const Operand& o, const Slot& formal, const char* what, const std::string& callee) {
    if (o.kind != Operand::Kind::Expr || o.expr->kind != Expr::Kind::Symbol) return;  // immediates
    const Slot* a = scope.var(o.expr->name);
    if (!a) return;
    const std::string& arg = o.expr->name;
    std::string ref = std::string(what) + " `" + arg + "` of the call to " + callee;
    Space sp = a->decl->space;
    if (sp != Space::Param && sp != Space::Reg) {
      // ptxas: "Call argument 'x' has illegal state space".
      diags_.error(o.loc, "call-argument-space: " + ref + " is a " + to_string(sp) +
                              " variable — " + kCall + "; copy it into a .param variable or register");
      return;
    }
    if (sp == Space::Param && formals_.count(a->decl)) {
      // ptxas: "Formal parameter 'a' declared in .param space cannot be used as argument to call".
      diags_.error(o.loc, "call-argument-space: " + ref + " is a .param parameter of the calling "
                              "function — " + kCall + "; copy it into a local .param variable");
      return;
    }
    Shape f = shape_of(formal), x = shape_of(*a);
    if (!f.known || !x.known) return;
    std::string formal_name = formal.name->name;
    std::string tail = " (" + type_text(*a) + " vs " + type_text(formal) + ")";
    if (x.reg && f.array) {
      // ptxas: "Inconsistent state space for parameter 'x'".
      diags_.error(o.loc, "call-argument-type: " + ref + " is a register, but formal parameter `" +
                              formal_name + "` is an array" + tail + " — " + kCall +
                              "; pass a .param array of the same size");
      return;
    }
    bool cls_ok = x.cls == 'b' || f.cls == 'b' || x.cls == f.cls;
    if (x.bytes != f.bytes || (!x.reg && x.array != f.array) || !cls_ok) {
      // ptxas: "Type of argument does not match formal parameter 'x'".
      diags_.error(o.loc, "call-argument-type: " + ref + " does not match formal parameter `" +
                              formal_name + "`" + tail + " — " + kCall +
                              "; declare it with the parameter's size and type (.b matches any)");
      return;
    }
    if (!x.reg && !f.reg && x.align != f.align) {
      // ptxas: "Alignment of argument does not match formal parameter 'x'".
      diags_.error(o.loc, "call-argument-align: " + ref + " has alignment " +
                              std::to_string(x.align) + ", but formal parameter `" + formal_name +
                              "` has " + std::to_string(f.align) + tail + " — " + kCall +
                              "; use .align " + std::to_string(f.align));
    }
  }

  Diagnostics& diags_;
  std::unordered_map<std::string, const Function*> functions_;
  std::unordered_set<const VarDecl*> formals_;  // the calling function's parameters and returns
};

}  // namespace

void check_calls(const Module& m, Diagnostics& diags) { CallChecker(diags).run(m); }

}  // namespace ptxvm::check
