// The ISA checker; see check.h.
#include "isa/check.h"

#include <algorithm>

#include "isa/suggest.h"
#include "isa/types.h"

namespace ptxvm::isa {

const std::string* Registers::find(std::string_view name) const {
  if (auto it = names_.find(name); it != names_.end()) return &it->second;
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  if (digits == name.size() || digits == 0) return nullptr;
  auto it = ranges_.find(name.substr(0, digits));
  if (it == ranges_.end()) return nullptr;
  uint64_t n = std::stoull(std::string(name.substr(digits)));
  return n < it->second.first ? &it->second.second : nullptr;
}

namespace {

std::string section_ref(const Family& f, const std::string& section) {
  return "§" + section + " (" + spec_file(f.spec) + ")";
}

// The written qualifiers of the axes a predicate mentions: "`.kind::i8`".
std::string quote_axes(const Bound& b, const std::vector<int>& axes) {
  std::string q;
  for (int a : axes) {
    if (!((b.written >> a) & 1)) continue;
    q += b.family->axes[a].values[b.binding.value[a]];
  }
  return q;
}

SourceLoc loc_of_axes(const Bound& b, const std::vector<int>& axes, SourceLoc fallback) {
  for (int a : axes)
    if ((b.written >> a) & 1) return b.axis_loc[a];
  return fallback;
}

bool variants_hold(const Bound& b, const Context& ctx) {
  for (const Variant& v : b.family->variants) {
    if (!v.when.eval(b.binding)) continue;
    if (ctx.ptx < v.ptx) return false;
    if (ctx.target && !v.target.satisfied_by(*ctx.target)) return false;
  }
  return true;
}

bool rules_hold(const Bound& b) {
  for (const Rule& r : b.family->rules)
    if (!r.holds.eval(b.binding)) return false;
  return true;
}

std::string form(const Bound& b) {
  std::string s = b.family->mnemonic;
  for (size_t a = 0; a < b.family->axes.size(); ++a)
    if (((b.written >> a) & 1) && b.binding.value[a] >= 0)
      s += b.family->axes[a].values[b.binding.value[a]];
  return s;
}

// The nearest valid form: one mentioned axis changed (or dropped), every rule and minimum met.
std::string nearest_valid(const Bound& b, const std::vector<int>& axes, const Context& ctx) {
  for (int a : axes) {
    const Axis& ax = b.family->axes[a];
    Bound t = b;
    if (!ax.required) {
      t.binding.value[a] = static_cast<int8_t>(ax.default_index);
      t.written &= ~(uint64_t{1} << a);
      if (rules_hold(t) && variants_hold(t, ctx)) return form(t);
    }
    for (size_t v = 0; v < ax.values.size(); ++v) {
      if (static_cast<int>(v) == b.binding.value[a]) continue;
      t.binding.value[a] = static_cast<int8_t>(v);
      t.written |= uint64_t{1} << a;
      if (rules_hold(t) && variants_hold(t, ctx)) return form(t);
    }
  }
  return {};
}

std::string type_of_operand(const Operand& spec, const Bound& b) {
  if (spec.type_axis >= 0) {
    const std::string* v = b.value(b.family->axes[spec.type_axis].name);
    return v ? *v : std::string();
  }
  return spec.types.size() == 1 ? spec.types[0] : std::string();
}

bool is_register_name(const ast::Expr& e, const Context& ctx) {
  return e.kind == ast::Expr::Kind::Symbol && ctx.registers && ctx.registers->find(e.name);
}

const char* kind_word(char k) {
  switch (k) {
    case 'd': return "a destination register";
    case 'r': return "a register";
    case 'i': return "an immediate value";
    case 'p': return "a predicate";
    case 'm': return "an address [..]";
    case 'v': return "a vector {..}";
    case 'l': return "a label";
    case 's': return "a name";
    case 't': return "a register or d|p pair";
    default: return "a value";
  }
}

class OperandChecker {
public:
  OperandChecker(const Bound& b, const Context& ctx, Diagnostics& diags, const ast::Instruction& inst)
      : b_(b), f_(*b.family), ctx_(ctx), diags_(diags), inst_(inst) {}

