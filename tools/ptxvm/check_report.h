// `ptxvm run --check-report=FILE.json`: the checks' reports for machines (docs/Sanitizer.md).
#pragma once

#include <string>
#include <vector>

#include "ptxvm/check.h"

namespace ptxvm::tool {

// Writes {"source", "errors", "reports": [...]} to `path`; throws std::runtime_error when it cannot.
void write_check_report(const std::string& path, const std::string& source, const std::vector<CheckReport>& reports);

}  // namespace ptxvm::tool
