#include "lower/contraction.h"

#include <string>
#include <unordered_map>

#include "isa/match.h"
#include "program/registry.h"

namespace ptxvm::lower {
namespace {

using program::Arg;
using program::ArgKind;
using program::Fused;
using program::kNoReg;
using program::Op;

// The floating-point families ptxas contracts: §9.7.3 (f32, f64) and §9.7.4 (half precision).
bool contractible_family(const isa::Family& f) {
  return f.section.rfind("9.7.3.", 0) == 0 || f.section.rfind("9.7.4.", 0) == 0;
}

isa::Bound bound(const Op& op) {
  isa::Bound b;
  b.family = op.family;
  b.binding = op.binding;
  return b;
}

std::string value(const Op& op, std::string_view axis) {
  const std::string* v = bound(op).value(axis);
  return v ? *v : std::string();
}

// What `op` gives an add to fuse with, or None.
Fused producer(const Op& op, bool unrounded) {
  if (!op.family || !contractible_family(*op.family) || value(op, "type") == ".f32x2") return Fused::None;
  if (op.family->mnemonic == "mul" && unrounded && value(op, "sat").empty()) return Fused::Mul;
  if (op.family->mnemonic == "div" && value(op, "type") == ".f32") {
    const std::string mode = value(op, "mode");
    if (mode == ".approx") return Fused::DivApprox;
    if (mode == ".full") return Fused::DivFull;
  }
  return Fused::None;
}

bool consumer(const Op& op, bool unrounded) {
  return op.family && contractible_family(*op.family) && unrounded && value(op, "type") != ".f32x2" &&
         (op.family->mnemonic == "add" || op.family->mnemonic == "sub");
}

// Same family group, type and .ftz.
bool compatible(const Op& mul, const Op& add) {
  return mul.family->section.substr(0, 6) == add.family->section.substr(0, 6) &&
         value(mul, "type") == value(add, "type") && value(mul, "ftz") == value(add, "ftz");
}

bool source(const Arg& a) { return (a.kind == ArgKind::Reg && a.component == 0) || a.kind == ArgKind::Imm; }

}  // namespace

void contract(program::Program& p, const program::Function& f, const std::vector<bool>& unrounded) {
  const uint32_t begin = f.entry, end = f.end;
  // Basic blocks start at the entry, at branch targets, and after an op that may jump.
  std::vector<bool> starts(end - begin + 1, false);
  starts[0] = true;
  std::unordered_map<uint32_t, uint32_t> mentions;  // per register slot: the args naming it
  for (uint32_t i = begin; i < end; ++i) {
    const Op& op = p.ops[i];
    if (op.jumps) starts[i + 1 - begin] = true;
    for (const Arg& a : op.args) {
      program::for_each_slot(a, [&](uint32_t s) { ++mentions[s]; });
      auto target = [&](const Arg& t) {
        if (t.kind == ArgKind::Target && t.reg >= begin && t.reg < end) starts[t.reg - begin] = true;
      };
      target(a);
      for (const Arg& e : a.elems) target(e);
    }
  }
  // One pass: the last op of the current block that wrote each slot, for the producer of an add's
  // operand and whether the multiplication's sources changed since.
  std::unordered_map<uint32_t, uint32_t> written;
  uint32_t block = begin;
  auto written_since = [&](uint32_t slot, uint32_t after) {
    const auto w = written.find(slot);
    return w != written.end() && w->second >= block && w->second > after;
  };
  for (uint32_t c = begin; c < end; ++c) {
    if (starts[c - begin]) block = c;
    Op& add = p.ops[c];
    for (int k = 1; k <= 2 && consumer(add, unrounded[c]) && add.args.size() == 3; ++k) {
      const Arg& x = add.args[k];
      if (x.kind != ArgKind::Reg || x.component != 0 || mentions[x.reg] != 2) continue;
      const uint32_t product = x.reg;
      const auto w = written.find(product);
      if (w == written.end() || w->second < block) continue;
      const uint32_t m = w->second;
      const Op& mul = p.ops[m];
      const Fused kind = producer(mul, unrounded[m]);
      if (kind == Fused::None || !compatible(mul, add) || mul.args.size() != 3 || mul.args[0].kind != ArgKind::Reg ||
          mul.args[0].reg != product || mul.args[0].component != 0 || !source(mul.args[1]) || !source(mul.args[2]) ||
          (mul.guard != kNoReg && (mul.guard != add.guard || mul.guard_negated != add.guard_negated)))
        continue;
      // A source of the multiplication written again before the add: ptxas (on SSA values) still
      // fuses; here the add would read the new value, so the pair stays unfused.
      if ((mul.args[1].kind == ArgKind::Reg && written_since(mul.args[1].reg, m)) ||
          (mul.args[2].kind == ArgKind::Reg && written_since(mul.args[2].reg, m)))
        continue;
      Op fused = add;
      Arg a = mul.args[1], other = add.args[3 - k];
      const bool sub = add.family->mnemonic == "sub";
      if (sub && k == 2) a.negated = true;      // c - a*b
      if (sub && k == 1) other.negated = true;  // a*b - c
      fused.args = {add.args[0], a, mul.args[2], other};
      fused.fused = kind;
      std::string why;
      const program::Selector select = program::find_selector(*add.family);
      if (select && select(bound(add), fused, why)) {
        add = std::move(fused);
        for (int s = 1; s <= 2; ++s)  // the add reads the multiplication's sources now, not its result
          program::for_each_slot(add.args[s], [&](uint32_t slot) { ++mentions[slot]; });
        --mentions[product];
        break;
      }
    }
    if (!add.args.empty()) program::for_each_slot(add.args[0], [&](uint32_t s) { written[s] = c; });
  }
}

}  // namespace ptxvm::lower
