// PTX tokens (PTX ISA §4.1–§4.5 — 001_23fdd5978b24a3ed.txt).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "front/source.h"

namespace ptxvm::front {

enum class Tok : uint8_t {
  End,
  Ident,      // name, %name, $name, _name (§4.4)
  Dot,        // .word including :: parts: .global, .kind::f8f6f4, .x
  Int,        // integer literal (§4.5.1): value in `ival`, `unsigned_suffix`
  Float,      // decimal floating literal (§4.5.2): `fval`
  HexFloat,   // 0f/0d exact bit pattern: `ival`, `is_f32`
  String,     // "..." (text holds the contents without quotes)
  Sink,       // _
  Dwarf,      // @@DWARF line: text holds the rest of the line
  Punct,      // one of , ; : { } [ ] ( ) < > + - * / % ! ~ & | ^ ? @ =  (text)
  Op2,        // << >> <= >= == != && ||
};

struct Token {
  Tok kind = Tok::End;
  bool space_before = false;  // whitespace or a comment separates it from the previous token
  bool unsigned_suffix = false;
  bool is_f32 = false;
  bool bad = false;  // malformed literal; the parser reports it
  std::string_view text;
  SourceLoc loc;
  uint64_t ival = 0;
  double fval = 0;
  bool is(char c) const { return (kind == Tok::Punct) && text.size() == 1 && text[0] == c; }
  bool is_op(std::string_view s) const { return kind == Tok::Op2 && text == s; }
  bool is_dot(std::string_view s) const { return kind == Tok::Dot && text == s; }
};

// Splits a whole source into tokens; lexical errors go to `diags` and produce `bad` tokens.
std::vector<Token> lex(const SourceFile& file, Diagnostics& diags);

}  // namespace ptxvm::front