  void run() {
    const auto& specs = f_.operands;
    size_t required = 0;
    for (const Operand& o : specs) required += !o.optional;
    size_t n = inst_.operands.size();
    if (n < required || n > specs.size()) {
      std::string want = required == specs.size()
                             ? std::to_string(required)
                             : std::to_string(required) + " to " + std::to_string(specs.size());
      diags_.error(inst_.loc, f_.mnemonic + " takes " + want + " operands, not " + std::to_string(n) +
                                  " — " + section_ref(f_, f_.section));
      return;
    }
    for (size_t i = 0; i < n; ++i) one(specs[i], inst_.operands[i], i + 1);
  }

private:
  const Bound& b_;
  const Family& f_;
  const Context& ctx_;
  Diagnostics& diags_;
  const ast::Instruction& inst_;

  void bad(const ast::Operand& op, size_t pos, const Operand& spec) {
    diags_.error(op.loc.valid() ? op.loc : inst_.loc,
                 "operand " + std::to_string(pos) + " of " + f_.mnemonic + " must be " +
                     kind_word(spec.kind) + " — " + section_ref(f_, f_.section));
  }

  void type(const ast::Expr& e, const Operand& spec, size_t pos) {
    if (!ctx_.registers || e.kind != ast::Expr::Kind::Symbol || !e.component.empty()) return;
    const std::string* reg = ctx_.registers->find(e.name);
    if (!reg) return;
    if (spec.type_axis < 0 && spec.types.size() > 1) {
      for (const std::string& t : spec.types)
        if (operand_type_ok(t, *reg, spec.relaxed)) return;
    } else {
      std::string want = type_of_operand(spec, b_);
      if (want.empty() || operand_type_ok(want, *reg, spec.relaxed)) return;
    }
    std::string want = spec.type_axis >= 0 ? type_of_operand(spec, b_) : spec.types[0];
    diags_.error(e.loc.valid() ? e.loc : inst_.loc,
                 "operand " + std::to_string(pos) + " of " + f_.mnemonic + " is '" + e.name +
                     "' of type " + *reg + ", which does not agree with " + want +
                     " — §9.4 (001_23fdd5978b24a3ed.txt)");
  }

  void scalar(const ast::Operand& op, const Operand& spec, size_t pos) {
    if (op.kind != ast::Operand::Kind::Expr) return bad(op, pos, spec);
    const ast::Expr& e = *op.expr;
    bool sym = e.kind == ast::Expr::Kind::Symbol;
    switch (spec.kind) {
      case 'd':
      case 'r':
        if (!sym) return bad(op, pos, spec);
        break;
      case 'i':
        if (is_register_name(e, ctx_)) return bad(op, pos, spec);
        break;
      case 'p':
        if (!sym && !(e.kind == ast::Expr::Kind::Unary && e.uop == ast::UnaryOp::Not))
          return bad(op, pos, spec);
        if (!sym) return type(*e.kids[0], spec, pos);
        break;
      case 'l':
      case 's':
        if (!sym) return bad(op, pos, spec);
        return;
      default:
        break;
    }
    type(e, spec, pos);
  }

  void vector(const ast::Operand& op, const Operand& spec, size_t pos, size_t want) {
    if (op.kind != ast::Operand::Kind::Vector) return bad(op, pos, spec);
    if (want && op.elems.size() != want) {
      diags_.error(op.loc.valid() ? op.loc : inst_.loc,
                   "operand " + std::to_string(pos) + " of " + f_.mnemonic + " must be a vector of " +
                       std::to_string(want) + " elements, not " + std::to_string(op.elems.size()) +
                       " — " + section_ref(f_, f_.section));
      return;
    }
    for (const ast::Operand& e : op.elems)
      if (e.kind == ast::Operand::Kind::Expr) type(*e.expr, spec, pos);
  }

