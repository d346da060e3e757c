#include "front/lexer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ptxvm::front {
namespace {

bool is_follow(char c) {  // §4.4 followsym: [a-zA-Z0-9_$]
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
public:
  Lexer(const SourceFile& f, Diagnostics& d) : src_(f.text()), diags_(d) {}

  std::vector<Token> run() {
    // §4.1: source modules are ASCII text; ptxas rejects other bytes even inside comments.
    for (size_t i = 0; i < src_.size(); ++i) {
      if (static_cast<unsigned char>(src_[i]) >= 0x80 || src_[i] == '\0') {
        size_t line_start = src_.rfind('\n', i == 0 ? 0 : i - 1);
        line_start = line_start == std::string::npos ? 0 : line_start + 1;
        uint32_t line = 1 + static_cast<uint32_t>(std::count(src_.begin(), src_.begin() + static_cast<std::ptrdiff_t>(i), '\n'));
        diags_.error({line, static_cast<uint32_t>(i - line_start + 1)},
                     "non-ASCII character: PTX source must be ASCII text (§4.1)");
        break;
      }
    }
    std::vector<Token> out;
    out.reserve(src_.size() / 4 + 16);
    while (true) {
      bool space = skip_space();
      Token t;
      t.space_before = space;
      t.loc = here();
      if (pos_ >= src_.size()) {
        out.push_back(t);
        return out;
      }
      scan(t);
      out.push_back(t);
    }
  }

private:
  SourceLoc here() const {
    return {line_, static_cast<uint32_t>(pos_ - line_start_ + 1)};
  }
  void newline_at(size_t i) {
    ++line_;
    line_start_ = i + 1;
  }
  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }

