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

// The operand of `op` that ptxas folds when it is a constant (sem/float.cpp), or 0: the divisor
// of div.approx/div.full .f32, the operand of the .f32 .approx functions but tanh.
size_t folded_operand(const Op& op, bool unrounded) {
  const Fused kind = producer(op, unrounded);
  if (kind == Fused::DivApprox || kind == Fused::DivFull) return 2;
  if (!op.family || op.family->section.rfind("9.7.3.", 0) != 0 || value(op, "type") != ".f32") return 0;
  const std::string& m = op.family->mnemonic;
  const bool approx = value(op, "mode") == ".approx" || !value(op, "approx").empty();
  return approx && (m == "ex2" || m == "lg2" || m == "sin" || m == "cos" || m == "sqrt" || m == "rsqrt" || m == "rcp")
             ? 1 : 0;
}

// Instructions that ptxas expands into a slow path behind a branch, and memory barriers: a multiply
// before one is not fused with an add after it (ptxas 13.0, sm_90: IEEE div, rcp and sqrt of f32
// and f64 in every rounding mode, rsqrt.approx.f64 without .ftz, integer div and rem but of .u32,
// membar and fence; not the .approx forms, fence.proxy, barriers, atomics or shuffles).
bool splits(const Op& op) {
  if (!op.family) return false;
  const std::string& m = op.family->mnemonic;
  if (m == "membar" || m == "fence") return true;
  const bool integer = op.family->section.rfind("9.7.1.", 0) == 0, real = op.family->section.rfind("9.7.3.", 0) == 0;
  if (integer && (m == "div" || m == "rem")) return value(op, "type") != ".u32";
  if (real && (m == "div" || m == "rcp" || m == "sqrt")) {
    const std::string mode = value(op, "mode");
    return mode != ".approx" && mode != ".full";
  }
  return real && m == "rsqrt" && value(op, "type") == ".f64" && value(op, "ftz").empty();
}

}  // namespace

