// The ISA checker; see check.h.
#include "isa/check.h"

#include <algorithm>
#include <cctype>

#include "isa/fragments.h"
#include "isa/suggest.h"
#include "isa/types.h"

namespace ptxvm::isa {

const std::string* Registers::find(std::string_view name) const {
  if (auto it = names_.find(name); it != names_.end()) return &it->second;
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  if (digits == name.size() || digits == 0 || name.size() - digits > 18) return nullptr;
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
std::string quote_axes(const Bound& b, std::vector<int> axes) {
  std::sort(axes.begin(), axes.end()); // in row order, as written
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

// The nearest valid form: one mentioned axis changed (or dropped), every rule and minimum met.
std::string nearest_valid(const Bound& b, const std::vector<int>& axes, const Context& ctx) {
  for (int a : axes) {
    const Axis& ax = b.family->axes[a];
    Bound t = b;
    if (!ax.required) {
      t.binding.value[a] = static_cast<int16_t>(ax.default_index);
      t.written &= ~(uint64_t{1} << a);
      if (rules_hold(t) && variants_hold(t, ctx)) return spelling(t);
    }
    for (size_t v = 0; v < ax.values.size(); ++v) {
      if (static_cast<int>(v) == b.binding.value[a]) continue;
      t.binding.value[a] = static_cast<int16_t>(v);
      t.written |= uint64_t{1} << a;
      if (rules_hold(t) && variants_hold(t, ctx)) return spelling(t);
    }
  }
  return {};
}

std::string type_of_operand(const Operand& spec, const Bound& b) {
  if (spec.type_axis >= 0) {
    const std::string* v = b.value(b.family->axes[spec.type_axis].name);
    if (!v) return {};
    if (spec.wide && b.is("mode", ".wide"))
      return v->substr(0, 2) + std::to_string(2 * std::stoi(v->substr(2)));
    return *v;
  }
  return spec.types.size() == 1 ? spec.types[0] : std::string();
}

bool is_register_name(const ast::Expr& e, const Context& ctx) {
  return e.kind == ast::Expr::Kind::Symbol && ctx.registers && ctx.registers->find(e.name);
}

const char* kind_word(char k) {
  switch (k) {
  case 'd':
    return "a destination register";
  case 'r':
    return "a register";
  case 'i':
    return "an immediate value";
  case 'p':
    return "a predicate";
  case 'm':
    return "an address [..]";
  case 'v':
    return "a vector {..}";
  case 'l':
    return "a label";
  case 's':
    return "a name";
  case 't':
    return "a register or d|p pair";
  case '_':
    return "the sink _";
  default:
    return "a value";
  }
}

class OperandChecker {
public:
  OperandChecker(const Bound& b, const Context& ctx, std::vector<Problem>& out,
                 const ast::Instruction& inst, bool sized)
      : b_(b), f_(*b.family), ctx_(ctx), out_(out), inst_(inst), sized_(sized) {}

  void run() {
    const auto& specs = f_.operands;
    // Which slots are filled: conditional ones when their condition holds, plain optional ones
    // left to right as the operand count allows.
    size_t n = inst_.operands.size(), required = 0, optional = 0;
    auto plain_optional = [&](const Operand& o) {
      return o.optional && !o.present_if && !(o.required_if && o.required_if->eval(b_.binding));
    };
    for (const Operand& o : specs) {
      if (o.present_if)
        required += o.present_if->eval(b_.binding);
      else if (plain_optional(o))
        ++optional;
      else
        ++required;
    }
    if (n < required || n > required + optional) {
      std::string want =
          optional == 0 ? std::to_string(required)
                        : std::to_string(required) + " to " + std::to_string(required + optional);
      error(inst_.loc, f_.mnemonic + " takes " + want + " operands, not " + std::to_string(n) +
                           " — " + section_ref(f_, f_.section));
      return;
    }
    size_t extra = n - required, next = 0;
    if (sized_) sizes_ = fragment_sizes(b_);
    for (size_t slot = 0; slot < specs.size(); ++slot) {
      const Operand& o = specs[slot];
      slot_ = slot;
      if (o.present_if ? !o.present_if->eval(b_.binding) : (plain_optional(o) && extra == 0))
        continue;
      if (plain_optional(o)) --extra;
      one(o, inst_.operands[next], next + 1);
      ++next;
    }
  }

private:
  const Bound& b_;
  const Family& f_;
  const Context& ctx_;
  std::vector<Problem>& out_;
  const ast::Instruction& inst_;
  bool sized_;                                 // check fragment sizes
  std::optional<std::vector<unsigned>> sizes_; // fragment sizes per operand slot
  size_t slot_ = 0;                            // the slot being checked

  // The size the current `v*` operand must have, 0 for any.
  size_t fragment_size() const { return sizes_ && slot_ < sizes_->size() ? (*sizes_)[slot_] : 0; }

  void error(SourceLoc loc, std::string msg) { out_.push_back({loc, std::move(msg)}); }

  void bad(const ast::Operand& op, size_t pos, const Operand& spec) {
    error(op.loc.valid() ? op.loc : inst_.loc,
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
    error(e.loc.valid() ? e.loc : inst_.loc, "operand " + std::to_string(pos) + " of " +
                                                 f_.mnemonic + " is '" + e.name + "' of type " +
                                                 *reg + ", which does not agree with " + want +
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
      if (!spec.values.empty() && e.kind == ast::Expr::Kind::Int &&
          std::find(spec.values.begin(), spec.values.end(), e.value) == spec.values.end()) {
        std::string vals;
        for (uint64_t v : spec.values) vals += (vals.empty() ? "" : " or ") + std::to_string(v);
        error(op.loc.valid() ? op.loc : inst_.loc, "operand " + std::to_string(pos) + " of " +
                                                       f_.mnemonic + " must be " + vals + " — " +
                                                       section_ref(f_, f_.section));
      }
      return;
    case 'p':
      if (!sym && !(e.kind == ast::Expr::Kind::Unary && e.uop == ast::UnaryOp::Not))
        return bad(op, pos, spec);
      if (!sym) return e.kids.empty() ? bad(op, pos, spec) : type(*e.kids[0], spec, pos);
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
      error(op.loc.valid() ? op.loc : inst_.loc,
            "operand " + std::to_string(pos) + " of " + f_.mnemonic + " must be a vector of " +
                std::to_string(want) + " elements, not " + std::to_string(op.elems.size()) + " — " +
                section_ref(f_, f_.section));
      return;
    }
    for (const ast::Operand& e : op.elems)
      if (e.kind == ast::Operand::Kind::Expr) type(*e.expr, spec, pos);
  }

  size_t vec_size() const {
    const std::string* v = b_.value("vec");
    if (!v) return 0;
    return static_cast<size_t>(std::stoul(v->substr(2))); // ".v4"
  }

  void one(const Operand& spec, const ast::Operand& op, size_t pos) {
    using K = ast::Operand::Kind;
    switch (spec.kind) {
    case 'm':
      if (op.kind != K::Address) bad(op, pos, spec);
      return;
    case 'z':
      return;
    case '_':
      if (op.kind != K::Sink) bad(op, pos, spec);
      return;
    case 'e':
      if (op.kind == K::Vector) return; // elements are parts of the value (mov pack, cvt x4)
      if (op.kind == K::Address) return bad(op, pos, spec);
      if (op.kind == K::Expr) type(*op.expr, spec, pos);
      return;
    case 'v':
      return vector(op, spec, pos,
                    spec.any_size ? fragment_size()
                    : spec.vec    ? spec.vec
                                  : vec_size());
    case 'x':
      if (size_t n = vec_size()) return vector(op, spec, pos, n);
      if (op.kind == K::Vector) return vector(op, spec, pos, 1); // `{%r1}` names one register
      return scalar(op, spec, pos);
    case 't':
      if (op.kind == K::Pair) {
        if (!op.elems.empty() && op.elems[0].kind == K::Expr) type(*op.elems[0].expr, spec, pos);
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

} // namespace

namespace {} // namespace

std::vector<Problem> check_qualifiers(const Bound& b, const Context& ctx, SourceLoc where) {
  std::vector<Problem> out;
  auto error = [&](SourceLoc loc, std::string msg) { out.push_back({loc, std::move(msg)}); };
  const Family& f = *b.family;

  for (size_t i = 0; i < f.variants.size(); ++i) {
    const Variant& v = f.variants[i];
    if (!v.when.eval(b.binding)) continue;
    std::vector<int> axes = v.when.axes_mentioned();
    std::string quoted = i == 0 ? f.mnemonic : quote_axes(b, axes);
    if (quoted.empty()) quoted = spelling(b);
    SourceLoc loc = i == 0 ? where : loc_of_axes(b, axes, where);
    std::string note = v.note.empty() ? "" : " (" + v.note + ")";
    if (ctx.ptx < v.ptx) {
      error(loc, "`" + quoted + "` needs PTX ISA " + v.ptx.str() + note + " (module has .version " +
                     ctx.ptx.str() + ") — " + section_ref(f, f.section) + "; use .version " +
                     v.ptx.str());
    }
    if (ctx.target && !v.target.satisfied_by(*ctx.target)) {
      error(loc, "`" + quoted + "` needs " + v.target.describe() + " (not " + ctx.target->name +
                     ") — " + section_ref(f, f.section) + "; use .target " + v.target.suggestion());
    }
  }

  if (f.removed_ptx && ctx.ptx >= *f.removed_ptx && ctx.target && ctx.target->sm >= f.removed_sm) {
    error(where, "`" + f.mnemonic + "` was removed for sm_" + std::to_string(f.removed_sm) +
                     " and later in PTX ISA " + f.removed_ptx->str() + " — " +
                     section_ref(f, f.section) + "; use " + f.replacement);
  }

  if (f.address_axis >= 0 && ctx.address_size == 64 && b.binding.value[f.address_axis] >= 0 &&
      f.axes[f.address_axis].values[b.binding.value[f.address_axis]] == ".u32") {
    error(b.axis_loc[f.address_axis],
          "`.u32` is a 32-bit address, but the module has .address_size 64 — " +
              section_ref(f, f.section) + "; use .u64");
  }

  for (const Rule& r : f.rules) {
    if (r.holds.eval(b.binding)) continue;
    std::vector<int> axes = r.holds.axes_mentioned();
    std::string quoted = quote_axes(b, axes);
    std::string fix = nearest_valid(b, axes, ctx);
    error(loc_of_axes(b, axes, where),
          r.name + ": " + r.message + (quoted.empty() ? "" : " (`" + quoted + "`)") + " — " +
              section_ref(f, r.section) + (fix.empty() ? "" : "; nearest valid form: " + fix));
  }

  return out;
}

namespace {

// Every problem of one bound form: qualifiers, then operands.
std::vector<Problem> problems_of(const Bound& b, const ast::Instruction& inst, const Context& ctx) {
  std::vector<Problem> out = check_qualifiers(b, ctx, inst.loc);
  // Fragment sizes follow from the shape and types, so they are checked only for a valid form.
  OperandChecker(b, ctx, out, inst, out.empty()).run();
  return out;
}

} // namespace

std::optional<Bound> check_instruction(const ast::Instruction& inst, const Context& ctx,
                                       Diagnostics& diags) {
  std::vector<Problem> problems;
  std::vector<Bound> candidates = bind_all(inst, problems);
  std::optional<std::vector<Problem>> first;
  for (const Bound& b : candidates) {
    std::vector<Problem> p = problems_of(b, inst, ctx);
    if (p.empty()) return b;
    if (!first) first = std::move(p);
  }
  if (first) problems = std::move(*first);
  for (const Problem& p : problems) diags.error(p.loc, p.message);
  return std::nullopt;
}

// ---- the module --------------------------------------------------------------------------------

namespace {

// PTX ISA versions (§13 release notes); 9.1 from 003_6cc9a368d385caa7.txt.
bool known_version(uint32_t major, uint32_t minor) {
  static const std::pair<uint32_t, uint32_t> last_minor[] = {{1, 4}, {2, 3}, {3, 2}, {4, 3}, {5, 0},
                                                             {6, 5}, {7, 8}, {8, 8}, {9, 1}};
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
      cta_group_.reset();
      block(*t.func->body, regs);
    }
  }

private:
  const ast::Module& m_;
  Diagnostics& diags_;
  Context ctx_;
  // The first .cta_group of a tcgen05 instruction in the current function, and where it was.
  std::optional<std::pair<std::string, SourceLoc>> cta_group_;

  // "All tcgen05 instructions within a kernel must specify the same value for the .cta_group
  // qualifier" — 000_70a4b524dfe259fa.txt §9.7.16.7.1 and every tcgen05 instruction after it.
  void one_cta_group(const Bound& b, SourceLoc loc) {
    if (b.family->head != "tcgen05") return;
    const std::string* cg = b.value("cta_group");
    if (!cg) return;
    if (!cta_group_) {
      cta_group_ = {*cg, loc};
    } else if (cta_group_->first != *cg) {
      diags_.error(
          loc, "one-cta-group: all tcgen05 instructions of a function use one .cta_group, but `" +
                   *cg + "` follows `" + cta_group_->first + "` (line " +
                   std::to_string(cta_group_->second.line) +
                   ") — §9.7.16.7.1 (000_70a4b524dfe259fa.txt); use " + cta_group_->first);
    }
  }

  void header() {
    ctx_.ptx = {static_cast<uint8_t>(m_.version_major), static_cast<uint8_t>(m_.version_minor)};
    if (!known_version(m_.version_major, m_.version_minor))
      diags_.error(m_.version_loc, "unknown PTX ISA version " + ctx_.ptx.str() +
                                       " — §11.1.1 (001_23fdd5978b24a3ed.txt)");
    std::optional<Target> target;
    for (const std::string& t : m_.targets) {
      if (t.rfind("sm_", 0) != 0) continue;
      if (target) {
        diags_.error(m_.target_loc,
                     "more than one sm_ target in .target — §11.1.2 (001_23fdd5978b24a3ed.txt)");
        continue;
      }
      target = parse_target(t);
      std::optional<Version> min = target ? target_min_ptx(*target) : std::nullopt;
      if (!min) {
        std::string near = nearest(t, known_target_names());
        diags_.error(m_.target_loc, "unknown target '" + t +
                                        "' — §11.1.2 (001_23fdd5978b24a3ed.txt)" +
                                        (near.empty() ? "" : "; did you mean " + near + "?"));
        target.reset();
      } else if (ctx_.ptx < *min) {
        diags_.error(m_.target_loc, "`.target " + t + "` needs PTX ISA " + min->str() +
                                        " (module has .version " + ctx_.ptx.str() +
                                        ") — §11.1.2 (001_23fdd5978b24a3ed.txt); use .version " +
                                        min->str());
      } else if (target->name.rfind("sm_101", 0) == 0 && ctx_.ptx >= Version{9, 0}) {
        diags_.error(m_.target_loc,
                     "`.target " + t + "` was renamed sm_110" + t.substr(6) +
                         " in PTX ISA 9.0 — 000_70a4b524dfe259fa.txt; use .target sm_110" +
                         t.substr(6));
      }
    }
    ctx_.target = target;
    ctx_.address_size = m_.address_size.value_or(0);
    if (m_.address_size && *m_.address_size != 32 && *m_.address_size != 64)
      diags_.error(m_.loc, ".address_size must be 32 or 64 — §11.1.5 (001_23fdd5978b24a3ed.txt)");
  }

  // Registers only (parameters and variables are symbols); vector registers are used by
  // component and are not typed here.
  static void declare(Registers& regs, const ast::VarDecl& d) {
    if (d.space != ast::Space::Reg || d.vector) return;
    for (const ast::Declarator& n : d.names) {
      if (n.range)
        regs.declare_range(n.name, *n.range, d.type);
      else
        regs.declare(n.name, d.type);
    }
  }

  void block(const ast::Block& b, const Registers& outer) {
    Registers regs = outer;
    for (const ast::Statement& s : b.body) {
      switch (s.kind) {
      case ast::Statement::Kind::Decl:
        declare(regs, s.decl);
        break;
      case ast::Statement::Kind::Block:
        block(*s.block, regs);
        break;
      case ast::Statement::Kind::Instruction: {
        Context c = ctx_;
        c.registers = &regs;
        if (auto bound = check_instruction(s.inst, c, diags_)) one_cta_group(*bound, s.inst.loc);
        break;
      }
      default:
        break;
      }
    }
  }
};

} // namespace

void check_module(const ast::Module& module, Diagnostics& diags) {
  ModuleChecker(module, diags).run();
}

} // namespace ptxvm::isa
