#include "front/parser.h"

#include <string>

#include "front/lexer.h"

namespace ptxvm::front {
namespace {

using namespace ast;

// Thrown after a syntax error has been reported; caught at the nearest recovery point.
struct SyntaxError {};

// Nesting limit for blocks, braces and expressions: hostile input must not overflow the stack.
constexpr int kMaxDepth = 256;

std::optional<Space> space_of(std::string_view w) {
  if (w == ".reg") return Space::Reg;
  if (w == ".sreg") return Space::Sreg;
  if (w == ".const") return Space::Const;
  if (w == ".global") return Space::Global;
  if (w == ".local") return Space::Local;
  if (w == ".param") return Space::Param;
  if (w == ".shared") return Space::Shared;
  if (w == ".tex") return Space::Tex;
  return std::nullopt;
}

std::optional<Linkage> linkage_of(std::string_view w) {
  if (w == ".extern") return Linkage::Extern;
  if (w == ".visible") return Linkage::Visible;
  if (w == ".weak") return Linkage::Weak;
  if (w == ".common") return Linkage::Common;
  return std::nullopt;
}

std::string describe(const Token& t) {
  switch (t.kind) {
  case Tok::End: return "end of file";
  case Tok::String: return "string \"" + std::string(t.text) + "\"";
  case Tok::Dwarf: return "@@DWARF";
  default: return "'" + std::string(t.text) + "'";
  }
}

class Parser {
public:
  Parser(const SourceFile& f, Diagnostics& d) : diags_(d), toks_(lex(f, d)) {}

  std::optional<Module> run() {
    Module m;
    m.loc = cur().loc;
    while (cur().kind != Tok::End && diags_.error_count() < Diagnostics::kMaxErrors) {
      size_t before = i_;
      try {
        top_level(m);
      } catch (SyntaxError&) {
        recover(/*in_body=*/false);
        if (i_ == before) advance();
      }
    }
    if (m.version_major == 0 && !diags_.has_errors())
      diags_.error(m.loc, "expected .version directive at the start of the module (§11.1.1)");
    else if (m.targets.empty() && !diags_.has_errors())
      diags_.error(m.version_loc, "expected .target directive after .version (§11.1.2)");
    if (diags_.has_errors()) return std::nullopt;
    return m;
  }

private:
  // ---- token access ----
  const Token& cur() const { return toks_[i_]; }
  const Token& peek(size_t k = 1) const {
    return i_ + k < toks_.size() ? toks_[i_ + k] : toks_.back();
  }
  const Token& advance() {
    const Token& t = toks_[i_];
    if (i_ + 1 < toks_.size()) ++i_;
    return t;
  }
  bool accept(char c) {
    if (!cur().is(c)) return false;
    advance();
    return true;
  }
  [[noreturn]] void fail(SourceLoc loc, const std::string& msg) {
    diags_.error(loc, msg);
    throw SyntaxError{};
  }
  [[noreturn]] void expected(const std::string& what) {
    if (cur().bad) throw SyntaxError{};  // the lexer already reported it
    fail(cur().loc, "expected " + what + ", found " + describe(cur()));
  }
  void expect(char c, const char* context) {
    if (!accept(c)) expected(std::string("'") + c + "' " + context);
  }
  const Token& expect_ident(const char* what) {
    if (cur().kind != Tok::Ident) expected(what);
    return advance();
  }
  uint64_t expect_uint(const char* what) {
    if (cur().kind != Tok::Int) expected(what);
    return advance().ival;
  }
  struct DepthGuard {
    Parser& p;
    DepthGuard(Parser& parser, SourceLoc loc) : p(parser) {
      if (++p.depth_ > kMaxDepth) {
        --p.depth_;
        p.fail(loc, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
      }
    }
    ~DepthGuard() { --p.depth_; }
  };

