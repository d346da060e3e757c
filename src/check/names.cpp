#include "check/names.h"

#include <charconv>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "isa/special_registers.h"

namespace ptxvm::check {
namespace {

using namespace ast;

// One lexical scope: plain names and parameterized ranges (%r<100> declares %r0..%r99, §5.4.6).
class Scope {
public:
  explicit Scope(const Scope* parent) : parent_(parent) {}

  // The location of an earlier declaration of `name` in this scope, if any.
  const SourceLoc* find_local(std::string_view name) const {
    if (auto it = names_.find(std::string(name)); it != names_.end()) return &it->second;
    auto [prefix, index] = split_index(name);
    if (prefix.empty()) return nullptr;
    auto it = ranges_.find(std::string(prefix));
    if (it == ranges_.end()) return nullptr;
    for (const Range& r : it->second)
      if (index < r.count) return &r.loc;
    return nullptr;
  }
  bool resolves(std::string_view name) const {
    for (const Scope* s = this; s; s = s->parent_)
      if (s->find_local(name)) return true;
    return false;
  }
  void add(const std::string& name, SourceLoc loc) { names_.emplace(name, loc); }
  void add_range(const std::string& prefix, uint64_t count, SourceLoc loc) {
    ranges_[prefix].push_back({count, loc});
  }
  // A range overlapping an earlier declaration: the first clashing name's location.
  const SourceLoc* range_clash(const std::string& prefix, uint64_t count) const {
    if (auto it = ranges_.find(prefix); it != ranges_.end())
      for (const Range& r : it->second)
        if (count > 0 && r.count > 0) return &r.loc;
    for (const auto& [name, loc] : names_) {
      auto [p, index] = split_index(name);
      if (p == prefix && index < count) return &loc;
    }
    return nullptr;
  }

private:
  struct Range {
    uint64_t count;
    SourceLoc loc;
  };
  // `%r12` ▶ (`%r`, 12). Names without a canonical decimal suffix give an empty prefix.
  static std::pair<std::string_view, uint64_t> split_index(std::string_view name) {
    size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
    std::string_view digits = name.substr(i);
    if (digits.empty() || i == 0 || (digits.size() > 1 && digits[0] == '0')) return {{}, 0};
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc()) return {{}, 0};
    return {name.substr(0, i), v};
  }

  const Scope* parent_;
  std::unordered_map<std::string, SourceLoc> names_;
  std::unordered_map<std::string, std::vector<Range>> ranges_;
};

class NameChecker {
public:
  explicit NameChecker(Diagnostics& d) : diags_(d), module_(nullptr) {}

  void run(const Module& m) {
    collect_module(m);
    for (const TopLevel& t : m.items) {
      if (t.kind == TopLevel::Kind::Function) function(*t.func);
      if (t.kind == TopLevel::Kind::Decl) initializers(t.decl, module_);
      if (t.kind == TopLevel::Kind::Section) section(t.section);
      if (t.kind == TopLevel::Kind::Alias) {
        if (!functions_.count(t.alias.target))
          diags_.error(t.alias.loc, "'.alias' names undeclared function '" + t.alias.target + "'");
      }
    }
  }

private:
  void declare(Scope& s, const Declarator& d) {
    if (d.name == "_") return;
    if (d.range) {
      if (const SourceLoc* prev = s.range_clash(d.name, *d.range)) return duplicate(d.name, d.loc, *prev);
      s.add_range(d.name, *d.range, d.loc);
      return;
    }
    if (const SourceLoc* prev = s.find_local(d.name)) return duplicate(d.name, d.loc, *prev);
    s.add(d.name, d.loc);
  }
  void duplicate(const std::string& name, SourceLoc loc, SourceLoc prev) {
    diags_.error(loc, "redefinition of '" + name + "'");
    diags_.note(prev, "previous definition of '" + name + "' is here");
  }

