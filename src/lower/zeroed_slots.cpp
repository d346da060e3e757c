#include "lower/zeroed_slots.h"

#include <algorithm>

namespace ptxvm::lower {
namespace {

using program::Arg;
using program::ArgKind;
using program::Function;
using program::kNoReg;
using program::Op;
using program::Program;

// Whether args[0] of `op` is a destination that the op writes whole for every lane it runs: a
// register or a vector of registers (operand kinds `d`, `x`: isa/family.h) with no guard on the
// op and no video byte/half selector (which merges into the old value, §9.7.18).
bool writes_first(const Op& op) {
  if (op.guard != kNoReg || !op.family || op.family->operands.empty() || op.args.empty()) return false;
  const isa::Operand& o = op.family->operands[0];
  if ((o.kind != 'd' && o.kind != 'x') || o.optional) return false;
  const Arg& d = op.args[0];
  auto whole = [](const Arg& r) { return r.kind == ArgKind::Reg && r.component == 0; };
  return whole(d) || (d.kind == ArgKind::Vector && !d.elems.empty() && std::all_of(d.elems.begin(), d.elems.end(), whole));
}

// Whether the handler of `op` may read the registers of operand `arg` in lanes other than those
// running it, which need not have written them (Op::cross_lane, set by its selector).
bool reads_other_lanes(const Op& op, size_t arg) { return arg < 32 && ((op.cross_lane >> arg) & 1u); }

}  // namespace

// The register slots of kernel `k` that a thread may read before writing them: a forward
// "definitely written" data flow over its ops (a must analysis: a slot is written at an op when
// it is written on every path from the entry). A jumping op (Op::jumps) may go to any Target
// among its operands or fall through. Included as well: every register of an op that reads other
// lanes' registers (the data flow is per thread), and every slot of the device functions (a call
// starts a callee with the registers it left, and recursion saves and restores them).
std::vector<std::pair<uint32_t, uint32_t>> zeroed_slots(const Program& p, const Function& k) {
  std::vector<bool> zero(p.reg_slots, false);
  for (const Function& f : p.functions)
    if (!f.is_entry) std::fill_n(zero.begin() + f.reg_base, f.reg_count, true);
  const uint32_t n = k.end - k.entry, base = k.reg_base, count = k.reg_count;
  const size_t words = (count + 63) / 64;
  auto mine = [&](uint32_t slot) { return slot - base < count; };
  if (uint64_t{n} * words > (uint64_t{1} << 21)) {  // over 16 MB of sets to analyse: zero all of it
    std::fill_n(zero.begin() + base, count, true);
  } else {
    // written[i]: the slots written on every path to op i (all of them until a path reaches it).
    std::vector<uint64_t> written(size_t{n} * words, ~uint64_t{0});
    std::vector<bool> reached(n, false), queued(n, false);
    std::fill_n(written.begin(), words, 0);
    reached[0] = queued[0] = true;
    std::vector<uint32_t> work = {0};
    std::vector<uint64_t> out(words);
    while (!work.empty()) {
      uint32_t i = work.back();
      work.pop_back();
      queued[i] = false;
      const Op& op = p.ops[k.entry + i];
      std::copy_n(written.begin() + size_t{i} * words, words, out.begin());
      if (writes_first(op))
        program::for_each_slot(op.args[0], [&](uint32_t d) {
          if (mine(d)) out[(d - base) / 64] |= uint64_t{1} << ((d - base) % 64);
        });
      auto flow = [&](uint32_t to) {
        if (to < k.entry || to >= k.end) return;
        to -= k.entry;
        uint64_t* w = written.data() + size_t{to} * words;  // words may be 0: no [] on an empty vector
        bool changed = !reached[to];
        reached[to] = true;
        for (size_t j = 0; j < words; ++j) {
          uint64_t v = w[j] & out[j];
          changed |= v != w[j];
          w[j] = v;
        }
        if (changed && !queued[to]) queued[to] = true, work.push_back(to);
      };
      flow(k.entry + i + 1);
      if (op.jumps)
        for (const Arg& a : op.args) {
          if (a.kind == ArgKind::Target) flow(a.reg);
          for (const Arg& e : a.elems)
            if (e.kind == ArgKind::Target) flow(e.reg);
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
      const Op& op = p.ops[k.entry + i];
      const uint64_t* w = written.data() + size_t{i} * words;
      for (size_t a = writes_first(op) && !reads_other_lanes(op, 0) ? 1 : 0; a < op.args.size(); ++a) {
        const bool any_lane = reads_other_lanes(op, a);
        program::for_each_slot(op.args[a], [&](uint32_t slot) {
          if (!mine(slot) || any_lane) {
            if (slot < zero.size()) zero[slot] = true;
          } else if (!reached[i] || !(w[(slot - base) / 64] >> ((slot - base) % 64) & 1)) zero[slot] = true;
        });
      }
    }
  }
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  for (uint32_t s = 0; s < p.reg_slots; ++s) {
    if (!zero[s]) continue;
    if (!runs.empty() && runs.back().first + runs.back().second == s) ++runs.back().second;
    else runs.push_back({s, 1});
  }
  return runs;
}

}  // namespace ptxvm::lower
