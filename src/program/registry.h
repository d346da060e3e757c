// Instruction semantics are chosen at load time: each family row of the ISA table (src/isa) that
// ptxvm executes has a selector, which reads the bound qualifiers and picks a handler specialised
// for them (types and qualifiers are resolved once, never per lane).
//
// A semantics file (src/sem/*.cpp, src/units/*/*.cpp) registers its selectors itself, with no
// list to edit elsewhere:
//
//   const program::Registration registered([](program::Registry& r) {
//     r["mbarrier.init §9.7.13.15.9"] = select<&init>;
//   });
//
// Registrations run once, before the first lookup. Their libraries are linked whole
// (src/CMakeLists.txt), so that no registration is left out of a program that names none of its
// file's symbols. tests/program/registry_test.cpp checks that every key names a row of the table
// and that every row without a selector has a reason (unsupported.h).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/match.h"
#include "program/program.h"

namespace ptxvm::program {

// Fills op.fn (and op.aux) for the bound instruction, or returns false with `why` naming the
// combination that is not implemented.
using Selector = bool (*)(const isa::Bound& b, Op& op, std::string& why);

// Keyed by "mnemonic §section" of the family row ("add §9.7.1.1" for integer add, "add §9.7.3.3"
// for float add): one mnemonic names several families. isa::Family::key() gives a row's key.
using Registry = std::unordered_map<std::string, Selector>;

// One semantics file's registrations.
struct Registration {
  explicit Registration(void (*add)(Registry&));
};

// The selector for a family row, or null when ptxvm does not execute that family yet.
Selector find_selector(const isa::Family& family);

// A selector's plan for one instruction, kept for the life of the process so that op.aux may
// point at it (modules load on several host threads at once).
template <typename T>
const T* keep(T plan) {
  static std::mutex mutex;
  static std::vector<std::unique_ptr<const T>> plans;
  std::lock_guard<std::mutex> lock(mutex);
  plans.push_back(std::make_unique<const T>(std::move(plan)));
  return plans.back().get();
}

// Every registered key, sorted (tests and the coverage table).
std::vector<std::string> registered_keys();

}  // namespace ptxvm::program
