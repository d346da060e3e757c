#include "front/source.h"

#include <algorithm>

namespace ptxvm {

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = line < line_starts_.size() ? line_starts_[line] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

SourceLoc SourceFile::loc_of(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  size_t line = static_cast<size_t>(it - line_starts_.begin());
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(offset - line_starts_[line - 1] + 1)};
}

void Diagnostics::add(Severity s, SourceLoc loc, std::string message) {
  if (s == Severity::Error) {
    if (errors_ >= kMaxErrors) return;
    ++errors_;
  } else if (list_.size() >= 4 * kMaxErrors) {
    return;
  }
  list_.push_back({s, loc, std::move(message)});
}

void Diagnostics::error(SourceLoc loc, std::string m) { add(Severity::Error, loc, std::move(m)); }
void Diagnostics::warning(SourceLoc loc, std::string m) { add(Severity::Warning, loc, std::move(m)); }
void Diagnostics::note(SourceLoc loc, std::string m) { add(Severity::Note, loc, std::move(m)); }

std::string Diagnostics::render() const {
  static const char* kNames[] = {"error", "warning", "note"};
  std::string out;
  for (const Diagnostic& d : list_) {
    out += file_->name();
    if (d.loc.valid()) out += ":" + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col);
    out += ": ";
    out += kNames[static_cast<int>(d.severity)];
    out += ": " + d.message + "\n";
    if (!d.loc.valid()) continue;
    std::string_view line = file_->line_text(d.loc.line);
    out.append(line);
    out += "\n";
    // Keep tabs so the caret lines up under the column in a terminal.
    for (uint32_t i = 1; i < d.loc.col && i <= line.size(); ++i) out += line[i - 1] == '\t' ? '\t' : ' ';
    out += "^\n";
  }
  if (errors_ >= kMaxErrors) out += file_->name() + ": too many errors; stopping\n";
  return out;
}

}  // namespace ptxvm
