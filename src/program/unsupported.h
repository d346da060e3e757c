// Why ptxvm does not execute a family row of the ISA table (src/isa) yet: the reason lowering's
// `unsupported:` diagnostic gives and docs/Coverage.md lists. Every row has either a selector
// (registry.h) or a reason here; tests/program/registry_test.cpp checks both ways.
#pragma once

#include <string>

#include "isa/family.h"

namespace ptxvm::program {

// The reason ("warpgroup MMA (issue 14)"), or "" when the table gives none: a row removed from
// the ISA for current targets (shfl, vote) says so from its own data; otherwise a family's own
// entry, then the longest §9.7 section prefix naming a future unit.
std::string unsupported_reason(const isa::Family& family);

}  // namespace ptxvm::program
