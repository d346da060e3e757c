#include "lower/lower.h"

#include <algorithm>
#include <numeric>
#include <bit>
#include <charconv>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "isa/special_registers.h"
#include "front/const_eval.h"
#include "front/printer.h"
#include "isa/match.h"
#include "lower/contraction.h"
#include "lower/zeroed_slots.h"
#include "program/registry.h"
#include "program/unsupported.h"

namespace ptxvm::lower {
namespace {

using namespace ast;
using mem::Space;
using program::Arg;
using program::ArgKind;
using program::Function;
using program::kNoReg;
using program::Op;
using program::Param;
using program::Program;

// Function "addresses" (mov %rd, func; call %rd) are their index above this base.
constexpr uint64_t kFunctionBase = 0x0000'7a00'0000'0000ull;

struct Symbol {
  enum class Kind : uint8_t { Reg, Pred, Var, Label, Function };
  Kind kind = Kind::Reg;
  uint32_t slot = 0;    // Reg/Pred: first slot; Label: op index; Function: index
  uint32_t count = 0;   // %r<count>; 0 for a plain name
  uint32_t width = 1;   // slots per register (vector registers)
  Space space = Space::Generic;  // Var
  uint64_t address = 0;          // Var: address in its own state space
  bool call_argument = false;    // Var: a .param declared in a body (a call's argument or result)
  bool narrow = false;           // Reg: at most 32 bits wide, so an address it holds wraps at 2^32
};

uint32_t type_size(const std::string& t) {
  if (t == ".pred") return 1;
  if (t.size() < 3) return 0;
  if (t == ".f16x2" || t == ".bf16x2") return 4;
  if (t == ".b128") return 16;
  if (t == ".texref" || t == ".samplerref" || t == ".surfref") return 8;
  auto digits = t.substr(t.find_first_of("0123456789"));
  unsigned bits = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), bits);
  return bits / 8;
}

uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

Space space_of(ast::Space s) {
  switch (s) {
  case ast::Space::Global: return Space::Global;
  case ast::Space::Shared: return Space::Shared;
  case ast::Space::Local: return Space::Local;
  case ast::Space::Const: return Space::Const;
  case ast::Space::Param: return Space::Param;
  default: return Space::Generic;
  }
}

uint64_t generic_address(Space s, uint64_t a) {
  switch (s) {
  case Space::Shared: return mem::kSharedWindow + a;
  case Space::Local: return mem::kLocalWindow + a;
  case Space::Const: return mem::kConstWindow + a;
  case Space::Param: return mem::kParamWindow + a;
  default: return a;
  }
}

// f64 constant ▶ f32 bits, rounding to nearest even (the host's default rounding mode).
uint32_t f64_to_f32_bits(double d) { return std::bit_cast<uint32_t>(static_cast<float>(d)); }

class Lowerer {
public:
  Lowerer(const SourceFile& src, mem::GlobalMemory& g, Diagnostics& d)
      : source_(src), global_(g), diags_(d) {}

  std::optional<Program> run(const Module& m, bool optimize) {
    prog_.source_name = source_.name();
    for (const std::string& t : m.targets)
      if (t.rfind("sm_", 0) == 0) prog_.target = t;
    scopes_.emplace_back();
    declare_functions(m);
    layout_module_variables(m);
    if (diags_.has_errors()) return std::nullopt;
    for (const TopLevel& t : m.items)
      if (t.kind == TopLevel::Kind::File) prog_.files[static_cast<uint32_t>(t.file.index)] = t.file.path;
    for (const TopLevel& t : m.items)
      if (t.kind == TopLevel::Kind::Function && t.func->body) function(*t.func);
    for (const PendingInit& p : inits_) initialize(p);
    lay_out_shared();
    prog_.local_bytes = static_cast<uint32_t>(align_up(local_size_, 16));
    std::sort(prog_.local_objects.begin(), prog_.local_objects.end(),
              [](const auto& a, const auto& b) { return a.offset < b.offset; });
    prog_.reg_slots = next_slot_;
    prog_.pred_regs = next_pred_;
    if (diags_.has_errors()) return std::nullopt;
    // Without optimization (a JIT level of 0, or a debug target, §11.2.2 `.target ..., debug`),
    // ptxas fuses and folds nothing (contraction.h).
    if (optimize && std::find(m.targets.begin(), m.targets.end(), "debug") == m.targets.end())
      for (const Function& f : prog_.functions)
        if (f.defined) contract(prog_, f, unrounded_);
    for (Function& f : prog_.functions)
      if (f.is_entry && f.defined) f.zeroed_slots = zeroed_slots(prog_, f);
    return std::move(prog_);
  }

private:
  struct PendingInit {
    const Declarator* decl;
    std::string type;
    uint8_t* target;
    uint64_t size;
  };