  // Module scope first, so functions may name globals and functions defined later.
  void collect_module(const Module& m) {
    module_scope_ = std::make_unique<Scope>(nullptr);
    module_ = module_scope_.get();
    for (const TopLevel& t : m.items) {
      switch (t.kind) {
      case TopLevel::Kind::Decl:
        for (const Declarator& d : t.decl.names) {
          // `.extern` declarations may repeat and may precede the definition.
          if (t.decl.linkage == Linkage::Extern && module_->find_local(d.name)) continue;
          if (const SourceLoc* prev = module_->find_local(d.name)) {
            if (externs_.count(d.name)) {
              externs_.erase(d.name);
              continue;
            }
            duplicate(d.name, d.loc, *prev);
            continue;
          }
          if (t.decl.linkage == Linkage::Extern) externs_.insert(d.name);
          declare(*module_, d);
        }
        break;
      case TopLevel::Kind::Function: {
        const Function& f = *t.func;
        auto [it, fresh] = functions_.emplace(f.name, &f);
        if (!fresh) {
          const Function& prev = *it->second;
          if (prev.body && f.body) duplicate(f.name, f.name_loc, prev.name_loc);
          // ptxas: "Function definition conflicts with '.extern' declaration" (either order): a
          // function the module defines is not external to it (§11.6.1 .extern)
          const Function& def = f.body ? f : prev;
          const Function& other = f.body ? prev : f;
          if (def.body && !other.body && (other.linkage == Linkage::Extern || def.linkage == Linkage::Extern))
            diags_.error(f.name_loc, "function '" + f.name + "' is both defined and declared .extern in this module");
          if (f.body) it->second = &f;
          break;
        }
        if (const SourceLoc* prev = module_->find_local(f.name)) {
          duplicate(f.name, f.name_loc, *prev);
          break;
        }
        module_->add(f.name, f.name_loc);
        break;
      }
      case TopLevel::Kind::File:
        if (!files_.insert(t.file.index).second)
          diags_.error(t.file.loc, "file index " + std::to_string(t.file.index) +
                                       " is already declared by an earlier .file (§11.5.1)");
        break;
      case TopLevel::Kind::Section:
        section_names_.insert(t.section.name);
        for (const SectionItem& it : t.section.items)
          if (!it.label.empty()) debug_labels_.insert(it.label);
        break;
      // `.alias a, f` declares nothing: `a` is an existing prototype (directives.cpp checks it).
      default: break;
      }
    }
    // Debug sections may name the labels, parameters and variables of every function.
    debug_scope_ = std::make_unique<Scope>(module_);
    for (const TopLevel& t : m.items) {
      if (t.kind != TopLevel::Kind::Function) continue;
      for (const VarDecl& d : t.func->params) debug_declare(d);
      for (const VarDecl& d : t.func->returns) debug_declare(d);
      if (t.func->body) collect_debug_names(*t.func->body);
    }
  }

  void debug_declare(const VarDecl& d) {
    for (const Declarator& n : d.names) {
      if (n.range)
        debug_scope_->add_range(n.name, *n.range, n.loc);
      else
        debug_scope_->add(n.name, n.loc);
    }
  }
  void collect_debug_names(const Block& b) {
    for (const Statement& s : b.body) {
      if (s.kind == Statement::Kind::Label) debug_scope_->add(s.name, s.loc);
      if (s.kind == Statement::Kind::Decl) debug_declare(s.decl);
      if (s.kind == Statement::Kind::Block) collect_debug_names(*s.block);
    }
  }

  void function(const Function& f) {
    Scope params(module_);
    for (const VarDecl& d : f.returns) for (const Declarator& n : d.names) declare(params, n);
    for (const VarDecl& d : f.params) for (const Declarator& n : d.names) declare(params, n);
    if (f.body) block(*f.body, params);
  }

  static bool is_label(const Statement& s) {
    return s.kind == Statement::Kind::Label || s.kind == Statement::Kind::CallPrototype ||
           s.kind == Statement::Kind::BranchTargets || s.kind == Statement::Kind::CallTargets;
  }

