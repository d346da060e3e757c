// The parser's shared class, private to src/front/parser*.cpp: token access, error reporting and
// the nesting bound here; the grammar's parts, one file each: parser.cpp (module level, §11),
// parser_decl.cpp (declarations, §5.4), parser_body.cpp (statements, instructions, operands,
// §4.3 and §6), parser_expr.cpp (constant expressions, §4.5).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "front/ast.h"
#include "front/lexer.h"
#include "front/source.h"

namespace ptxvm::front::parser_impl {

using namespace ast;

// Thrown after a syntax error has been reported; caught at the nearest recovery point.
struct SyntaxError {};

// Nesting limit for blocks, braces and expressions: hostile input must not overflow the stack.
constexpr int kMaxDepth = 256;

inline std::optional<Space> space_of(std::string_view w) {
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

inline std::optional<Linkage> linkage_of(std::string_view w) {
  if (w == ".extern") return Linkage::Extern;
  if (w == ".visible") return Linkage::Visible;
  if (w == ".weak") return Linkage::Weak;
  if (w == ".common") return Linkage::Common;
  return std::nullopt;
}

inline std::string describe(const Token& t) {
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

  std::optional<Module> run();

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

  void recover(bool in_body);
  static bool starts_top_level(std::string_view w);

  // ---- module level (§11): parser.cpp ----
  static TopLevel top(TopLevel::Kind kind, SourceLoc loc);
  static FuncDirective func_directive(const Token& name);
  void top_level(Module& m);
  void version(Module& m);
  void target(Module& m);
  void file(Module& m);
  void section(Module& m);
  std::vector<std::string> pragma_strings();
  std::vector<std::string> attributes();
  std::unique_ptr<Function> function(Linkage linkage, SourceLoc start);
  std::vector<VarDecl> param_list();

  // ---- declarations (§5.4): parser_decl.cpp ----
  VarDecl var_decl(Linkage linkage, SourceLoc start, bool single);
  void ptr_attributes(VarDecl& d);
  Declarator declarator();
  Initializer initializer();

  // ---- statements, instructions, operands (§4.3, §6): parser_body.cpp ----
  std::unique_ptr<Block> block();
  void statement(Block& b);
  void loc_directive(Block& b, Statement s);
  void call_prototype(Block& b, Statement s);
  void instruction(Instruction& in);
  Operand operand(bool call_args);

  // ---- constant expressions (§4.5.4): parser_expr.cpp ----
  ExprPtr make(Expr::Kind k, SourceLoc loc);
  ExprPtr expr(bool in_initializer, bool pipe_is_pair = false);
  ExprPtr conditional();
  std::optional<BinaryOp> binary_op(const Token& t, int level) const;
  ExprPtr binary(int level);
  ExprPtr unary();
  ExprPtr primary();

  Diagnostics& diags_;
  std::vector<Token> toks_;
  size_t i_ = 0;
  int depth_ = 0;
  bool pipe_is_pair_ = false;
  bool init_mode_ = false;
  bool section_mode_ = false;
};

}  // namespace ptxvm::front::parser_impl