  // Skips to the end of the broken statement: past `;` at this brace depth, or up to the `}`
  // that closes the enclosing body. At module level also stops before a new top-level directive.
  void recover(bool in_body) {
    int depth = 0;
    while (cur().kind != Tok::End) {
      const Token& t = cur();
      if (t.is('{')) {
        ++depth;
      } else if (t.is('}')) {
        if (depth == 0) {
          if (!in_body) advance();
          return;
        }
        if (--depth == 0 && !in_body) {
          advance();
          return;
        }
      } else if (t.is(';') && depth == 0) {
        advance();
        return;
      } else if (!in_body && depth == 0 && t.kind == Tok::Dot && t.space_before &&
                 starts_top_level(t.text) && i_ > 0) {
        return;
      }
      advance();
    }
  }
  static bool starts_top_level(std::string_view w) {
    return w == ".entry" || w == ".func" || w == ".visible" || w == ".extern" || w == ".weak" ||
           w == ".version" || w == ".target" || w == ".global" || w == ".const" || w == ".file" ||
           w == ".section";
  }

  // ---- module level (§11) ----
  static TopLevel top(TopLevel::Kind kind, SourceLoc loc) {
    TopLevel t;
    t.kind = kind;
    t.loc = loc;
    return t;
  }
  static FuncDirective func_directive(const Token& name) {
    FuncDirective d;
    d.loc = name.loc;
    d.name = std::string(name.text);
    return d;
  }

  void top_level(Module& m) {
    const Token& t = cur();
    if (t.kind == Tok::Dwarf) {
      TopLevel item = top(TopLevel::Kind::Dwarf, t.loc);
      item.dwarf = std::string(t.text);
      m.items.push_back(std::move(item));
      advance();
      return;
    }
    if (t.kind != Tok::Dot) expected("a directive such as .entry, .func or .global");
    std::string_view w = t.text;
    if (w == ".version") return version(m);
    if (w == ".target") return target(m);
    if (w == ".address_size") {
      advance();
      m.address_size = static_cast<uint32_t>(expect_uint("address size 32 or 64"));
      return;
    }
    if (w == ".file") return file(m);
    if (w == ".section") return section(m);
    if (w == ".alias") {
      TopLevel item = top(TopLevel::Kind::Alias, t.loc);
      advance();
      item.alias.loc = t.loc;
      item.alias.alias = std::string(expect_ident("alias name").text);
      expect(',', "between alias and function names");
      item.alias.target = std::string(expect_ident("aliased function name").text);
      expect(';', "after .alias");
      m.items.push_back(std::move(item));
      return;
    }
    if (w == ".pragma") {
      TopLevel item = top(TopLevel::Kind::Pragma, t.loc);
      advance();
      item.pragmas = pragma_strings();
      m.items.push_back(std::move(item));
      return;
    }
    SourceLoc start = t.loc;
    Linkage linkage = Linkage::None;
    if (auto l = linkage_of(w)) {
      linkage = *l;
      advance();
      if (cur().kind != Tok::Dot) expected("'.entry', '.func' or a state space after linkage");
      w = cur().text;
    }
    if (w == ".entry" || w == ".func") {
      TopLevel item = top(TopLevel::Kind::Function, start);
      item.func = function(linkage, start);
      m.items.push_back(std::move(item));
      return;
    }
    if (space_of(w)) {
      TopLevel item = top(TopLevel::Kind::Decl, start);
      item.decl = var_decl(linkage, start, /*single=*/false);
      expect(';', "after variable declaration");
      m.items.push_back(std::move(item));
      return;
    }
    fail(t.loc, "unknown directive '" + std::string(w) + "' at module scope");
  }

  void version(Module& m) {
    const Token& kw = advance();
    const Token& v = cur();
    std::string_view text = v.text;
    size_t dot = text.find('.');
    if ((v.kind != Tok::Float && v.kind != Tok::Int) || dot == std::string_view::npos ||
        dot == 0 || dot + 1 >= text.size())
      expected("version number major.minor");
    try {
      m.version_major = static_cast<uint32_t>(std::stoul(std::string(text.substr(0, dot))));
      m.version_minor = static_cast<uint32_t>(std::stoul(std::string(text.substr(dot + 1))));
    } catch (...) {
      expected("version number major.minor");
    }
    m.version_loc = kw.loc;
    advance();
  }

  void target(Module& m) {
    m.target_loc = advance().loc;
    do m.targets.emplace_back(expect_ident("target name such as sm_90a").text);
    while (accept(','));
  }

