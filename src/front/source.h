// Source text, locations and diagnostics shared by every stage.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxvm {

// A position in a source file: 1-based line and column (bytes).
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
};

// One PTX source held in memory, with an index of line starts for printing carets.
class SourceFile {
public:
  SourceFile(std::string name, std::string text);
  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  std::string_view line_text(uint32_t line) const;  // without the newline
  SourceLoc loc_of(size_t offset) const;

private:
  std::string name_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
};

// Collects diagnostics for one file and renders them as `file:line:col: error: msg`,
// followed by the source line and a caret under the column.
class Diagnostics {
public:
  explicit Diagnostics(const SourceFile& file) : file_(&file) {}
  void error(SourceLoc loc, std::string message);
  void warning(SourceLoc loc, std::string message);
  void note(SourceLoc loc, std::string message);
  bool has_errors() const { return errors_ > 0; }
  size_t error_count() const { return errors_; }
  const std::vector<Diagnostic>& all() const { return list_; }
  std::string render() const;
  // Parsing stops adding after this many errors so hostile input cannot exhaust memory.
  static constexpr size_t kMaxErrors = 50;

private:
  void add(Severity s, SourceLoc loc, std::string message);
  const SourceFile* file_;
  std::vector<Diagnostic> list_;
  size_t errors_ = 0;
};

}  // namespace ptxvm
