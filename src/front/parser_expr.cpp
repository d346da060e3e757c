// The parser's constant expressions (§4.5.4), by the precedence of Table 4.
#include <string>

#include "front/parser_impl.h"

namespace ptxvm::front::parser_impl {

ExprPtr Parser::make(Expr::Kind k, SourceLoc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->loc = loc;
  return e;
}

// `in_initializer` enables generic() and mask() (§5.4.4); `pipe_is_pair` leaves a top-level
// `|` to the operand parser (setp p|q).
ExprPtr Parser::expr(bool in_initializer, bool pipe_is_pair) {
  bool saved_pipe = pipe_is_pair_, saved_init = init_mode_;
  pipe_is_pair_ = pipe_is_pair;
  init_mode_ = in_initializer;
  ExprPtr e = conditional();
  pipe_is_pair_ = saved_pipe;
  init_mode_ = saved_init;
  return e;
}

ExprPtr Parser::conditional() {
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
std::optional<BinaryOp> Parser::binary_op(const Token& t, int level) const {
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

ExprPtr Parser::binary(int level) {
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

ExprPtr Parser::unary() {
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

ExprPtr Parser::primary() {
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

}  // namespace ptxvm::front::parser_impl
