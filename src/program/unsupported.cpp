#include "program/unsupported.h"

#include <string_view>

namespace ptxvm::program {
namespace {

struct Reason {
  std::string_view what;  // a family key
  std::string_view why;
};

// Single families.
constexpr Reason kByFamily[] = {
    {"multimem.ld_reduce §9.7.9.14", "multimem addresses span GPUs; ptxvm runs one device"},
    {"multimem.st §9.7.9.14", "multimem addresses span GPUs; ptxvm runs one device"},
    {"multimem.red §9.7.9.14", "multimem addresses span GPUs; ptxvm runs one device"},
};

}  // namespace

std::string unsupported_reason(const isa::Family& f) {
  if (f.removed_ptx)  // §9.7.9.5 shfl, §9.7.13.8 vote: no target ptxvm runs (sm_75 on) has them
    return "removed from PTX ISA " + f.removed_ptx->str() + " for sm_" + std::to_string(f.removed_sm) +
           " on" + (f.replacement.empty() ? "" : "; " + f.replacement + " executes");
  const std::string key = f.key();
  for (const Reason& r : kByFamily)
    if (r.what == key) return std::string(r.why);
  return "";
}

}  // namespace ptxvm::program
