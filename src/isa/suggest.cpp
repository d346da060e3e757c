#include "isa/suggest.h"

#include <algorithm>

namespace ptxvm::isa {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string nearest(std::string_view word, const std::vector<std::string>& options) {
  std::string best;
  size_t best_d = SIZE_MAX;
  for (const std::string& o : options) {
    size_t d = edit_distance(word, o);
    if (d < best_d) best_d = d, best = o;
  }
  // A plausible typo changes at most a third of the word (and at least one character).
  size_t limit = std::max<size_t>(1, (word.size() + 2) / 3);
  return best_d <= limit ? best : std::string();
}

} // namespace ptxvm::isa
