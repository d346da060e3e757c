#include "sanitize/op_traits.h"

#include <cstdlib>
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

// The register slots (and predicates) in `a`: a register, a vector's elements; an address's base
// register goes to `addresses`.
void slots_of(const program::Arg& a, std::vector<uint32_t>& regs, std::vector<uint32_t>& preds,
              std::vector<uint32_t>& addresses) {
  if (a.kind == program::ArgKind::Reg) regs.push_back(a.reg);
  if (a.kind == program::ArgKind::Pred) preds.push_back(a.reg);
  if (a.kind == program::ArgKind::Address && a.reg != program::kNoReg) addresses.push_back(a.reg);
  for (const program::Arg& e : a.elems) slots_of(e, regs, preds, addresses);
}

// The bits of a register type (".b32": 32), 64 for anything else.
unsigned width_of(const std::string* type) {
  if (!type || type->size() < 3) return 64;
  const int bits = std::atoi(type->c_str() + 2);
  return bits == 8 || bits == 16 || bits == 32 ? static_cast<unsigned>(bits) : 64;
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
  t.warp_barrier = m == "bar.warp.sync";
  t.barrier = t.cta_barrier || cluster;
  // Operand kinds (isa/family.h): a first operand of kind d, x, t, v, e or z (tex, tld4) that is
  // no address, and any other of kind d, is what the instruction writes; stores (st, stmatrix, wmma.store) copy their value
  // operands to memory.
  const bool stores = t.access == Access::Write || t.access == Access::StrongWrite;
  // The first operand present: one of alternatives by qualifier (mbarrier.arrive's sink `_` or
  // state `d`, by space) is there only when its condition holds.
  size_t first = 0;
  while (first + 1 < op.family->operands.size() && op.family->operands[first].present_if &&
         !op.family->operands[first].present_if->eval(op.binding))
    ++first;
  for (size_t i = 0; i < op.args.size(); ++i) {
    const char kind = i + first < op.family->operands.size() ? op.family->operands[i + first].kind : 'a';
    // (a later `d`: a second destination, tcgen05.ld.red's reduced values)
    const bool written = (kind == 'd' || (i == 0 && std::string_view("xtvez").find(kind) != std::string_view::npos)) &&
                         op.args[i].kind != program::ArgKind::Address;
    if (written) slots_of(op.args[i], t.writes, t.pred_writes, t.addresses);
    else slots_of(op.args[i], stores ? t.stores : t.reads, t.pred_reads, t.addresses);
  }
  const std::string* type = value(op, "type");
  t.width = width_of(type);
  const bool pred = type && *type == ".pred";
  const bool two = op.args.size() == 3 && t.writes.size() == 1, one = op.args.size() == 2 && t.writes.size() == 1;
  if (m == "mov" && one && op.args[1].kind == program::ArgKind::Reg) t.rule = Rule::Copy;
  else if (m == "not" && one && !pred) t.rule = Rule::Copy;
  else if (m == "and" && two && !pred) t.rule = Rule::And;
  else if (m == "or" && two && !pred) t.rule = Rule::Or;
  else if (m == "xor" && two && !pred) t.rule = Rule::Xor;
  else if (m == "shl" && two) t.rule = Rule::Shl;
  else if (m == "shr" && two) t.rule = type && (*type)[1] == 's' ? Rule::ShrSigned : Rule::Shr;
  t.cross_lane = m == "ldmatrix" || m == "stmatrix" || m.starts_with("wmma.");
  t.collective = t.barrier || m == "bar.warp.sync" || m == "shfl.sync" || m == "vote.sync" || m == "match.sync" ||
                 m == "redux.sync" || m == "elect.sync";
  return t;
}

}  // namespace ptxvm::sanitize