  // Skips whitespace and comments (§4.2: comments are whitespace). True if anything was skipped.
  bool skip_space() {
    size_t start = pos_;
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\n') {
        newline_at(pos_);
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else if (c == '/' && peek(1) == '*') {
        SourceLoc open = here();
        pos_ += 2;
        while (pos_ < src_.size() && !(src_[pos_] == '*' && peek(1) == '/')) {
          if (src_[pos_] == '\n') newline_at(pos_);
          ++pos_;
        }
        if (pos_ >= src_.size()) {
          diags_.error(open, "unterminated /* comment");
          return true;
        }
        pos_ += 2;
      } else {
        break;
      }
    }
    return pos_ != start;
  }

  void scan(Token& t) {
    size_t start = pos_;
    char c = src_[pos_];
    if (c == '.' && is_digit(peek(1)) && decimal_fraction_ahead()) {
      scan_number(t);
    } else if (c == '.' && (is_follow(peek(1)))) {
      ++pos_;
      scan_word_with_scopes();
      t.kind = Tok::Dot;
    } else if (is_digit(c)) {
      scan_number(t);
    } else if (c == '_' && !is_follow(peek(1))) {
      ++pos_;
      t.kind = Tok::Sink;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               ((c == '_' || c == '$' || c == '%') && is_follow(peek(1)))) {
      ++pos_;
      while (pos_ < src_.size() && is_follow(src_[pos_])) ++pos_;
      t.kind = Tok::Ident;
    } else if (c == '"') {
      scan_string(t);
      return;
    } else if (c == '@' && src_.compare(pos_, 7, "@@DWARF") == 0) {
      pos_ += 7;
      size_t body = pos_;
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      t.kind = Tok::Dwarf;
      t.text = trim(std::string_view(src_).substr(body, pos_ - body));
      return;
    } else if (is_two_char_op(c, peek(1))) {
      pos_ += 2;
      t.kind = Tok::Op2;
    } else if (std::string_view(",;:{}[]()<>+-*/%!~&|^?@=").find(c) != std::string_view::npos) {
      ++pos_;
      t.kind = Tok::Punct;
    } else {
      ++pos_;
      t.kind = Tok::Punct;
      t.bad = true;
      if (c == '#')
        diags_.error(t.loc, "preprocessor directive: run the C preprocessor before ptxvm (§4.1)");
      else
        diags_.error(t.loc, std::string("unexpected character '") + printable(c) + "'");
    }
    t.text = std::string_view(src_).substr(start, pos_ - start);
  }

  static std::string printable(char c) {
    if (c >= 32 && c < 127) return std::string(1, c);
    char buf[8];
    snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
    return buf;
  }
  static std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  }
  static bool is_two_char_op(char a, char b) {
    return (a == '<' && b == '<') || (a == '>' && b == '>') || (a == '<' && b == '=') ||
           (a == '>' && b == '=') || (a == '=' && b == '=') || (a == '!' && b == '=') ||
           (a == '&' && b == '&') || (a == '|' && b == '|');
  }

  // `.5` and `.25e3` are numbers; `.1d` and `.128x` are qualifiers.
  bool decimal_fraction_ahead() const {
    size_t i = pos_ + 1;
    while (i < src_.size() && is_digit(src_[i])) ++i;
    if (i < src_.size() && (src_[i] == 'e' || src_[i] == 'E')) {
      size_t j = i + 1;
      if (j < src_.size() && (src_[j] == '+' || src_[j] == '-')) ++j;
      if (j < src_.size() && is_digit(src_[j])) return true;
    }
    return i >= src_.size() || !is_follow(src_[i]);
  }

  // After the dot: followsym+ with `::` joining parts (`.shared::cta`, `.L2::cache_hint`).
  void scan_word_with_scopes() {
    while (true) {
      while (pos_ < src_.size() && is_follow(src_[pos_])) ++pos_;
      if (peek() == ':' && peek(1) == ':' && is_follow(peek(2))) {
        pos_ += 2;
        continue;
      }
      return;
    }
  }

  void scan_string(Token& t) {
    size_t start = ++pos_;
    while (pos_ < src_.size() && src_[pos_] != '"' && src_[pos_] != '\n') {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] != '\n') ++pos_;
      ++pos_;
    }
    t.kind = Tok::String;
    t.text = std::string_view(src_).substr(start, pos_ - start);
    if (pos_ >= src_.size() || src_[pos_] != '"') {
      t.bad = true;
      diags_.error(t.loc, "unterminated string literal");
      return;
    }
    ++pos_;
  }

  // §4.5.1 integers (hex, octal, binary, decimal, U suffix), §4.5.2 floats and 0f/0d patterns.
  void scan_number(Token& t) {
    size_t start = pos_;
    char c0 = src_[pos_];
    char c1 = peek(1);
    if (c0 == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
      bool f32 = c1 == 'f' || c1 == 'F';
      size_t want = f32 ? 8 : 16;
      pos_ += 2;
      uint64_t v = 0;
      size_t n = 0;
      while (pos_ < src_.size() && hex_value(src_[pos_]) >= 0) {
        v = (v << 4) | static_cast<uint64_t>(hex_value(src_[pos_]));
        ++pos_, ++n;
      }
      t.kind = Tok::HexFloat;
      t.is_f32 = f32;
      t.ival = v;
      if (n != want) {
        t.bad = true;
        diags_.error(t.loc, std::string("a ") + (f32 ? "0f" : "0d") + " literal needs exactly " +
                                std::to_string(want) + " hex digits (§4.5.2)");
      }
      finish_number(t, start);
      return;
    }
    if (c0 == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B')) {
      int base = (c1 == 'x' || c1 == 'X') ? 16 : 2;
      pos_ += 2;
      scan_integer_digits(t, base);
      finish_number(t, start);
      return;
    }
    // Decimal integer, octal integer or decimal float.
    size_t i = pos_;
    while (i < src_.size() && is_digit(src_[i])) ++i;
    bool is_float = false;
    if (i < src_.size() && src_[i] == '.') is_float = true;
    if (i < src_.size() && (src_[i] == 'e' || src_[i] == 'E')) is_float = true;
    if (is_float) {
      const char* begin = src_.data() + pos_;
      char* end = nullptr;
      t.fval = std::strtod(begin, &end);
      pos_ += static_cast<size_t>(end - begin);
      if (end == begin) ++pos_;
      t.kind = Tok::Float;
      finish_number(t, start);
      return;
    }
    scan_integer_digits(t, c0 == '0' ? 8 : 10);
    finish_number(t, start);
  }

  void scan_integer_digits(Token& t, int base) {
    t.kind = Tok::Int;
    uint64_t v = 0;
    bool overflow = false;
    size_t n = 0;
    while (pos_ < src_.size()) {
      int d = hex_value(src_[pos_]);
      if (d < 0 || d >= base) break;
      if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) overflow = true;
      v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
      ++pos_, ++n;
    }
    if (base != 8 && n == 0) {
      t.bad = true;
      diags_.error(t.loc, "integer literal has no digits");
    }
    if (overflow) {
      t.bad = true;
      diags_.error(t.loc, "integer literal does not fit in 64 bits (§4.5.1)");
    }
    t.ival = v;
    if (peek() == 'U') {
      t.unsigned_suffix = true;
      ++pos_;
    }
  }

  // A literal glued to letters (`12ab`) is malformed.
  void finish_number(Token& t, size_t start) {
    if (pos_ < src_.size() && is_follow(src_[pos_])) {
      while (pos_ < src_.size() && is_follow(src_[pos_])) ++pos_;
      if (!t.bad) {
        t.bad = true;
        diags_.error(t.loc, "malformed numeric literal '" +
                                std::string(src_.substr(start, pos_ - start)) + "'");
      }
    }
  }

  const std::string& src_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
};

}  // namespace

std::vector<Token> lex(const SourceFile& file, Diagnostics& diags) {
  return Lexer(file, diags).run();
}

}  // namespace ptxvm::front