  void file(Module& m) {
    TopLevel item = top(TopLevel::Kind::File, cur().loc);
    item.file.loc = advance().loc;
    item.file.index = expect_uint("file index");
    if (cur().kind != Tok::String) expected("file name string");
    item.file.path = std::string(advance().text);
    while (accept(',')) item.file.extra.push_back(expect_uint("timestamp or file size"));
    m.items.push_back(std::move(item));
  }

  // §11.5.2: .section name { .b8 1, 2  .b32 label  .b32 l1 - l2  label: }
  void section(Module& m) {
    TopLevel item = top(TopLevel::Kind::Section, cur().loc);
    item.section.loc = advance().loc;
    if (cur().kind != Tok::Dot && cur().kind != Tok::Ident) expected("section name");
    item.section.name = std::string(advance().text);
    expect('{', "to open the section body");
    while (!cur().is('}')) {
      SectionItem si;
      si.loc = cur().loc;
      if (cur().kind == Tok::Ident && peek().is(':')) {
        si.label = std::string(advance().text);
        advance();
      } else if (cur().kind == Tok::Dot) {
        si.type = std::string(advance().text);
        section_mode_ = true;
        do si.values.push_back(expr(false));
        while (accept(','));
        section_mode_ = false;
      } else {
        expected("'.b8', '.b16', '.b32', '.b64', a label or '}' in section");
      }
      item.section.items.push_back(std::move(si));
    }
    advance();
    m.items.push_back(std::move(item));
  }

  std::vector<std::string> pragma_strings() {
    std::vector<std::string> out;
    do {
      if (cur().kind != Tok::String) expected("pragma string");
      out.emplace_back(advance().text);
    } while (accept(','));
    expect(';', "after .pragma");
    return out;
  }

  // `.attribute(.managed)`, `.attribute(.unified(1, 2))` (§5.4.8), kept in canonical text.
  std::vector<std::string> attributes() {
    std::vector<std::string> out;
    while (cur().is_dot(".attribute")) {
      advance();
      expect('(', "after .attribute");
      do {
        if (cur().kind != Tok::Dot) expected("attribute such as .managed");
        std::string a(advance().text);
        if (accept('(')) {
          a += "(";
          do {
            a += std::to_string(expect_uint("attribute value"));
            if (cur().is(',')) a += ", ";
          } while (accept(','));
          expect(')', "after attribute values");
          a += ")";
        }
        out.push_back(std::move(a));
      } while (accept(','));
      expect(')', "after attribute list");
    }
    return out;
  }

  // ---- declarations (§5.4) ----
  // After the state space: .attribute, .align N, .ptr [.space] [.align N], .vN, type, then
  // declarators. `single` parses exactly one declarator (function parameters).
  VarDecl var_decl(Linkage linkage, SourceLoc start, bool single) {
    VarDecl d;
    d.loc = start;
    d.linkage = linkage;
    if (cur().kind != Tok::Dot || !space_of(cur().text)) expected("state space such as .reg");
    d.space = *space_of(advance().text);
    while (cur().kind == Tok::Dot && d.type.empty()) {
      std::string_view w = cur().text;
      if (w == ".attribute") {
        auto a = attributes();
        d.attributes.insert(d.attributes.end(), a.begin(), a.end());
      } else if (w == ".align") {
        advance();
        d.align = expect_uint("alignment in bytes");
      } else if (w == ".v2" || w == ".v4" || w == ".v8") {
        d.vector = static_cast<uint32_t>(w[2] - '0');
        advance();
      } else if (w == ".ptr") {
        advance();
        d.ptr = true;
        ptr_attributes(d);
      } else {
        d.type = std::string(advance().text);
      }
    }
    if (d.type.empty()) expected("type such as .b32");
    if (cur().is_dot(".ptr")) {  // `.param .u64 .ptr .global .align 16 p` (§5.1.6.3)
      advance();
      d.ptr = true;
      ptr_attributes(d);
    }
    do d.names.push_back(declarator());
    while (!single && accept(','));
    return d;
  }

  void ptr_attributes(VarDecl& d) {
    if (cur().kind == Tok::Dot && space_of(cur().text)) d.ptr_space = *space_of(advance().text);
    if (cur().is_dot(".align")) {
      advance();
      d.ptr_align = expect_uint("pointer alignment in bytes");
    }
  }