void contract(program::Program& p, const program::Function& f, const std::vector<bool>& unrounded) {
  const uint32_t begin = f.entry, end = f.end;
  // Basic blocks start at the entry, at branch targets and after an op that may jump (`real`),
  // and, for fusing, also at an op that splits(). An op inside the span of a backward branch may
  // run more than once (`looped`).
  std::vector<bool> real(end - begin + 1, false), starts;
  std::vector<int> loops(end - begin + 1, 0);
  real[0] = true;
  std::unordered_map<uint32_t, uint32_t> mentions, writers, writer;  // per slot: args naming it, ops writing it, the last
  for (uint32_t i = begin; i < end; ++i) {
    const Op& op = p.ops[i];
    if (op.jumps) real[i + 1 - begin] = true;
    for (const Arg& a : op.args) {
      program::for_each_slot(a, [&](uint32_t s) { ++mentions[s]; });
      auto target = [&](const Arg& t) {
        if (t.kind != ArgKind::Target || t.reg < begin || t.reg >= end) return;
        real[t.reg - begin] = true;
        if (t.reg <= i) ++loops[t.reg - begin], --loops[i + 1 - begin];
      };
      target(a);
      for (const Arg& e : a.elems) target(e);
    }
    if (!op.args.empty()) program::for_each_slot(op.args[0], [&](uint32_t s) { ++writers[s], writer[s] = i; });
  }
  // ptxas computes with constants at compile time: a register written once, by a mov of an
  // immediate, that a division reads as its divisor or an .approx function as its operand becomes
  // that immediate (sem/float.cpp folds them). nvcc's -use_fast_math writes x / 255.0f and
  // __expf(2.0f) so. Not div.full.ftz's divisor, which the H200 takes through MUFU.RCP even then.
  for (uint32_t i = begin; i < end; ++i) {
    Op& op = p.ops[i];
    const size_t k = folded_operand(op, unrounded[i]);
    if (k == 0 || op.fused != Fused::None) continue;
    Op folded = op;
    folded.fused = Fused::Constant;
    const Arg& x = op.args[k];
    const bool full_ftz = k == 2 && value(op, "mode") == ".full" && !value(op, "ftz").empty();
    if (x.kind == ArgKind::Reg && x.component == 0 && writers[x.reg] == 1 && !full_ftz) {
      const Op& mov = p.ops[writer[x.reg]];
      if (mov.family && mov.family->mnemonic == "mov" && mov.guard == kNoReg && mov.args.size() == 2 &&
          mov.args[0].kind == ArgKind::Reg && mov.args[0].reg == x.reg && mov.args[1].kind == ArgKind::Imm)
        --mentions[x.reg], folded.args[k] = mov.args[1];
    }
    if (folded.args[k].kind != ArgKind::Imm) continue;
    std::string why;
    const program::Selector select = program::find_selector(*op.family);
    if (select && select(bound(op), folded, why)) op = std::move(folded);
  }
  starts = real;
  for (uint32_t i = begin; i < end; ++i)
    if (splits(p.ops[i])) starts[i - begin] = true;
  std::vector<uint32_t> block_of(end - begin), real_block_of(end - begin);
  std::vector<bool> looped(end - begin);
  for (uint32_t i = begin, b = begin, rb = begin, depth = 0; i < end; ++i) {
    block_of[i - begin] = starts[i - begin] ? (b = i) : b;
    real_block_of[i - begin] = real[i - begin] ? (rb = i) : rb;
    looped[i - begin] = (depth += loops[i - begin]) > 0;
  }
  // One pass: the last op that wrote each slot, for the producer of an add's operand and whether
  // the multiplication's sources changed since.
  std::unordered_map<uint32_t, uint32_t> written;
  auto written_since = [&](uint32_t slot, uint32_t after) {
    const auto w = written.find(slot);
    return w != written.end() && w->second > after;
  };
  for (uint32_t c = begin; c < end; ++c) {
    const uint32_t block = block_of[c - begin];
    Op& add = p.ops[c];
    for (int k = 1; k <= 2 && consumer(add, unrounded[c]) && add.args.size() == 3; ++k) {
      const Arg& x = add.args[k];
      if (x.kind != ArgKind::Reg || x.component != 0 || mentions[x.reg] != 2) continue;
      const uint32_t product = x.reg;
      const auto w = written.find(product);
      if (w == written.end()) continue;
      const uint32_t m = w->second;
      const Op& mul = p.ops[m];
      const Fused kind = producer(mul, unrounded[m]);
      if (kind == Fused::None || !compatible(mul, add) || mul.args.size() != 3 || mul.args[0].kind != ArgKind::Reg ||
          mul.args[0].reg != product || mul.args[0].component != 0 || !source(mul.args[1]) || !source(mul.args[2]) ||
          (mul.guard != kNoReg && (mul.guard != add.guard || mul.guard_negated != add.guard_negated)))
        continue;
      if (m >= block) {
        // A source of the multiplication written again before the add: ptxas (on SSA values)
        // still fuses; here the add would read the new value, so the pair stays unfused.
        if ((mul.args[1].kind == ArgKind::Reg && written_since(mul.args[1].reg, m)) ||
            (mul.args[2].kind == ArgKind::Reg && written_since(mul.args[2].reg, m)))
          continue;
      } else {
        // In an earlier block: ptxas moves a product of a register and an immediate to its use
        // (BlackScholes' and dxtc's kernels; a product of two registers stays). The register
        // must hold at the add what it held at the multiply: written once, before the multiply in
        // its block or where no loop repeats the write.
        // A division by a constant is a product by an immediate too (its folded reciprocal).
        const int imm = mul.args[2].kind == ArgKind::Imm ? 2 : mul.args[1].kind == ArgKind::Imm && kind == Fused::Mul ? 1 : 0;
        if (mul.guard != kNoReg || imm == 0) continue;
        const Arg& r = mul.args[3 - imm];
        if (r.kind == ArgKind::Reg) {
          const auto d = written.find(r.reg);
          if (writers[r.reg] != 1 || d == written.end() || d->second > m) continue;
          if (real_block_of[d->second - begin] != real_block_of[m - begin] && looped[d->second - begin]) continue;
        }
      }
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
    // A neg or abs .f32 (without .ftz) that only this selp.f32 reads, in its block: ptxas folds it
    // into the select's operand (FSEL R, -R), a bare sign-bit change.
    if (add.family && add.family->mnemonic == "selp" && value(add, "type") == ".f32")
      for (int k = 1; k <= 2; ++k) {
        const Arg& x = add.args[k];
        const auto w = x.kind == ArgKind::Reg ? written.find(x.reg) : written.end();
        if (w == written.end() || mentions[x.reg] != 2 || w->second < block) continue;
        Op& sign = p.ops[w->second];
        if (!sign.family || sign.family->section.rfind("9.7.3.", 0) != 0 ||
            (sign.family->mnemonic != "neg" && sign.family->mnemonic != "abs") || value(sign, "type") != ".f32" ||
            !value(sign, "ftz").empty() || sign.fused != Fused::None)
          continue;
        Op folded = sign;
        folded.fused = Fused::Select;
        std::string why;
        const program::Selector select = program::find_selector(*sign.family);
        if (select && select(bound(sign), folded, why)) sign = std::move(folded);
      }
    if (!add.args.empty()) program::for_each_slot(add.args[0], [&](uint32_t s) { written[s] = c; });
  }
}

}  // namespace ptxvm::lower
