#include "sanitize/op_traits.h"

#include <string>
#include <string_view>

namespace ptxvm::sanitize {
namespace {

// The value op's qualifiers bind to `axis`, or null.
const std::string* value(const program::Op& op, std::string_view axis) {
  const int a = op.family->axis(axis);
  if (a < 0 || static_cast<size_t>(a) >= op.binding.value.size() || op.binding.value[a] < 0) return nullptr;
  return &op.family->axes[a].values[op.binding.value[a]];
}

bool strong(const program::Op& op) {
  const std::string* sem = value(op, "sem");
  return (sem && *sem != ".weak") || value(op, "mmio");
}

}  // namespace

OpTraits traits_of(const program::Op& op) {
  OpTraits t;
  if (!op.family) return t;
  const std::string& m = op.family->mnemonic;
  // ld/st of every state space, and the warp's matrix loads and stores (§9.7.9.8-11, §9.7.14.5.3-4,
  // §9.7.9.27-28); atom and red (§9.7.13.5-6).
  if (m == "ld" || m == "ld.global.nc" || m == "ldu" || m == "ldmatrix" || m.starts_with("wmma.load"))
    t.access = strong(op) ? Access::StrongRead : Access::Read;
  else if (m == "st" || m == "stmatrix" || m.starts_with("wmma.store"))
    t.access = strong(op) ? Access::StrongWrite : Access::Write;
  else if (m == "atom" || m == "red")
    t.access = Access::Atomic;
  const std::string_view text = op.text;
  t.cta_barrier = m.starts_with("bar.") || m.starts_with("barrier.");
  const bool cluster = m.starts_with("barrier.cluster");
  t.cta_barrier = t.cta_barrier && !cluster && m != "bar.warp.sync";
  // bar{.cta}.sync/.arrive/.red are barrier{.cta}.*.aligned (§9.7.13.1).
  t.aligned = text.find(".aligned") != std::string_view::npos || (m.starts_with("bar.") && m != "bar.warp.sync");
  t.warp_sync = !t.cta_barrier && text.find(".sync") != std::string_view::npos;
  t.barrier = t.cta_barrier || cluster;
  t.collective = t.barrier || m == "bar.warp.sync" || m == "shfl.sync" || m == "vote.sync" || m == "match.sync" ||
                 m == "redux.sync" || m == "elect.sync";
  return t;
}

}  // namespace ptxvm::sanitize