  Declarator declarator() {
    Declarator dc;
    dc.loc = cur().loc;
    if (cur().kind == Tok::Sink) {
      dc.name = "_";
      advance();
      return dc;
    }
    dc.name = std::string(expect_ident("variable name").text);
    if (accept('<')) {  // parameterized names %r<100> (§5.4.6)
      dc.range = expect_uint("register count");
      expect('>', "after register count");
    }
    while (accept('[')) {
      if (accept(']')) {
        dc.dims.emplace_back(std::nullopt);
        continue;
      }
      dc.dims.emplace_back(expr(true));
      expect(']', "after array size");
    }
    if (accept('=')) dc.init = initializer();
    return dc;
  }

  Initializer initializer() {
    DepthGuard g(*this, cur().loc);
    Initializer in;
    in.loc = cur().loc;
    if (accept('{')) {
      in.is_list = true;
      if (accept('}')) return in;
      do in.list.push_back(initializer());
      while (accept(','));
      expect('}', "to close initializer list");
      return in;
    }
    if (cur().kind == Tok::Ident && peek().is('=')) {  // sampler field (§5.3.2)
      in.key = std::string(advance().text);
      advance();
    }
    in.expr = expr(true);
    return in;
  }

  // ---- functions (§11.3) ----
  std::unique_ptr<Function> function(Linkage linkage, SourceLoc start) {
    auto f = std::make_unique<Function>();
    f->loc = start;
    f->linkage = linkage;
    f->is_entry = advance().text == ".entry";
    f->attributes = attributes();
    if (!f->is_entry && cur().is('(')) {
      f->has_returns = true;
      f->returns = param_list();
    }
    f->name_loc = cur().loc;
    f->name = std::string(expect_ident("function name").text);
    if (cur().is('(')) {
      f->has_params = true;
      f->params = param_list();
    }
    while (cur().kind == Tok::Dot) {
      std::string_view w = cur().text;
      if (w == ".noreturn") {
        advance();
        f->noreturn = true;
      } else if (w == ".attribute") {
        auto a = attributes();
        f->attributes.insert(f->attributes.end(), a.begin(), a.end());
      } else if (w == ".pragma") {
        FuncDirective fd = func_directive(advance());
        fd.strings = pragma_strings();
        f->directives.push_back(std::move(fd));
      } else {  // .maxntid 256, 1, 1 and the other performance directives (§11.4)
        FuncDirective fd = func_directive(advance());
        if (cur().kind == Tok::Int) {
          do fd.values.push_back(expect_uint("directive value"));
          while (accept(','));
        }
        f->directives.push_back(std::move(fd));
      }
    }
    if (accept(';')) return f;
    if (!cur().is('{')) expected("'{' to start the function body, or ';'");
    f->body = block();
    return f;
  }

  std::vector<VarDecl> param_list() {
    std::vector<VarDecl> out;
    expect('(', "to open the parameter list");
    if (accept(')')) return out;
    do out.push_back(var_decl(Linkage::None, cur().loc, /*single=*/true));
    while (accept(','));
    expect(')', "to close the parameter list");
    return out;
  }

  // ---- statements (§4.3) ----
  std::unique_ptr<Block> block() {
    DepthGuard g(*this, cur().loc);
    auto b = std::make_unique<Block>();
    b->loc = cur().loc;
    expect('{', "to open a block");
    while (!cur().is('}')) {
      if (cur().kind == Tok::End) fail(b->loc, "unterminated block: expected '}' before end of file");
      if (diags_.error_count() >= Diagnostics::kMaxErrors) throw SyntaxError{};
      size_t before = i_;
      try {
        statement(*b);
      } catch (SyntaxError&) {
        recover(/*in_body=*/true);
        if (i_ == before) advance();
      }
    }
    advance();
    return b;
  }

