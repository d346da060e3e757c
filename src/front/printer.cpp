#include "front/printer.h"

#include <cinttypes>
#include <cstdio>

namespace ptxvm {
namespace ast {

const char* to_string(Linkage l) {
  static const char* kNames[] = {"", ".extern", ".visible", ".weak", ".common"};
  return kNames[static_cast<int>(l)];
}

const char* to_string(Space s) {
  static const char* kNames[] = {".reg",   ".sreg",  ".const",  ".global",
                                 ".local", ".param", ".shared", ".tex"};
  return kNames[static_cast<int>(s)];
}

}  // namespace ast

namespace front {
namespace {

using namespace ast;

// Precedence levels of Table 4 (§4.5.4): higher binds tighter.
constexpr int kCondPrec = -1, kUnaryPrec = 10, kPrimaryPrec = 11;

int precedence(BinaryOp op) {
  switch (op) {
  case BinaryOp::LogOr: return 0;
  case BinaryOp::LogAnd: return 1;
  case BinaryOp::BitOr: return 2;
  case BinaryOp::BitXor: return 3;
  case BinaryOp::BitAnd: return 4;
  case BinaryOp::Eq:
  case BinaryOp::Ne: return 5;
  case BinaryOp::Lt:
  case BinaryOp::Gt:
  case BinaryOp::Le:
  case BinaryOp::Ge: return 6;
  case BinaryOp::Shl:
  case BinaryOp::Shr: return 7;
  case BinaryOp::Add:
  case BinaryOp::Sub: return 8;
  default: return 9;
  }
}

const char* spelling(BinaryOp op) {
  static const char* kOps[] = {"*", "/",  "%",  "+",  "-",  "<<", ">>", "<",  ">",
                               "<=", ">=", "==", "!=", "&", "^",  "|",  "&&", "||"};
  return kOps[static_cast<int>(op)];
}

int precedence(const Expr& e) {
  switch (e.kind) {
  case Expr::Kind::Binary: return precedence(e.bop);
  case Expr::Kind::Conditional: return kCondPrec;
  case Expr::Kind::Unary:
  case Expr::Kind::Cast: return kUnaryPrec;
  default: return kPrimaryPrec;
  }
}

void expr_to(std::string& out, const Expr& e);

void child_to(std::string& out, const Expr& e, int min_prec) {
  if (precedence(e) < min_prec) {
    out += '(';
    expr_to(out, e);
    out += ')';
  } else {
    expr_to(out, e);
  }
}

void expr_to(std::string& out, const Expr& e) {
  char buf[32];
  switch (e.kind) {
  case Expr::Kind::Int:
    out += std::to_string(e.value);
    if (e.explicit_unsigned) out += 'U';
    break;
  case Expr::Kind::Float:
    if (e.is_f32)
      snprintf(buf, sizeof buf, "0f%08" PRIX32, static_cast<uint32_t>(e.value));
    else
      snprintf(buf, sizeof buf, "0d%016" PRIX64, e.value);
    out += buf;
    break;
  case Expr::Kind::Symbol:
    out += e.name;
    if (!e.component.empty()) out += "." + e.component;
    break;
  case Expr::Kind::Unary:
    out += "+-!~"[static_cast<int>(e.uop)];
    child_to(out, *e.kids[0], kPrimaryPrec);  // -(-1), never `--1`
    break;
  case Expr::Kind::Cast:
    out += e.cast_unsigned ? "(.u64)" : "(.s64)";
    child_to(out, *e.kids[0], kPrimaryPrec);
    break;
  case Expr::Kind::Binary: {
    int p = precedence(e.bop);
    child_to(out, *e.kids[0], p);
    out += ' ';  // spaced so that `7 % 3` never reads as the identifier `%3`
    out += spelling(e.bop);
    out += ' ';
    child_to(out, *e.kids[1], p + 1);
    break;
  }
  case Expr::Kind::Conditional:
    child_to(out, *e.kids[0], 0);
    out += " ? ";
    child_to(out, *e.kids[1], kCondPrec);
    out += " : ";
    child_to(out, *e.kids[2], kCondPrec);
    break;
  case Expr::Kind::Generic:
    out += "generic(";
    expr_to(out, *e.kids[0]);
    out += ')';
    break;
  case Expr::Kind::Mask:
    snprintf(buf, sizeof buf, "0x%" PRIX64 "(", e.value);
    out += buf;
    expr_to(out, *e.kids[0]);
    out += ')';
    break;
  }
}

void operand_to(std::string& out, const Operand& o);

void list_to(std::string& out, const std::vector<Operand>& elems, const char* open,
             const char* close) {
  out += open;
  for (size_t i = 0; i < elems.size(); ++i) {
    if (i) out += ", ";
    operand_to(out, elems[i]);
  }
  out += close;
}

void operand_to(std::string& out, const Operand& o) {
  switch (o.kind) {
  // An operand's top-level `|` would read as a predicate pair (p|q): parenthesize it.
  case Operand::Kind::Expr: child_to(out, *o.expr, precedence(BinaryOp::BitXor)); break;
  case Operand::Kind::Vector: list_to(out, o.elems, "{", "}"); break;
  case Operand::Kind::Address: list_to(out, o.elems, "[", "]"); break;
  case Operand::Kind::List: list_to(out, o.elems, "(", ")"); break;
  case Operand::Kind::Sink: out += '_'; break;
  case Operand::Kind::Pair:
    operand_to(out, o.elems[0]);
    out += '|';
    operand_to(out, o.elems[1]);
    break;
  }
}

class Printer {
public:
  std::string run(const Module& m) {
    out_ += ".version " + std::to_string(m.version_major) + "." + std::to_string(m.version_minor);
    out_ += "\n.target ";
    for (size_t i = 0; i < m.targets.size(); ++i) out_ += (i ? ", " : "") + m.targets[i];
    out_ += "\n";
    if (m.address_size) out_ += ".address_size " + std::to_string(*m.address_size) + "\n";
    for (const TopLevel& t : m.items) top_level(t);
    return std::move(out_);
  }

private:
  void top_level(const TopLevel& t) {
    switch (t.kind) {
    case TopLevel::Kind::Decl:
      out_ += "\n";
      decl(t.decl);
      out_ += ";\n";
      break;
    case TopLevel::Kind::Function: function(*t.func); break;
    case TopLevel::Kind::Section: section(t.section); break;
    case TopLevel::Kind::File:
      out_ += ".file " + std::to_string(t.file.index) + " \"" + t.file.path + "\"";
      for (uint64_t x : t.file.extra) out_ += ", " + std::to_string(x);
      out_ += "\n";
      break;
    case TopLevel::Kind::Alias:
      out_ += "\n.alias " + t.alias.alias + ", " + t.alias.target + ";\n";
      break;
    case TopLevel::Kind::Dwarf: out_ += "@@DWARF " + t.dwarf + "\n"; break;
    case TopLevel::Kind::Pragma:
      out_ += "\n.pragma ";
      strings(t.pragmas);
      out_ += ";\n";
      break;
    }
  }