  size_t vec_size() const {
    const std::string* v = b_.value("vec");
    if (!v) return 0;
    return static_cast<size_t>(std::stoul(v->substr(2)));  // ".v4"
  }

  void one(const Operand& spec, const ast::Operand& op, size_t pos) {
    using K = ast::Operand::Kind;
    switch (spec.kind) {
      case 'm':
        if (op.kind != K::Address) bad(op, pos, spec);
        return;
      case 'v':
        return vector(op, spec, pos, spec.any_size ? 0 : spec.vec ? spec.vec : vec_size());
      case 'x':
        if (size_t n = vec_size()) return vector(op, spec, pos, n);
        if (op.kind == K::Vector) return bad(op, pos, {'r'});
        return scalar(op, spec, pos);
      case 't':
        if (op.kind == K::Pair) {
          if (op.elems[0].kind == K::Expr) type(*op.elems[0].expr, spec, pos);
          return;
        }
        return scalar(op, spec, pos);
      case 'd':
        if (op.kind == K::Sink) return;
        return scalar(op, spec, pos);
      default:
        return scalar(op, spec, pos);
    }
  }
};

}  // namespace

std::optional<Bound> check_instruction(const ast::Instruction& inst, const Context& ctx,
                                       Diagnostics& diags) {
  std::optional<Bound> bound = bind(inst, diags);
  if (!bound) return std::nullopt;
  const Bound& b = *bound;
  const Family& f = *b.family;
  size_t errors = diags.error_count();

  for (size_t i = 0; i < f.variants.size(); ++i) {
    const Variant& v = f.variants[i];
    if (!v.when.eval(b.binding)) continue;
    std::vector<int> axes = v.when.axes_mentioned();
    std::string quoted = i == 0 ? f.mnemonic : quote_axes(b, axes);
    if (quoted.empty()) quoted = form(b);
    SourceLoc loc = i == 0 ? inst.loc : loc_of_axes(b, axes, inst.loc);
    std::string note = v.note.empty() ? "" : " (" + v.note + ")";
    if (ctx.ptx < v.ptx) {
      diags.error(loc, "`" + quoted + "` needs PTX ISA " + v.ptx.str() + note + " (module has .version " +
                           ctx.ptx.str() + ") — " + section_ref(f, f.section) + "; use .version " +
                           v.ptx.str());
    }
    if (ctx.target && !v.target.satisfied_by(*ctx.target)) {
      diags.error(loc, "`" + quoted + "` needs " + v.target.describe() + note + " (not " +
                           ctx.target->name + ") — " + section_ref(f, f.section) + "; use .target " +
                           v.target.suggestion());
    }
  }

  for (const Rule& r : f.rules) {
    if (r.holds.eval(b.binding)) continue;
    std::vector<int> axes = r.holds.axes_mentioned();
    std::string quoted = quote_axes(b, axes);
    std::string fix = nearest_valid(b, axes, ctx);
    diags.error(loc_of_axes(b, axes, inst.loc),
                r.name + ": " + r.message + (quoted.empty() ? "" : " (`" + quoted + "`)") + " — " +
                    section_ref(f, r.section) + (fix.empty() ? "" : "; nearest valid form: " + fix));
  }

  OperandChecker(b, ctx, diags, inst).run();
  if (diags.error_count() != errors) return std::nullopt;
  return bound;
}

// ---- the module --------------------------------------------------------------------------------

namespace {

// PTX ISA versions (§13 release notes); 9.1 from 003_6cc9a368d385caa7.txt.
bool known_version(uint32_t major, uint32_t minor) {
  static const std::pair<uint32_t, uint32_t> last_minor[] = {
      {1, 4}, {2, 3}, {3, 2}, {4, 3}, {5, 0}, {6, 5}, {7, 8}, {8, 8}, {9, 1}};
  for (auto [maj, maxmin] : last_minor)
    if (major == maj) return minor <= maxmin;
  return false;
}

class ModuleChecker {
public:
  ModuleChecker(const ast::Module& m, Diagnostics& d) : m_(m), diags_(d) {}

