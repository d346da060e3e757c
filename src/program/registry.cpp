#include "program/registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace ptxvm::program {
namespace {

// The registrations of every semantics file, added during static initialisation (a
// function-local static, so that it exists before the first Registration runs).
std::vector<void (*)(Registry&)>& registrations() {
  static std::vector<void (*)(Registry&)> all;
  return all;
}

const Registry& registry() {
  static const Registry r = [] {
    Registry all, one;
    for (auto add : registrations()) {
      one.clear();
      add(one);
      for (auto& [key, selector] : one) {
        if (!all.emplace(key, selector).second) {  // two files claim one row: a build mistake
          std::fprintf(stderr, "ptxvm: two semantics files register '%s'\n", key.c_str());
          std::abort();
        }
      }
    }
    return all;
  }();
  return r;
}

}  // namespace

Registration::Registration(void (*add)(Registry&)) { registrations().push_back(add); }

Selector find_selector(const isa::Family& family) {
  auto it = registry().find(family.key());
  return it == registry().end() ? nullptr : it->second;
}

std::vector<std::string> registered_keys() {
  std::vector<std::string> keys;
  for (const auto& [key, selector] : registry()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace ptxvm::program
