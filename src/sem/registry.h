// Instruction semantics are chosen at load time: each family mnemonic of the ISA table
// (src/isa) that ptxvm executes has a selector, which reads the bound qualifiers and picks a
// handler specialised for them (types and qualifiers are resolved once, never per lane).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "isa/match.h"
#include "lower/program.h"

namespace ptxvm::sem {

// Fills op.fn (and op.aux) for the bound instruction, or returns false with `why` naming the
// combination that is not implemented.
using Selector = bool (*)(const isa::Bound& b, lower::Op& op, std::string& why);

// Keyed by "mnemonic §section" of the family row ("add §9.7.1.1" for integer add, "add §9.7.3.1"
// for float add): one mnemonic names several families.
using Registry = std::unordered_map<std::string, Selector>;

// The selector for a family row, or null when ptxvm does not execute that family yet.
Selector find_selector(const isa::Family& family);

// One function per semantics file; registry.cpp calls them all.
void register_integer(Registry& r);
void register_logic(Registry& r);
void register_compare(Registry& r);
void register_float(Registry& r);
void register_data(Registry& r);
void register_control(Registry& r);
void register_sync(Registry& r);
void register_extended(Registry& r);
void register_video(Registry& r);
void register_half(Registry& r);
void register_convert(Registry& r);
void register_atomic(Registry& r);
void register_stack(Registry& r);
void register_warp(Registry& r);
void register_matrix(Registry& r);
void register_async_copy(Registry& r);
void register_mbarrier(Registry& r);

}  // namespace ptxvm::sem
