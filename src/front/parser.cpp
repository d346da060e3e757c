// The parser's driver, its recovery, and the module level (§11): directives, functions.
// Declarations, bodies and expressions are in parser_decl.cpp, parser_body.cpp, parser_expr.cpp.
#include "front/parser.h"

#include <string>

#include "front/parser_impl.h"

namespace ptxvm::front {
namespace parser_impl {

std::optional<Module> Parser::run() {
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

// Skips to the end of the broken statement: past `;` at this brace depth, or up to the `}`
// that closes the enclosing body. At module level also stops before a new top-level directive.
void Parser::recover(bool in_body) {
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

bool Parser::starts_top_level(std::string_view w) {
  return w == ".entry" || w == ".func" || w == ".visible" || w == ".extern" || w == ".weak" ||
         w == ".version" || w == ".target" || w == ".global" || w == ".const" || w == ".file" ||
         w == ".section";
}

// ---- module level (§11) ----
TopLevel Parser::top(TopLevel::Kind kind, SourceLoc loc) {
  TopLevel t;
  t.kind = kind;
  t.loc = loc;
  return t;
}
FuncDirective Parser::func_directive(const Token& name) {
  FuncDirective d;
  d.loc = name.loc;
  d.name = std::string(name.text);
  return d;
}

void Parser::top_level(Module& m) {
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

void Parser::version(Module& m) {
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

void Parser::target(Module& m) {
  m.target_loc = advance().loc;
  do m.targets.emplace_back(expect_ident("target name such as sm_90a").text);
  while (accept(','));
}

void Parser::file(Module& m) {
  TopLevel item = top(TopLevel::Kind::File, cur().loc);
  item.file.loc = advance().loc;
  item.file.index = expect_uint("file index");
  if (cur().kind != Tok::String) expected("file name string");
  item.file.path = std::string(advance().text);
  while (accept(',')) item.file.extra.push_back(expect_uint("timestamp or file size"));
  m.items.push_back(std::move(item));
}

// §11.5.2: .section name { .b8 1, 2  .b32 label  .b32 l1 - l2  label: }
void Parser::section(Module& m) {
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

std::vector<std::string> Parser::pragma_strings() {
  std::vector<std::string> out;
  do {
    if (cur().kind != Tok::String) expected("pragma string");
    out.emplace_back(advance().text);
  } while (accept(','));
  expect(';', "after .pragma");
  return out;
}

// `.attribute(.managed)`, `.attribute(.unified(1, 2))` (§5.4.8), kept in canonical text.
std::vector<std::string> Parser::attributes() {
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

// ---- functions (§11.3) ----
std::unique_ptr<Function> Parser::function(Linkage linkage, SourceLoc start) {
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

std::vector<VarDecl> Parser::param_list() {
  std::vector<VarDecl> out;
  expect('(', "to open the parameter list");
  if (accept(')')) return out;
  do out.push_back(var_decl(Linkage::None, cur().loc, /*single=*/true));
  while (accept(','));
  expect(')', "to close the parameter list");
  return out;
}


}  // namespace parser_impl

std::optional<ast::Module> parse_module(const SourceFile& file, Diagnostics& diags) {
  return parser_impl::Parser(file, diags).run();
}

}  // namespace ptxvm::front