  void strings(const std::vector<std::string>& list) {
    for (size_t i = 0; i < list.size(); ++i) out_ += (i ? ", \"" : "\"") + list[i] + "\"";
  }

  void decl(const VarDecl& d) {
    if (d.linkage != Linkage::None) out_ += std::string(to_string(d.linkage)) + " ";
    out_ += to_string(d.space);
    for (const std::string& a : d.attributes) out_ += " .attribute(" + a + ")";
    if (d.align) out_ += " .align " + std::to_string(*d.align);
    if (d.vector) out_ += " .v" + std::to_string(d.vector);
    out_ += " " + d.type;
    if (d.ptr) {
      out_ += " .ptr";
      if (d.ptr_space) out_ += std::string(" ") + to_string(*d.ptr_space);
      if (d.ptr_align) out_ += " .align " + std::to_string(*d.ptr_align);
    }
    for (size_t i = 0; i < d.names.size(); ++i) {
      out_ += i ? ", " : " ";
      declarator(d.names[i]);
    }
  }

  void declarator(const Declarator& dc) {
    out_ += dc.name;
    if (dc.range) out_ += "<" + std::to_string(*dc.range) + ">";
    for (const auto& dim : dc.dims) {
      out_ += '[';
      if (dim) expr_to(out_, **dim);
      out_ += ']';
    }
    if (dc.init) {
      out_ += " = ";
      initializer(*dc.init);
    }
  }

  void initializer(const Initializer& in) {
    if (!in.key.empty()) out_ += in.key + " = ";
    if (!in.is_list) {
      expr_to(out_, *in.expr);
      return;
    }
    out_ += '{';
    for (size_t i = 0; i < in.list.size(); ++i) {
      if (i) out_ += ", ";
      initializer(in.list[i]);
    }
    out_ += '}';
  }

  void params(const std::vector<VarDecl>& list) {
    out_ += "(";
    for (size_t i = 0; i < list.size(); ++i) {
      out_ += i ? ",\n\t" : "\n\t";
      decl(list[i]);
    }
    out_ += list.empty() ? ")" : "\n)";
  }

