// The parser's function bodies: blocks and statements (§4.3), instructions and operands (§6).
#include <string>

#include "front/parser_impl.h"

namespace ptxvm::front::parser_impl {

// ---- statements (§4.3) ----
std::unique_ptr<Block> Parser::block() {
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

void Parser::statement(Block& b) {
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
void Parser::loc_directive(Block& b, Statement s) {
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
void Parser::call_prototype(Block& b, Statement s) {
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
void Parser::instruction(Instruction& in) {
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
Operand Parser::operand(bool call_args) {
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

}  // namespace ptxvm::front::parser_impl