  void run() {
    header();
    Registers globals;
    for (const ast::TopLevel& t : m_.items) {
      if (t.kind == ast::TopLevel::Kind::Decl) declare(globals, t.decl);
      if (t.kind != ast::TopLevel::Kind::Function || !t.func->body) continue;
      Registers regs = globals;
      for (const ast::VarDecl& p : t.func->params) declare(regs, p);
      for (const ast::VarDecl& p : t.func->returns) declare(regs, p);
      block(*t.func->body, regs);
    }
  }

private:
  const ast::Module& m_;
  Diagnostics& diags_;
  Context ctx_;

  void header() {
    ctx_.ptx = {static_cast<uint8_t>(m_.version_major), static_cast<uint8_t>(m_.version_minor)};
    if (!known_version(m_.version_major, m_.version_minor))
      diags_.error(m_.version_loc, "unknown PTX ISA version " + ctx_.ptx.str() +
                                       " — §11.1.3 (001_23fdd5978b24a3ed.txt)");
    std::optional<Target> target;
    for (const std::string& t : m_.targets) {
      if (t.rfind("sm_", 0) != 0) continue;
      if (target) {
        diags_.error(m_.target_loc, "more than one sm_ target in .target — §11.1.4 (001_23fdd5978b24a3ed.txt)");
        continue;
      }
      target = parse_target(t);
      std::optional<Version> min = target ? target_min_ptx(*target) : std::nullopt;
      if (!min) {
        std::string near = nearest(t, known_target_names());
        diags_.error(m_.target_loc, "unknown target '" + t + "' — §11.1.4 (001_23fdd5978b24a3ed.txt)" +
                                        (near.empty() ? "" : "; did you mean " + near + "?"));
        target.reset();
      } else if (ctx_.ptx < *min) {
        diags_.error(m_.target_loc, "`.target " + t + "` needs PTX ISA " + min->str() +
                                        " (module has .version " + ctx_.ptx.str() +
                                        ") — §11.1.4 (001_23fdd5978b24a3ed.txt); use .version " +
                                        min->str());
      } else if (target->name.rfind("sm_101", 0) == 0 && ctx_.ptx >= Version{9, 0}) {
        diags_.error(m_.target_loc, "`.target " + t + "` was renamed sm_110" + t.substr(6) +
                                        " in PTX ISA 9.0 — 000_70a4b524dfe259fa.txt; use .target sm_110" +
                                        t.substr(6));
      }
    }
    ctx_.target = target;
    if (m_.address_size && *m_.address_size != 32 && *m_.address_size != 64)
      diags_.error(m_.loc, ".address_size must be 32 or 64 — §11.1.5 (001_23fdd5978b24a3ed.txt)");
  }

  static void declare(Registers& regs, const ast::VarDecl& d) {
    if (d.space != ast::Space::Reg && d.space != ast::Space::Param) return;
    if (d.space == ast::Space::Param) return;  // parameters are symbols, not registers
    std::string type = d.type;
    if (d.vector) return;  // vector registers are addressed by component; not typed here
    for (const ast::Declarator& n : d.names) {
      if (n.range) regs.declare_range(n.name, *n.range, type);
      else regs.declare(n.name, type);
    }
  }

  void block(const ast::Block& b, const Registers& outer) {
    Registers regs = outer;
    for (const ast::Statement& s : b.body) {
      switch (s.kind) {
        case ast::Statement::Kind::Decl: declare(regs, s.decl); break;
        case ast::Statement::Kind::Block: block(*s.block, regs); break;
        case ast::Statement::Kind::Instruction: {
          Context c = ctx_;
          c.registers = &regs;
          check_instruction(s.inst, c, diags_);
          break;
        }
        default: break;
      }
    }
  }
};

}  // namespace

void check_module(const ast::Module& module, Diagnostics& diags) {
  ModuleChecker(module, diags).run();
}

}  // namespace ptxvm::isa
