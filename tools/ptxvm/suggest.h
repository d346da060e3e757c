// "Did you mean": the known word closest to a misspelt one.
#pragma once

#include <string>
#include <vector>

namespace ptxvm::tool {

// The choice within a small edit distance of `word` (at most a third of its length, at least
// 1), or empty when none is that close.
std::string closest(const std::string& word, const std::vector<std::string>& choices);

}  // namespace ptxvm::tool
