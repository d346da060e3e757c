#include "suggest.h"

#include <algorithm>

namespace ptxvm::tool {
namespace {

// Levenshtein distance: insertions, deletions and substitutions.
size_t distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest(const std::string& word, const std::vector<std::string>& choices) {
  if (word.size() > 64) return {};
  size_t best = std::max<size_t>(1, word.size() / 3) + 1;
  std::string pick;
  for (const std::string& c : choices)
    if (size_t d = distance(word, c); d < best) best = d, pick = c;
  return pick;
}

}  // namespace ptxvm::tool
