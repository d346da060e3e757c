// The parser's declarations (§5.4): state-space variables, declarators, initializers.
#include <string>

#include "front/parser_impl.h"

namespace ptxvm::front::parser_impl {

// After the state space: .attribute, .align N, .ptr [.space] [.align N], .vN, type, then
// declarators. `single` parses exactly one declarator (function parameters).
VarDecl Parser::var_decl(Linkage linkage, SourceLoc start, bool single) {
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

void Parser::ptr_attributes(VarDecl& d) {
  if (cur().kind == Tok::Dot && space_of(cur().text)) d.ptr_space = *space_of(advance().text);
  if (cur().is_dot(".align")) {
    advance();
    d.ptr_align = expect_uint("pointer alignment in bytes");
  }
}

Declarator Parser::declarator() {
  Declarator dc;
  dc.loc = cur().loc;
  const bool sink = cur().kind == Tok::Sink;  // a .callprototype's unnamed parameter (§11.3.3)
  if (sink) {
    dc.name = "_";
    advance();
  } else {
    dc.name = std::string(expect_ident("variable name").text);
    if (accept('<')) {  // parameterized names %r<100> (§5.4.6)
      dc.range = expect_uint("register count");
      expect('>', "after register count");
    }
  }
  while (accept('[')) {  // an array, also unnamed: .param .align 4 .b8 _[16]
    if (accept(']')) {
      dc.dims.emplace_back(std::nullopt);
      continue;
    }
    dc.dims.emplace_back(expr(true));
    expect(']', "after array size");
  }
  if (!sink && accept('=')) dc.init = initializer();
  return dc;
}

Initializer Parser::initializer() {
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

}  // namespace ptxvm::front::parser_impl