  void statement(Block& b) {
    const Token& t = cur();
    Statement s{};
    s.loc = t.loc;
    if (t.is('{')) {
      s.kind = Statement::Kind::Block;
      s.block = block();
      b.body.push_back(std::move(s));
      return;
    }
    if (t.kind == Tok::Ident && peek().is(':')) {
      s.name = std::string(advance().text);
      advance();
      const Token& d = cur();
      if (d.is_dot(".callprototype")) return call_prototype(b, std::move(s));
      if (d.is_dot(".branchtargets") || d.is_dot(".calltargets")) {
        s.kind = d.text == ".branchtargets" ? Statement::Kind::BranchTargets
                                            : Statement::Kind::CallTargets;
        advance();
        do {
          s.word_locs.push_back(cur().loc);
          s.words.emplace_back(expect_ident("target name").text);
        } while (accept(','));
        expect(';', "after target list");
        b.body.push_back(std::move(s));
        return;
      }
      s.kind = Statement::Kind::Label;
      b.body.push_back(std::move(s));
      return;
    }
    if (t.kind == Tok::Dot) {
      std::string_view w = t.text;
      if (w == ".loc") return loc_directive(b, std::move(s));
      if (w == ".pragma") {
        advance();
        s.kind = Statement::Kind::Pragma;
        s.words = pragma_strings();
        b.body.push_back(std::move(s));
        return;
      }
      Linkage linkage = Linkage::None;
      if (auto l = linkage_of(w)) {
        linkage = *l;
        advance();
      }
      if (cur().kind == Tok::Dot && space_of(cur().text)) {
        s.kind = Statement::Kind::Decl;
        s.decl = var_decl(linkage, t.loc, /*single=*/false);
        expect(';', "after variable declaration");
        b.body.push_back(std::move(s));
        return;
      }
      fail(cur().loc, "unexpected directive '" + std::string(cur().text) + "' in function body");
    }
    if (t.is('@') || t.kind == Tok::Ident) {
      s.kind = Statement::Kind::Instruction;
      instruction(s.inst);
      b.body.push_back(std::move(s));
      return;
    }
    expected("an instruction, label, declaration or '}'");
  }

  // .loc file line column [, function_name sym[+off]] [, inlined_at file line column] (§11.5.3)
  void loc_directive(Block& b, Statement s) {
    advance();
    s.kind = Statement::Kind::Loc;
    for (uint64_t& v : s.loc_args) v = expect_uint("file index, line and column");
    while (accept(',')) {
      const Token& k = expect_ident("'function_name' or 'inlined_at'");
      if (k.text == "function_name") {
        s.loc_function = expr(false);
      } else if (k.text == "inlined_at") {
        for (int i = 0; i < 3; ++i) s.inlined_at.push_back(expect_uint("file index, line and column"));
      } else {
        fail(k.loc, "expected 'function_name' or 'inlined_at', found '" + std::string(k.text) + "'");
      }
    }
    b.body.push_back(std::move(s));
  }

  // name: .callprototype [(ret)] _ (params) [.noreturn]; (§11.3.3)
  void call_prototype(Block& b, Statement s) {
    advance();
    s.kind = Statement::Kind::CallPrototype;
    if (cur().is('(')) {
      s.proto.has_returns = true;
      s.proto.returns = param_list();
    }
    if (cur().kind != Tok::Sink) expected("'_' in place of the function name");
    advance();
    s.proto.params = param_list();
    if (cur().is_dot(".noreturn")) {
      advance();
      s.proto.noreturn = true;
    }
    expect(';', "after .callprototype");
    b.body.push_back(std::move(s));
  }

  // [@[!]p] opcode{.qualifier} operand, ... ; (§4.3.2)
  void instruction(Instruction& in) {
    in.loc = cur().loc;
    if (accept('@')) {
      Guard g;
      g.loc = cur().loc;
      g.negated = accept('!');
      g.pred = std::string(expect_ident("guard predicate after '@'").text);
      in.guard = std::move(g);
    }
    const Token& op = expect_ident("instruction opcode");
    in.opcode = std::string(op.text);
    while (cur().kind == Tok::Dot) {
      in.qualifier_locs.push_back(cur().loc);
      in.qualifiers.emplace_back(advance().text);
    }
    bool is_call = in.opcode == "call";
    if (!cur().is(';')) {
      do in.operands.push_back(operand(is_call));
      while (accept(','));
    }
    expect(';', "at the end of the instruction");
  }