  void function(const Function& f) {
    out_ += "\n";
    if (f.linkage != Linkage::None) out_ += std::string(to_string(f.linkage)) + " ";
    out_ += f.is_entry ? ".entry" : ".func";
    for (const std::string& a : f.attributes) out_ += " .attribute(" + a + ")";
    if (f.has_returns) {
      out_ += " ";
      params(f.returns);
    }
    out_ += " " + f.name;
    if (f.has_params) params(f.params);
    if (f.noreturn) out_ += " .noreturn";
    for (const FuncDirective& d : f.directives) {
      out_ += "\n" + d.name;
      if (!d.strings.empty()) {
        out_ += " ";
        strings(d.strings);
        out_ += ";";
      }
      for (size_t i = 0; i < d.values.size(); ++i)
        out_ += (i ? ", " : " ") + std::to_string(d.values[i]);
    }
    if (!f.body) {
      out_ += ";\n";
      return;
    }
    out_ += "\n";
    block(*f.body, 0);
  }

  void indent(int depth) { out_.append(static_cast<size_t>(depth) + 1, '\t'); }

  void block(const Block& b, int depth) {
    out_.append(static_cast<size_t>(depth), '\t');
    out_ += "{\n";
    for (const Statement& s : b.body) statement(s, depth);
    out_.append(static_cast<size_t>(depth), '\t');
    out_ += "}\n";
  }

  void statement(const Statement& s, int depth) {
    switch (s.kind) {
    case Statement::Kind::Instruction:
      indent(depth);
      out_ += print_instruction(s.inst);
      break;
    case Statement::Kind::Label: out_ += s.name + ":"; break;
    case Statement::Kind::Decl:
      indent(depth);
      decl(s.decl);
      out_ += ";";
      break;
    case Statement::Kind::Block: block(*s.block, depth + 1); return;
    case Statement::Kind::Loc:
      indent(depth);
      out_ += ".loc " + std::to_string(s.loc_args[0]) + " " + std::to_string(s.loc_args[1]) + " " +
              std::to_string(s.loc_args[2]);
      if (s.loc_function) {
        out_ += ", function_name ";
        expr_to(out_, *s.loc_function);
      }
      if (!s.inlined_at.empty())
        out_ += ", inlined_at " + std::to_string(s.inlined_at[0]) + " " +
                std::to_string(s.inlined_at[1]) + " " + std::to_string(s.inlined_at[2]);
      break;
    case Statement::Kind::Pragma:
      indent(depth);
      out_ += ".pragma ";
      strings(s.words);
      out_ += ";";
      break;
    case Statement::Kind::CallPrototype:
      out_ += s.name + ": .callprototype ";
      if (s.proto.has_returns) {
        params(s.proto.returns);
        out_ += " ";
      }
      out_ += "_ ";
      params(s.proto.params);
      if (s.proto.noreturn) out_ += " .noreturn";
      out_ += ";";
      break;
    case Statement::Kind::BranchTargets:
    case Statement::Kind::CallTargets:
      out_ += s.name +
              (s.kind == Statement::Kind::BranchTargets ? ": .branchtargets " : ": .calltargets ");
      for (size_t i = 0; i < s.words.size(); ++i) out_ += (i ? ", " : "") + s.words[i];
      out_ += ";";
      break;
    }
    out_ += "\n";
  }

  void section(const Section& sec) {
    out_ += "\n.section " + sec.name + "\n{\n";
    for (const SectionItem& it : sec.items) {
      if (!it.label.empty()) {
        out_ += it.label + ":\n";
        continue;
      }
      out_ += it.type;
      for (size_t i = 0; i < it.values.size(); ++i) {
        out_ += i ? ", " : " ";
        expr_to(out_, *it.values[i]);
      }
      out_ += "\n";
    }
    out_ += "}\n";
  }

  std::string out_;
};

}  // namespace

std::string print_expr(const Expr& e) {
  std::string s;
  expr_to(s, e);
  return s;
}

std::string print_operand(const Operand& o) {
  std::string s;
  operand_to(s, o);
  return s;
}

std::string print_instruction(const Instruction& in) {
  std::string s;
  if (in.guard) s += (in.guard->negated ? "@!" : "@") + in.guard->pred + " ";
  s += in.opcode;
  for (const std::string& q : in.qualifiers) s += q;
  for (size_t i = 0; i < in.operands.size(); ++i) {
    s += i ? ", " : " ";
    operand_to(s, in.operands[i]);
  }
  s += ';';
  return s;
}

std::string print_module(const Module& m) { return Printer().run(m); }

}  // namespace front
}  // namespace ptxvm
