// Helpers shared by the front-end tests.
#pragma once

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "check/check.h"
#include "front/parser.h"
#include "front/source.h"

namespace ptxvm::test {

// The result of parsing (and optionally checking) a snippet: the module and rendered diagnostics.
struct Parsed {
  std::optional<ast::Module> module;
  std::string diagnostics;
  bool ok() const { return module.has_value(); }
};

inline Parsed parse(const std::string& text, bool check_names = false) {
  SourceFile file("t.ptx", text);
  Diagnostics diags(file);
  Parsed p;
  p.module = check_names ? check::check_source(file, diags) : front::parse_module(file, diags);
  p.diagnostics = diags.render();
  return p;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Wraps instructions and declarations in a minimal valid kernel.
inline std::string kernel(const std::string& body, const std::string& target = "sm_90a") {
  return ".version 8.7\n.target " + target + "\n.address_size 64\n.visible .entry k()\n{\n" + body +
         "\n}\n";
}

}  // namespace ptxvm::test