  // ---- operands (§6) ----
  Operand operand(bool call_args) {
    DepthGuard g(*this, cur().loc);
    Operand o;
    o.loc = cur().loc;
    if (cur().kind == Tok::Sink) {
      advance();
      o.kind = Operand::Kind::Sink;
    } else if (accept('{')) {
      o.kind = Operand::Kind::Vector;
      if (!cur().is('}')) {
        do o.elems.push_back(operand(false));
        while (accept(','));
      }
      expect('}', "to close the vector operand");
    } else if (accept('[')) {
      o.kind = Operand::Kind::Address;
      do o.elems.push_back(operand(false));
      while (accept(','));
      expect(']', "to close the address operand");
    } else if (call_args && accept('(')) {
      o.kind = Operand::Kind::List;
      if (!cur().is(')')) {
        do o.elems.push_back(operand(false));
        while (accept(','));
      }
      expect(')', "to close the argument list");
      return o;
    } else {
      o.kind = Operand::Kind::Expr;
      o.expr = expr(false, /*pipe_is_pair=*/true);
    }
    if (cur().is('|')) {  // setp p|q, tex {…}|p (§9.7.6.1)
      advance();
      Operand pair;
      pair.kind = Operand::Kind::Pair;
      pair.loc = o.loc;
      pair.elems.push_back(std::move(o));
      pair.elems.push_back(operand(false));
      return pair;
    }
    return o;
  }

  // ---- constant expressions (§4.5.4, precedence of Table 4) ----
  ExprPtr make(Expr::Kind k, SourceLoc loc) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->loc = loc;
    return e;
  }

  // `in_initializer` enables generic() and mask() (§5.4.4); `pipe_is_pair` leaves a top-level
  // `|` to the operand parser (setp p|q).
  ExprPtr expr(bool in_initializer, bool pipe_is_pair = false) {
    bool saved_pipe = pipe_is_pair_, saved_init = init_mode_;
    pipe_is_pair_ = pipe_is_pair;
    init_mode_ = in_initializer;
    ExprPtr e = conditional();
    pipe_is_pair_ = saved_pipe;
    init_mode_ = saved_init;
    return e;
  }

  ExprPtr conditional() {
    DepthGuard g(*this, cur().loc);
    ExprPtr c = binary(0);
    if (!cur().is('?')) return c;
    advance();
    auto e = make(Expr::Kind::Conditional, c->loc);
    e->kids.push_back(std::move(c));
    e->kids.push_back(conditional());
    if (!accept(':')) expected("':' in conditional expression");
    e->kids.push_back(conditional());
    return e;
  }

  // Binary operator at `level` of Table 4 (0 = ||, lowest); returns nullopt if `t` is not one.
  std::optional<BinaryOp> binary_op(const Token& t, int level) const {
    auto p = [&](char c) { return t.is(c); };
    auto o = [&](const char* s) { return t.is_op(s); };
    switch (level) {
    case 0: return o("||") ? std::optional(BinaryOp::LogOr) : std::nullopt;
    case 1: return o("&&") ? std::optional(BinaryOp::LogAnd) : std::nullopt;
    case 2: return p('|') && !pipe_is_pair_ ? std::optional(BinaryOp::BitOr) : std::nullopt;
    case 3: return p('^') ? std::optional(BinaryOp::BitXor) : std::nullopt;
    case 4: return p('&') ? std::optional(BinaryOp::BitAnd) : std::nullopt;
    case 5:
      if (o("==")) return BinaryOp::Eq;
      if (o("!=")) return BinaryOp::Ne;
      return std::nullopt;
    case 6:
      if (p('<')) return BinaryOp::Lt;
      if (p('>')) return BinaryOp::Gt;
      if (o("<=")) return BinaryOp::Le;
      if (o(">=")) return BinaryOp::Ge;
      return std::nullopt;
    case 7:
      if (o("<<")) return BinaryOp::Shl;
      if (o(">>")) return BinaryOp::Shr;
      return std::nullopt;
    case 8:
      if (p('+')) return BinaryOp::Add;
      if (p('-')) return BinaryOp::Sub;
      return std::nullopt;
    case 9:
      if (p('*')) return BinaryOp::Mul;
      if (p('/')) return BinaryOp::Div;
      if (p('%')) return BinaryOp::Rem;
      return std::nullopt;
    }
    return std::nullopt;
  }

