// Nearest-spelling suggestions for diagnostics ("did you mean '.ftz'?").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxvm::isa {

// Levenshtein distance, case-sensitive.
size_t edit_distance(std::string_view a, std::string_view b);
// The option closest to `word` if it is close enough to be a plausible typo, else "".
std::string nearest(std::string_view word, const std::vector<std::string>& options);

} // namespace ptxvm::isa