  // A block is a scope for registers and labels alike; a label is visible in its whole block
  // (also before it) and in nested blocks, as ptxas resolves them.
  void block(const Block& b, const Scope& parent) {
    Scope scope(&parent);
    for (const Statement& s : b.body) {
      if (!is_label(s)) continue;
      if (const SourceLoc* prev = scope.find_local(s.name))
        duplicate(s.name, s.loc, *prev);
      else
        scope.add(s.name, s.loc);
    }
    for (const Statement& s : b.body) {
      switch (s.kind) {
      case Statement::Kind::Decl:
        for (const Declarator& d : s.decl.names) declare(scope, d);
        initializers(s.decl, &scope);
        break;
      case Statement::Kind::Instruction: instruction(s.inst, scope); break;
      case Statement::Kind::Block: block(*s.block, scope); break;
      case Statement::Kind::BranchTargets:
        for (size_t i = 0; i < s.words.size(); ++i)
          if (!scope.resolves(s.words[i]))
            diags_.error(s.word_locs[i], "'.branchtargets' names undeclared label '" + s.words[i] + "'");
        break;
      case Statement::Kind::CallTargets:
        for (size_t i = 0; i < s.words.size(); ++i)
          if (!functions_.count(s.words[i]))
            diags_.error(s.word_locs[i], "'.calltargets' names undeclared function '" + s.words[i] + "'");
        break;
      case Statement::Kind::Loc:
        if (!files_.count(s.loc_args[0]))
          diags_.error(s.loc, ".loc names file index " + std::to_string(s.loc_args[0]) +
                                  ", which no .file directive declares (§11.5.3)");
        if (s.loc_function) debug_expr(*s.loc_function);
        break;
      default: break;
      }
    }
  }

  void instruction(const Instruction& in, const Scope& scope) {
    if (in.guard && !scope.resolves(in.guard->pred))
      undeclared(in.guard->pred, in.guard->loc, "predicate");
    for (const Operand& o : in.operands) operand(o, scope);
  }

  void operand(const Operand& o, const Scope& scope) {
    if (o.kind == Operand::Kind::Expr) return expr(*o.expr, scope);
    for (const Operand& e : o.elems) operand(e, scope);
  }

  void expr(const Expr& e, const Scope& scope) {
    if (e.kind == Expr::Kind::Symbol) {
      if (scope.resolves(e.name) || isa::find_special_register(e.name)) return;
      return undeclared(e.name, e.loc, "identifier");
    }
    for (const ExprPtr& k : e.kids) expr(*k, scope);
  }

  void undeclared(const std::string& name, SourceLoc loc, const char* what) {
    diags_.error(loc, std::string("use of undeclared ") + what + " '" + name + "'");
  }

  // Initializers may name variables and functions (§5.4.4), never labels.
  void initializers(const VarDecl& d, const Scope* scope) {
    for (const Declarator& dc : d.names) {
      for (const auto& dim : dc.dims)
        if (dim) init_expr(**dim, *scope);
      if (dc.init) init(*dc.init, *scope);
    }
  }
  void init(const Initializer& in, const Scope& scope) {
    if (in.expr && in.key.empty()) init_expr(*in.expr, scope);
    for (const Initializer& i : in.list) init(i, scope);
  }
  void init_expr(const Expr& e, const Scope& scope) {
    if (e.kind == Expr::Kind::Symbol) {
      if (!scope.resolves(e.name) && !isa::find_special_register(e.name))
        undeclared(e.name, e.loc, "identifier");
      return;
    }
    for (const ExprPtr& k : e.kids) init_expr(*k, scope);
  }

  // Debug sections name labels and variables of any function, section labels and sections,
  // including the .debug_* sections ptxas itself emits (§11.5.2).
  void section(const Section& s) {
    for (const SectionItem& it : s.items)
      for (const ExprPtr& v : it.values) debug_expr(*v);
  }
  void debug_expr(const Expr& e) {
    if (e.kind == Expr::Kind::Symbol) {
      if (!debug_labels_.count(e.name) && !section_names_.count(e.name) &&
          !debug_scope_->resolves(e.name) && e.name.rfind(".debug_", 0) != 0)
        undeclared(e.name, e.loc, "label");
      return;
    }
    for (const ExprPtr& k : e.kids) debug_expr(*k);
  }

  Diagnostics& diags_;
  std::unique_ptr<Scope> module_scope_;
  Scope* module_;
  std::unordered_map<std::string, const Function*> functions_;
  std::unordered_set<std::string> externs_;
  std::unordered_set<uint64_t> files_;
  std::unordered_set<std::string> section_names_;
  std::unordered_set<std::string> debug_labels_;  // labels inside debug sections
  std::unique_ptr<Scope> debug_scope_;
};

}  // namespace

void check_names(const Module& m, Diagnostics& diags) { NameChecker(diags).run(m); }

}  // namespace ptxvm::check