  ExprPtr binary(int level) {
    if (level == 10) return unary();
    ExprPtr lhs = binary(level + 1);
    int chain = 0;  // a left-deep chain `1+1+...` deepens the tree without recursing here
    while (auto op = binary_op(cur(), level)) {
      if (++chain + depth_ > kMaxDepth)
        fail(cur().loc, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
      advance();
      auto e = make(Expr::Kind::Binary, lhs->loc);
      e->bop = *op;
      e->kids.push_back(std::move(lhs));
      e->kids.push_back(binary(level + 1));
      lhs = std::move(e);
    }
    return lhs;
  }

  ExprPtr unary() {
    DepthGuard g(*this, cur().loc);
    const Token& t = cur();
    std::optional<UnaryOp> op;
    if (t.is('+')) op = UnaryOp::Plus;
    if (t.is('-')) op = UnaryOp::Minus;
    if (t.is('!')) op = UnaryOp::Not;
    if (t.is('~')) op = UnaryOp::BitNot;
    if (op) {
      advance();
      auto e = make(Expr::Kind::Unary, t.loc);
      e->uop = *op;
      e->kids.push_back(unary());
      return e;
    }
    if (t.is('(') && peek().kind == Tok::Dot && (peek().text == ".s64" || peek().text == ".u64") &&
        peek(2).is(')')) {
      auto e = make(Expr::Kind::Cast, t.loc);
      advance();
      e->cast_unsigned = advance().text == ".u64";
      advance();
      e->kids.push_back(unary());
      return e;
    }
    return primary();
  }

  ExprPtr primary() {
    const Token& t = cur();
    switch (t.kind) {
    case Tok::Int: {
      if (t.bad) throw SyntaxError{};
      auto e = make(Expr::Kind::Int, t.loc);
      e->value = t.ival;
      e->explicit_unsigned = t.unsigned_suffix;
      advance();
      if (init_mode_ && cur().is('(') && !cur().space_before) {  // mask() operator (§5.4.4)
        auto m = make(Expr::Kind::Mask, t.loc);
        m->value = e->value;
        advance();
        m->kids.push_back(expr(true));
        expect(')', "after mask() operand");
        return m;
      }
      return e;
    }
    case Tok::Float:
    case Tok::HexFloat: {
      if (t.bad) throw SyntaxError{};
      auto e = make(Expr::Kind::Float, t.loc);
      if (t.kind == Tok::HexFloat) {
        e->value = t.ival;
        e->is_f32 = t.is_f32;
      } else {
        static_assert(sizeof(double) == sizeof(uint64_t));
        __builtin_memcpy(&e->value, &t.fval, sizeof e->value);
      }
      advance();
      return e;
    }
    case Tok::Ident: {
      if (init_mode_ && t.text == "generic" && peek().is('(')) {  // generic(sym) (§5.4.4)
        auto e = make(Expr::Kind::Generic, t.loc);
        advance();
        advance();
        e->kids.push_back(expr(true));
        expect(')', "after generic() operand");
        return e;
      }
      auto e = make(Expr::Kind::Symbol, t.loc);
      e->name = std::string(t.text);
      advance();
      if (cur().kind == Tok::Dot && !cur().space_before) {  // %tid.x, %r1.b0
        e->component = std::string(cur().text.substr(1));
        advance();
      }
      return e;
    }
    case Tok::Dot:
      if (section_mode_) {  // `.b32 .debug_abbrev`: a section name as a value
        auto e = make(Expr::Kind::Symbol, t.loc);
        e->name = std::string(t.text);
        advance();
        return e;
      }
      break;
    case Tok::Punct:
      if (t.is('(')) {
        advance();
        ExprPtr e = expr(init_mode_, false);
        expect(')', "to close the parenthesis");
        return e;
      }
      break;
    default: break;
    }
    expected("an operand or constant expression");
  }

  Diagnostics& diags_;
  std::vector<Token> toks_;
  size_t i_ = 0;
  int depth_ = 0;
  bool pipe_is_pair_ = false;
  bool init_mode_ = false;
  bool section_mode_ = false;
};

}  // namespace

std::optional<ast::Module> parse_module(const SourceFile& file, Diagnostics& diags) {
  return Parser(file, diags).run();
}

}  // namespace ptxvm::front