  // ---- names ----
  const Symbol* lookup(const std::string& name, uint32_t* index = nullptr) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      if (auto it = s->find(name); it != s->end()) {
        if (index) *index = 0;
        return &it->second;
      }
      size_t i = name.size();
      while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
      if (i == name.size() || i == 0) continue;
      auto it = s->find(name.substr(0, i));
      if (it == s->end() || it->second.count == 0) continue;
      uint32_t n = 0;
      std::from_chars(name.data() + i, name.data() + name.size(), n);
      if (n < it->second.count) {
        if (index) *index = n;
        return &it->second;
      }
    }
    return nullptr;
  }
  void define(const std::string& name, Symbol s) { scopes_.back()[name] = s; }

  // ---- module scope ----
  void declare_functions(const Module& m) {
    for (const TopLevel& t : m.items) {
      if (t.kind != TopLevel::Kind::Function) continue;
      const ast::Function& f = *t.func;
      auto [it, fresh] = prog_.function_index.emplace(f.name, static_cast<uint32_t>(prog_.functions.size()));
      if (fresh) {
        Function fn;
        fn.name = f.name;
        fn.is_entry = f.is_entry;
        prog_.functions.push_back(fn);
        define(f.name, {Symbol::Kind::Function, it->second});
      }
      Function& fn = prog_.functions[it->second];
      if (!f.body) continue;
      fn.defined = true;
      lay_out_params(f, fn, it->second);
      for (const FuncDirective& d : f.directives) {  // the launch checks them (runtime/launch_limits)
        auto copy = [&](uint32_t* to) {
          for (size_t i = 0; i < d.values.size() && i < 3; ++i) to[i] = static_cast<uint32_t>(d.values[i]);
        };
        if (d.name == ".maxntid" || d.name == ".reqntid") copy(fn.max_ntid);
        if (d.name == ".reqntid") fn.req_ntid = true;
        if (d.name == ".reqnctapercluster") copy(fn.req_cluster);
        if (d.name == ".minnctapersm" && !d.values.empty()) fn.min_ctas_per_sm = static_cast<uint32_t>(d.values[0]);
        if (d.name == ".maxclusterrank" && !d.values.empty()) fn.max_cluster_rank = static_cast<uint32_t>(d.values[0]);
        if (d.name == ".explicitcluster") fn.explicit_cluster = true;
      }
    }
    for (const TopLevel& t : m.items)
      if (t.kind == TopLevel::Kind::Alias)
        if (auto it = prog_.function_index.find(t.alias.target); it != prog_.function_index.end())
          define(t.alias.alias, {Symbol::Kind::Function, it->second});
  }

  // Kernel parameters live in the parameter buffer (§5.1.6.1); device-function parameters and
  // return values in the per-thread frame in local memory, copied by call and ret (§7).
  void lay_out_params(const ast::Function& f, Function& fn, uint32_t index) {
    auto place = [&](const VarDecl& d, std::vector<Param>& out, uint64_t& cursor) {
      for (const Declarator& n : d.names) {
        uint64_t size = var_size(d, n, nullptr);
        uint64_t align = d.align ? *d.align : std::max<uint64_t>(1, type_size(d.type));
        cursor = align_up(cursor, align);
        out.push_back({n.name, static_cast<uint32_t>(cursor), static_cast<uint32_t>(size),
                       static_cast<uint32_t>(align)});
        cursor += size;
      }
    };
    if (f.is_entry) {
      uint64_t cursor = 0;
      for (const VarDecl& d : f.params) place(d, fn.params, cursor);
      fn.param_bytes = static_cast<uint32_t>(cursor);
      return;
    }
    for (const VarDecl& d : f.params) place(d, fn.params, local_size_);
    for (const VarDecl& d : f.returns) place(d, fn.returns, local_size_);
    for (const std::vector<Param>* frame : {&fn.params, &fn.returns})
      for (const Param& p : *frame) prog_.local_objects.push_back({p.offset, p.size, p.name, static_cast<int32_t>(index)});
  }

  // Bytes of one declarator: element size × dimensions; an unsized dimension takes the
  // initializer's length.
  uint64_t var_size(const VarDecl& d, const Declarator& n, uint64_t* elem_out) {
    uint64_t elem = type_size(d.type) * std::max<uint32_t>(1, d.vector);
    if (elem_out) *elem_out = elem;
    uint64_t count = 1;
    for (size_t i = 0; i < n.dims.size(); ++i) {
      if (n.dims[i]) {
        count *= (*n.dims[i])->value;
      } else if (i == 0 && n.init && n.init->is_list) {
        count *= n.init->list.size();
      } else {
        count *= 0;  // extern unsized array: dynamic shared memory
      }
    }
    return elem * count;
  }

  void layout_module_variables(const Module& m) {
    for (const TopLevel& t : m.items)
      if (t.kind == TopLevel::Kind::Decl) variable(t.decl, /*module_scope=*/true);
  }

  // Lays out one declaration in the current scope.
  void variable(const VarDecl& d, bool module_scope) {
    for (const Declarator& n : d.names) {
      if (d.space == ast::Space::Reg) {
        register_decl(d, n);
        continue;
      }
      uint64_t elem = 0;
      uint64_t size = var_size(d, n, &elem);
      uint64_t align = d.align ? *d.align : std::max<uint64_t>(1, elem);
      Symbol s{Symbol::Kind::Var};
      s.space = space_of(d.space);
      switch (d.space) {
      case ast::Space::Global: {
        if (d.linkage == Linkage::Extern && module_scope && lookup(n.name)) continue;
        s.address = global_.allocate(std::max<uint64_t>(size, 1), std::max<uint64_t>(align, 16));
        if (n.init) inits_.push_back({&n, d.type, global_.find(s.address, size), size});
        break;
      }
      case ast::Space::Const: {
        auto& bank = prog_.constants.bytes;
        s.address = align_up(bank.size(), align);
        bank.resize(s.address + size, 0);
        if (n.init) inits_.push_back({&n, d.type, nullptr, size});
        pending_const_[&n] = s.address;
        break;
      }
      case ast::Space::Shared: {
        // Each kernel lays out the variables it reaches (lay_out_shared); a reference is [the
        // variable's register + offset], the register holding its address in the running CTA.
        const bool dynamic = d.linkage == Linkage::Extern && size == 0;
        s.address = shared_vars_.size();
        s.slot = next_slot_++;
        shared_vars_.push_back({size, align, module_scope ? -1 : static_cast<int32_t>(current_), dynamic, s.slot});
        break;
      }
      case ast::Space::Local:
      case ast::Space::Param:  // call arguments declared in a body live in the thread's frame
        local_size_ = align_up(local_size_, align);
        s.address = local_size_;
        s.space = Space::Local;
        s.call_argument = d.space == ast::Space::Param;
        local_size_ += size;
        if (!module_scope && !s.call_argument) {  // the function's own frame (own_local_)
          if (own_local_.size() <= current_) own_local_.resize(current_ + 1, 0);
          own_local_[current_] = align_up(own_local_[current_], align) + size;
        }
        prog_.local_objects.push_back({static_cast<uint32_t>(s.address), static_cast<uint32_t>(size), n.name,
                                       module_scope ? -1 : static_cast<int32_t>(current_)});
        break;
      default:
        s.space = Space::Global;  // .tex and other legacy spaces: not addressable here
        break;
      }
      if (module_scope && (d.space == ast::Space::Global || d.space == ast::Space::Const))
        prog_.variables[n.name] = {s.space, s.address, size};
      define(n.name, s);
    }
  }

  void register_decl(const VarDecl& d, const Declarator& n) {
    // A .b128 register takes two slots (low half first), like a .v2.b64 (§5.2.1).
    uint32_t width = std::max<uint32_t>(1, d.vector) * (d.type == ".b128" ? 2 : 1);
    uint32_t count = n.range ? static_cast<uint32_t>(*n.range) : 1;
    Symbol s;
    s.count = n.range ? count : 0;
    s.width = width;
    s.narrow = type_size(d.type) <= 4;
    if (d.type == ".pred") {
      s.kind = Symbol::Kind::Pred;
      s.slot = next_pred_;
      next_pred_ += count;
    } else {
      s.kind = Symbol::Kind::Reg;
      s.slot = next_slot_;
      next_slot_ += count * width;
    }
    define(n.name, s);
  }

  // ---- initializers (§5.4.4) ----
  void initialize(const PendingInit& p) {
    uint8_t* target = p.target;
    if (!target) target = prog_.constants.bytes.data() + pending_const_.at(p.decl);
    uint64_t elem = type_size(p.type);
    uint64_t cursor = 0;
    write_init(*p.decl->init, p.type, elem, target, p.size, cursor);
  }

  void write_init(const Initializer& in, const std::string& type, uint64_t elem, uint8_t* target,
                  uint64_t size, uint64_t& cursor) {
    if (in.is_list) {
      for (const Initializer& i : in.list) write_init(i, type, elem, target, size, cursor);
      return;
    }
    if (cursor + elem > size) return;
    uint64_t bits = init_value(*in.expr, type);
    std::memcpy(target + cursor, &bits, elem);
    cursor += elem;
  }

  uint64_t init_value(const Expr& e, const std::string& type) {
    if (auto v = address_value(e)) return *v;
    front::EvalResult r = front::evaluate(e);
    if (!r.value) {
      diags_.error(r.loc, r.error);
      return 0;
    }
    return convert(*r.value, type);
  }

  // Addresses in initializers: `sym`, `sym+off`, generic(sym), mask(expr).
  std::optional<uint64_t> address_value(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::Symbol: {
      const Symbol* s = lookup(e.name);
      if (!s) return std::nullopt;
      if (s->kind == Symbol::Kind::Function) return kFunctionBase + s->slot;
      return s->address;
    }
    case Expr::Kind::Generic: {
      const Symbol* s = e.kids[0]->kind == Expr::Kind::Symbol ? lookup(e.kids[0]->name) : nullptr;
      if (!s) return address_value(*e.kids[0]);
      return s->kind == Symbol::Kind::Function ? kFunctionBase + s->slot
                                               : generic_address(s->space, s->address);
    }
    case Expr::Kind::Mask: {
      auto v = address_value(*e.kids[0]);
      uint64_t x = v ? *v : init_value(*e.kids[0], ".u64");
      return (x & e.value) >> std::countr_zero(e.value ? e.value : 1);
    }
    case Expr::Kind::Binary:
      if (e.bop == BinaryOp::Add || e.bop == BinaryOp::Sub) {
        auto a = address_value(*e.kids[0]);
        if (!a) return std::nullopt;
        front::EvalResult r = front::evaluate(*e.kids[1]);
        if (!r.value) return std::nullopt;
        return e.bop == BinaryOp::Add ? *a + r.value->bits : *a - r.value->bits;
      }
      return std::nullopt;
    default: return std::nullopt;
    }
  }

  // The .shared variable an address expression of address_value starts from, or null.
  const Symbol* shared_variable(const Expr& e) {
    const Expr* base = &e;
    while (base->kind == Expr::Kind::Generic ||
           (base->kind == Expr::Kind::Binary && (base->bop == BinaryOp::Add || base->bop == BinaryOp::Sub)))
      base = base->kids[0].get();
    if (base->kind != Expr::Kind::Symbol) return nullptr;
    const Symbol* s = lookup(base->name);
    return s && s->kind == Symbol::Kind::Var && s->space == Space::Shared ? s : nullptr;
  }

  // A constant in the representation of `type`.
  // Floats convert to the operand's float type (a 0f literal keeps its exact bits, §4.5.2);
  // integers keep their bits, which the handler truncates to the operand size.
  static uint64_t convert(const front::ConstValue& v, const std::string& type) {
    bool is_float = !v.is_integer();
    if (type == ".f32" && is_float)
      return v.type == front::ConstValue::Type::F32 ? v.bits : f64_to_f32_bits(v.as_double());
    if (type == ".f64" && is_float) return std::bit_cast<uint64_t>(v.as_double());
    return v.bits;
  }

  // ---- functions ----
  void function(const ast::Function& f) {
    uint32_t index = prog_.function_index.at(f.name);
    Function& fn = prog_.functions[index];
    current_ = index;
    source_file_ = source_line_ = 0;
    outermost_.clear();
    fn.entry = static_cast<uint32_t>(prog_.ops.size());
    fn.reg_base = next_slot_;
    fn.pred_base = next_pred_;
    scopes_.emplace_back();
    for (const Param& p : fn.params)
      define(p.name, {Symbol::Kind::Var, 0, 0, 1, f.is_entry ? Space::Param : Space::Local, p.offset});
    for (const Param& p : fn.returns) define(p.name, {Symbol::Kind::Var, 0, 0, 1, Space::Local, p.offset});
    block(*f.body);
    scopes_.pop_back();
    // A body that runs off its end returns (§9.7.12.6 ret is implicit at the closing brace).
    emit_implicit_return(f);
    prog_.functions[index].end = static_cast<uint32_t>(prog_.ops.size());
    prog_.functions[index].reg_count = next_slot_ - prog_.functions[index].reg_base;
    prog_.functions[index].pred_count = next_pred_ - prog_.functions[index].pred_base;
  }

  // Each kernel's shared memory, as ptxas lays it out (tests/hw/shared_layout): the static
  // variables its body declares or names, in declaration order at their alignment, then those of
  // the device functions it reaches (calls, function addresses), the end rounded up to 16 bytes;
  // then every dynamic (extern, unsized) array of the module, named by the kernel or not, in
  // declaration order at its alignment — so one declared .align 1024 moves the arrays declared
  // after it, and the kernel's static size, to a 1024-byte boundary. Dynamic shared memory
  // follows the static size. A variable's register holds its address in each CTA
  // (program::Function::shared_vars; the engine fills it).
  void lay_out_shared() {
    std::unordered_map<uint32_t, uint32_t> var_of_slot;
    for (uint32_t v = 0; v < shared_vars_.size(); ++v) var_of_slot[shared_vars_[v].slot] = v;
    // Per function: the functions its ops name, and the shared variables it declares or names.
    std::vector<std::set<uint32_t>> calls(prog_.functions.size()), vars(prog_.functions.size());
    std::vector<bool> calls_indirectly(prog_.functions.size());
    for (uint32_t v = 0; v < shared_vars_.size(); ++v)
      if (shared_vars_[v].function >= 0) vars[static_cast<size_t>(shared_vars_[v].function)].insert(v);
    for (uint32_t f = 0; f < prog_.functions.size(); ++f)
      for (uint32_t i = prog_.functions[f].entry; i < prog_.functions[f].end; ++i) {
        std::function<void(const Arg&)> scan = [&](const Arg& a) {
          if (a.kind == ArgKind::Function) calls[f].insert(a.reg);
          if (a.kind == ArgKind::Address)
            if (auto it = var_of_slot.find(a.reg); it != var_of_slot.end()) vars[f].insert(it->second);
          for (const Arg& e : a.elems) scan(e);
        };
        const Op& op = prog_.ops[i];
        for (const Arg& a : op.args) scan(a);
        // an indirect call (through a register, §9.7.12.5) may reach any function
        if (op.family && op.family->mnemonic == "call" &&
            std::none_of(op.args.begin(), op.args.end(), [](const Arg& a) { return a.kind == ArgKind::Function; }))
          calls_indirectly[f] = true;
      }
    for (uint32_t k = 0; k < prog_.functions.size(); ++k) {
      Function& kernel = prog_.functions[k];
      if (!kernel.is_entry) continue;
      std::set<uint32_t> reached{k}, others;
      for (std::vector<uint32_t> work{k}; !work.empty();) {
        const uint32_t f = work.back();
        work.pop_back();
        for (uint32_t g : calls[f])
          if (g < prog_.functions.size() && reached.insert(g).second) work.push_back(g);
      }
      kernel.reached.assign(reached.begin(), reached.end());
      kernel.local_size = static_cast<uint32_t>(stack_bytes(k, calls));
      if (std::any_of(reached.begin(), reached.end(), [&](uint32_t f) { return calls_indirectly[f]; })) {
        kernel.reached.resize(prog_.functions.size());
        std::iota(kernel.reached.begin(), kernel.reached.end(), 0u);
      }
      for (uint32_t f : reached)
        if (f != k) others.insert(vars[f].begin(), vars[f].end());
      std::vector<uint32_t> order(vars[k].begin(), vars[k].end());
      for (uint32_t v : others)
        if (!vars[k].count(v)) order.push_back(v);
      uint64_t offset = 0;
      for (uint32_t v : order) {
        const SharedVar& s = shared_vars_[v];
        if (s.dynamic) continue;
        offset = align_up(offset, s.align);
        kernel.shared_vars.push_back({s.slot, static_cast<uint32_t>(offset)});
        offset += s.size;
      }
      offset = align_up(offset, 16);
      for (const SharedVar& s : shared_vars_)
        if (s.dynamic) {
          offset = align_up(offset, s.align);
          kernel.shared_vars.push_back({s.slot, static_cast<uint32_t>(offset)});
        }
      kernel.shared_bytes = static_cast<uint32_t>(offset);
    }
  }

  void emit_implicit_return(const ast::Function& f) {
    ast::Instruction ret;
    ret.loc = f.loc;
    ret.opcode = f.is_entry ? "exit" : "ret";
    instruction(ret);
  }

  static uint32_t count_instructions(const Block& b) {
    uint32_t n = 0;
    for (const Statement& s : b.body) {
      if (s.kind == Statement::Kind::Instruction) ++n;
      if (s.kind == Statement::Kind::Block) n += count_instructions(*s.block);
    }
    return n;
  }

  void block(const Block& b) {
    scopes_.emplace_back();
    // Labels are block-scoped and may be named before they are defined: place them first.
    uint32_t at = static_cast<uint32_t>(prog_.ops.size());
    for (const Statement& s : b.body) {
      if (s.kind == Statement::Kind::Label) define(s.name, {Symbol::Kind::Label, at});
      if (s.kind == Statement::Kind::BranchTargets) branch_targets_[s.name] = s.words;
      if (s.kind == Statement::Kind::CallPrototype || s.kind == Statement::Kind::CallTargets)
        define(s.name, {Symbol::Kind::Label, kNoReg});  // names that call checks against
      if (s.kind == Statement::Kind::Instruction) ++at;
      if (s.kind == Statement::Kind::Block) at += count_instructions(*s.block);
    }
    for (const Statement& s : b.body) {
      switch (s.kind) {
      case Statement::Kind::Decl: variable(s.decl, false); break;
      case Statement::Kind::Loc: loc(s); break;
      case Statement::Kind::Instruction: instruction(s.inst); break;
      case Statement::Kind::Block: block(*s.block); break;
      default: break;
      }
    }
    scopes_.pop_back();
  }

  // .loc file line column [, function_name f, inlined_at file line column] (§11.5.3): the source
  // line of the instructions after it. Code inlined from a library header is named by the line of
  // the program that called it: inlined_at points at the .loc of the call, which may itself be
  // inlined; the outermost is kept.
  void loc(const Statement& s) {
    std::pair<uint32_t, uint32_t> at{static_cast<uint32_t>(s.loc_args[0]), static_cast<uint32_t>(s.loc_args[1])};
    if (s.inlined_at.size() == 3) {
      auto call = outermost_.find({s.inlined_at[0], s.inlined_at[1], s.inlined_at[2]});
      at = call != outermost_.end() ? call->second
                                    : std::pair{static_cast<uint32_t>(s.inlined_at[0]), static_cast<uint32_t>(s.inlined_at[1])};
    }
    outermost_[{s.loc_args[0], s.loc_args[1], s.loc_args[2]}] = at;
    std::tie(source_file_, source_line_) = at;
  }

  // ---- instructions ----
  void instruction(const ast::Instruction& in) {
    Op op;
    op.function = current_;
    op.line = in.loc.line;
    op.source_file = source_file_;
    op.source_line = source_line_;
    op.text = front::print_instruction(in);
    std::vector<isa::Problem> problems;
    std::vector<isa::Bound> bounds = isa::bind_all(in, problems);
    if (bounds.empty()) {
      diags_.error(in.loc, "unsupported: '" + op.text + "': " +
                               (problems.empty() ? "no instruction table row" : problems[0].message));
      return;
    }
    const isa::Bound* chosen = nullptr;
    std::string why;
    for (const isa::Bound& b : bounds) {
      program::Selector select = program::find_selector(*b.family);
      if (!select) {
        why = "ptxvm does not execute " + b.family->mnemonic + " yet: " + program::unsupported_reason(*b.family);
        continue;
      }
      op.family = b.family;
      op.binding = b.binding;
      if (!operands(in, b, op)) return;
      if (select(b, op, why)) {
        chosen = &b;
        break;
      }
      op.args.clear();
    }
    if (!chosen) {
      diags_.error(in.loc, "unsupported: " + isa::spelling(bounds[0]) + " (PTX §" +
                               bounds[0].family->section + "): " + why);
      return;
    }
    if (in.guard) {
      uint32_t idx = 0;
      const Symbol* s = lookup(in.guard->pred, &idx);
      if (!s || s->kind != Symbol::Kind::Pred) {
        diags_.error(in.guard->loc, "guard '" + in.guard->pred + "' is not a predicate register");
        return;
      }
      op.guard = s->slot + idx;
      op.guard_negated = in.guard->negated;
    }
    // PTX §9.7.3.3: without a rounding modifier, the code generator may contract (contraction.h).
    const int rnd = chosen->family->axis("rnd");
    unrounded_.push_back(rnd >= 0 && !(chosen->written >> rnd & 1));
    prog_.ops.push_back(std::move(op));
  }

  // The type of operand `i` from the row (".f32", ".u64", ...), or "" when not fixed.
  static std::string operand_type(const isa::Bound& b, size_t i) {
    const auto& ops = b.family->operands;
    if (i >= ops.size()) return "";
    const isa::Operand& o = ops[i];
    if (o.type_axis >= 0) {
      int v = b.binding.value[static_cast<size_t>(o.type_axis)];
      return v >= 0 ? b.family->axes[static_cast<size_t>(o.type_axis)].values[static_cast<size_t>(v)] : "";
    }
    return o.types.size() == 1 ? o.types[0] : "";
  }

  bool operands(const ast::Instruction& in, const isa::Bound& b, Op& op) {
    // The state-space axis is `ss` in ld/st and `space` in atom, red, prefetch, isspacep, ...
    const std::string* space = b.value("ss") ? b.value("ss") : b.value("space");
    std::string ss = space ? *space : "";
    const std::string& mnemonic = b.family->mnemonic;
    op.cta_window = (ss == ".shared" || ss == ".shared::cta") &&
                    (mnemonic == "ld" || mnemonic == "st" || mnemonic == "atom" || mnemonic == "red");
    const std::vector<isa::Operand>& row = b.family->operands;
    for (size_t i = 0; i < in.operands.size(); ++i) {
      negatable_ = i < row.size() && row[i].negatable;
      taking_address_ = i < row.size() && row[i].address_of;
      Arg a;
      if (!operand(in.operands[i], operand_type(b, i), ss, a)) return false;
      op.args.push_back(std::move(a));
    }
    return true;
  }

  bool fail(SourceLoc loc, const std::string& msg) {
    diags_.error(loc, msg);
    return false;
  }

  bool operand(const ast::Operand& o, const std::string& type, const std::string& ss, Arg& a) {
    switch (o.kind) {
    case ast::Operand::Kind::Sink: a.kind = ArgKind::Sink; return true;
    case ast::Operand::Kind::Vector:
    case ast::Operand::Kind::List:
    case ast::Operand::Kind::Pair:
      a.kind = ArgKind::Vector;
      for (const ast::Operand& e : o.elems) {
        Arg sub;
        if (!operand(e, type, ss, sub)) return false;
        if (sub.kind == ArgKind::Vector && o.kind == ast::Operand::Kind::Vector) {
          // A multi-slot register in braces ({%q0, %q1} of .b128) contributes its slots.
          for (Arg& slot : sub.elems) a.elems.push_back(std::move(slot));
          continue;
        }
        a.elems.push_back(std::move(sub));
      }
      return true;
    case ast::Operand::Kind::Address: {
      if (!address(*o.elems[0].expr, ss, a)) return false;
      for (size_t i = 1; i < o.elems.size(); ++i) {  // [tmap, {coords}] and texture forms
        Arg sub;
        if (!operand(o.elems[i], "", ss, sub)) return false;
        a.elems.push_back(std::move(sub));
      }
      return true;
    }
    case ast::Operand::Kind::Expr: return value(*o.expr, type, a);
    }
    return false;
  }

  // [reg], [reg+imm], [var], [var+imm], [imm] (§6.4.1)
  bool address(const Expr& e, const std::string& ss, Arg& a) {
    a.kind = ArgKind::Address;
    const Expr* base = &e;
    int64_t offset = 0;
    if (e.kind == Expr::Kind::Binary && (e.bop == BinaryOp::Add || e.bop == BinaryOp::Sub)) {
      front::EvalResult r = front::evaluate(*e.kids[1]);
      if (!r.value) return fail(r.loc, "address offset: " + r.error);
      offset = e.bop == BinaryOp::Add ? r.value->as_signed() : -r.value->as_signed();
      base = e.kids[0].get();
    }
    if (base->kind == Expr::Kind::Symbol) {
      uint32_t idx = 0;
      const Symbol* s = lookup(base->name, &idx);
      if (s && s->kind == Symbol::Kind::Reg) {
        a.reg = s->slot + idx * s->width;
        a.imm = static_cast<uint64_t>(offset);
        a.narrow = s->narrow;
        return true;
      }
      if (s && s->kind == Symbol::Kind::Var) {
        // A variable names an address in its own space; a generic access uses its window.
        bool generic = ss.empty();
        a.space = generic ? Space::Generic : s->space;
        if (s->space == Space::Shared) {
          a.reg = s->slot;
          a.imm = (generic ? mem::kSharedWindow : 0) + static_cast<uint64_t>(offset);
          return true;
        }
        a.imm = (generic ? generic_address(s->space, s->address) : s->address) + static_cast<uint64_t>(offset);
        return true;
      }
      return fail(base->loc, "'" + base->name + "' cannot be used as an address");
    }
    front::EvalResult r = front::evaluate(e);
    if (!r.value) return fail(r.loc, "address: " + r.error);
    a.imm = r.value->bits;
    return true;
  }

  bool value(const Expr& e, const std::string& type, Arg& a) {
    // `-a`, `-b`, `-c` of vmad (§9.7.18.1.3, 000_70a4b524dfe259fa.txt): a negated register;
    // sem/video.cpp checks which negations the instruction allows.
    if (e.kind == Expr::Kind::Unary && e.uop == UnaryOp::Minus && e.kids[0]->kind == Expr::Kind::Symbol) {
      const Symbol* s = lookup(e.kids[0]->name);
      if (s && s->kind == Symbol::Kind::Reg) {
        if (!negatable_) return fail(e.loc, "'-' negates a register operand of vmad only (§9.7.18.1.3)");
        if (!value(*e.kids[0], type, a)) return false;
        a.negated = true;
        return true;
      }
    }
    if (e.kind == Expr::Kind::Unary && e.uop == UnaryOp::Not && e.kids[0]->kind == Expr::Kind::Symbol) {
      if (!value(*e.kids[0], type, a)) return false;
      if (a.kind != ArgKind::Pred) return fail(e.loc, "'!' applies only to predicates");
      a.negated = true;
      return true;
    }
    if (e.kind == Expr::Kind::Symbol) {
      if (auto bt = branch_targets_.find(e.name); bt != branch_targets_.end()) {  // brx.idx
        a.kind = ArgKind::Vector;
        for (const std::string& label : bt->second) {
          const Symbol* l = lookup(label);
          if (!l || l->kind != Symbol::Kind::Label) return fail(e.loc, "'" + label + "' is not a label");
          Arg t;
          t.kind = ArgKind::Target;
          t.reg = l->slot;
          a.elems.push_back(t);
        }
        return true;
      }
      uint32_t idx = 0;
      if (const Symbol* s = lookup(e.name, &idx)) return symbol(e, *s, idx, a);
      if (const isa::SpecialRegister* sr = isa::find_special_register(e.name)) {
        if (sr->id == isa::SpecialReg::WarpSz) {  // a constant (§4.5.1)
          a.kind = ArgKind::Imm;
          a.imm = 32;
          return true;
        }
        a.kind = ArgKind::Special;
        a.reg = static_cast<uint32_t>(sr->id);
        a.component = e.component.empty() ? 0 : static_cast<uint8_t>(std::string("xyzw").find(e.component[0]));
        if (sr->id == isa::SpecialReg::Envreg) a.imm = std::stoul(e.name.substr(7));  // %envreg<N>
        return true;
      }
      return fail(e.loc, "'" + e.name + "' cannot be used here");
    }
    if (auto addr = address_value(e)) {  // var+offset as a value
      a.kind = ArgKind::Imm;
      a.imm = *addr;
      if (const Symbol* v = shared_variable(e)) {  // [its register + offset] (lay_out_shared)
        a.kind = ArgKind::Address;
        a.space = Space::Shared;
        a.reg = v->slot;
        a.imm = *addr - v->address;  // the offset (and the generic window, for generic(var))
      }
      return true;
    }
    front::EvalResult r = front::evaluate(e);
    if (!r.value) return fail(r.loc, r.error);
    a.kind = ArgKind::Imm;
    a.imm = convert(*r.value, type);
    return true;
  }

  // Video byte/half-word selectors on a scalar register (§9.7.18): `.b0`..`.b3`, `.h0`, `.h1`
  // (scalar), `.b3210`, `.h10` (SIMD selects and masks). Stored as Arg::component = 0x80 | 0x40
  // for `h` | the digit count, and Arg::imm = the digits as written, one per nibble (`.b7654` →
  // 0x7654); sem/video.cpp decodes them and checks which forms each instruction accepts.
  static bool video_selector(const std::string& c, Arg& a) {
    if (c.size() < 2 || c.size() > 5 || (c[0] != 'b' && c[0] != 'h')) return false;
    char top = c[0] == 'b' ? '7' : '3';
    uint64_t digits = 0;
    for (size_t i = 1; i < c.size(); ++i) {
      if (c[i] < '0' || c[i] > top) return false;
      digits = digits << 4 | static_cast<uint64_t>(c[i] - '0');
    }
    a.component = static_cast<uint8_t>(0x80 | (c[0] == 'h' ? 0x40 : 0) | (c.size() - 1));
    a.imm = digits;
    return true;
  }

  bool symbol(const Expr& e, const Symbol& s, uint32_t idx, Arg& a) {
    switch (s.kind) {
    case Symbol::Kind::Reg:
      a.kind = ArgKind::Reg;
      a.reg = s.slot + idx * s.width;
      if (s.width == 1 && video_selector(e.component, a)) return true;
      if (!e.component.empty()) {
        size_t c = std::string("xyzw").find(e.component[0]);
        if (e.component.size() != 1 || c == std::string::npos || c >= s.width)
          return fail(e.loc, "'" + e.name + "." + e.component + "': no such vector component");
        a.reg += static_cast<uint32_t>(c);
      } else if (s.width > 1) {
        a.kind = ArgKind::Vector;  // a whole vector register: its elements
        for (uint32_t c = 0; c < s.width; ++c) {
          Arg el;
          el.kind = ArgKind::Reg;
          el.reg = s.slot + idx * s.width + c;
          a.elems.push_back(el);
        }
      }
      return true;
    case Symbol::Kind::Pred:
      a.kind = ArgKind::Pred;
      a.reg = s.slot + idx;
      return true;
    case Symbol::Kind::Label:
      a.kind = ArgKind::Target;
      a.reg = s.slot;
      return true;
    case Symbol::Kind::Function:
      a.kind = ArgKind::Function;
      a.reg = s.slot;
      a.imm = kFunctionBase + s.slot;
      return true;
    case Symbol::Kind::Var:
      // §5.1.6.4: "the address of a locally scoped .param variable cannot be taken with mov".
      if (s.call_argument && taking_address_)
        return fail(e.loc, "the address of '" + e.name + "', a .param variable declared in a body, cannot be taken (§5.1.6.4)");
      a.kind = ArgKind::Imm;
      a.space = s.space;
      a.imm = s.address;
      if (s.space == Space::Shared) {  // the address the variable's register holds (lay_out_shared)
        a.kind = ArgKind::Address;
        a.reg = s.slot;
        a.imm = 0;
      }
      return true;
    }
    return false;
  }

  const SourceFile& source_;
  mem::GlobalMemory& global_;
  Diagnostics& diags_;
  Program prog_;
  std::vector<std::unordered_map<std::string, Symbol>> scopes_;
  std::vector<PendingInit> inits_;
  std::vector<bool> unrounded_;  // per op: written without a rounding modifier (contraction.h)
  std::unordered_map<const Declarator*, uint64_t> pending_const_;
  std::unordered_map<std::string, std::vector<std::string>> branch_targets_;
  // Every .shared variable, in declaration order: its size and alignment, the function that
  // declares it (-1: the module), whether it is dynamic (an extern unsized array), its register.
  struct SharedVar {
    uint64_t size, align;
    int32_t function;
    bool dynamic;
    uint32_t slot;
  };
  std::vector<SharedVar> shared_vars_;
  bool negatable_ = false;       // the operand being lowered may be a negated register (isa::Operand)
  bool taking_address_ = false;  // the operand being lowered takes a variable's address (isa::Operand)
  // A function's local memory as ptxas counts a kernel's (tests/hw/driver/occupancy, an H200's
  // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES): its own .local variables and, along its deepest call
  // path, its callees'; a call back into the path adds nothing more.
  uint64_t stack_bytes(uint32_t f, const std::vector<std::set<uint32_t>>& calls, std::set<uint32_t> path = {}) const {
    path.insert(f);
    uint64_t deepest = 0;
    for (uint32_t g : calls[f])
      if (g < calls.size() && !path.count(g)) deepest = std::max(deepest, stack_bytes(g, calls, path));
    return (f < own_local_.size() ? own_local_[f] : 0) + deepest;
  }

  uint64_t local_size_ = 0;
  std::vector<uint64_t> own_local_;  // per function, the bytes of its own .local variables
  uint32_t next_slot_ = 0;
  uint32_t next_pred_ = 0;
  uint32_t current_ = 0;
  uint32_t source_file_ = 0, source_line_ = 0;  // the last .loc of the function being lowered
  // per .loc location (file, line, column) of the function: the program line it stands for
  std::map<std::tuple<uint64_t, uint64_t, uint64_t>, std::pair<uint32_t, uint32_t>> outermost_;
};

}  // namespace

std::optional<Program> lower_module(const Module& module, const SourceFile& source,
                                    mem::GlobalMemory& global, Diagnostics& diags, bool optimize) {
  return Lowerer(source, global, diags).run(module, optimize);
}

}  // namespace ptxvm::lower
