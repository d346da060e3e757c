// The matcher; see match.h.
#include "isa/match.h"

#include <algorithm>

#include "isa/suggest.h"
#include "isa/table.h"

namespace ptxvm::isa {

int Bound::index(std::string_view axis) const {
  int a = family->axis(axis);
  return a < 0 ? -1 : binding.value[a];
}

const std::string* Bound::value(std::string_view axis) const {
  int a = family->axis(axis);
  if (a < 0 || binding.value[a] < 0) return nullptr;
  return &family->axes[a].values[binding.value[a]];
}

bool Bound::is(std::string_view axis, std::string_view v) const {
  const std::string* s = value(axis);
  return s && *s == v;
}

std::string Bound::str() const {
  std::string s = family->mnemonic;
  for (size_t i = 0; i < family->axes.size(); ++i)
    if (binding.value[i] >= 0) s += family->axes[i].values[binding.value[i]];
  return s;
}

std::string spelling(const Bound& b) {
  std::string s = b.family->head;
  for (const std::string& q : b.family->fixed) s += q;
  for (size_t a = 0; a < b.family->axes.size(); ++a)
    if (((b.written >> a) & 1) && b.binding.value[a] >= 0)
      s += b.family->axes[a].values[b.binding.value[a]];
  return s;
}

namespace {

// One attempt to bind `inst` to `f`: the problems found, if any.
struct Attempt {
  Bound bound;
  std::vector<Problem> problems;
  size_t fixed_matched = 0;
};

Attempt try_bind(const ast::Instruction& inst, const Family& f) {
  Attempt at;
  at.bound.family = &f;
  at.bound.binding.value.assign(f.axes.size(), -1);
  at.bound.axis_loc.assign(f.axes.size(), inst.loc);
  std::vector<bool> used(inst.qualifiers.size(), false);
  for (const std::string& fx : f.fixed) {
    for (size_t q = 0; q < inst.qualifiers.size(); ++q) {
      if (!used[q] && inst.qualifiers[q] == fx) {
        used[q] = true;
        ++at.fixed_matched;
        break;
      }
    }
  }
  auto loc_of = [&](size_t q) {
    return q < inst.qualifier_locs.size() ? inst.qualifier_locs[q] : inst.loc;
  };
  if (at.fixed_matched < f.fixed.size()) {
    at.problems.push_back({inst.loc, "not " + f.mnemonic});
    return at;
  }
  for (size_t q = 0; q < inst.qualifiers.size(); ++q) {
    if (used[q]) continue;
    const std::string& tok = inst.qualifiers[q];
    bool bound = false, duplicate = false;
    for (size_t a = 0; a < f.axes.size() && !bound; ++a) {
      const auto& vals = f.axes[a].values;
      auto it = std::find(vals.begin(), vals.end(), tok);
      if (it == vals.end()) continue;
      if (at.bound.binding.value[a] >= 0) {
        duplicate = true;
        continue;
      }
      at.bound.binding.value[a] = static_cast<int16_t>(it - vals.begin());
      at.bound.written |= uint64_t{1} << a;
      at.bound.axis_loc[a] = loc_of(q);
      bound = true;
    }
    if (bound) continue;
    if (duplicate) {
      at.problems.push_back({loc_of(q), "qualifier '" + tok + "' repeated or conflicting in " +
                                            f.mnemonic + " (§" + f.section + ")"});
      continue;
    }
    std::vector<std::string> options;
    for (const Axis& a : f.axes) options.insert(options.end(), a.values.begin(), a.values.end());
    std::string near = nearest(tok, options);
    at.problems.push_back({loc_of(q), "unknown qualifier '" + tok + "' for " + f.mnemonic + " (§" +
                                          f.section + ")" +
                                          (near.empty() ? "" : "; did you mean '" + near + "'?")});
  }
  for (size_t a = 0; a < f.axes.size(); ++a) {
    const Axis& ax = f.axes[a];
    if (at.bound.binding.value[a] >= 0) continue;
    if (ax.default_index >= 0) {
      at.bound.binding.value[a] = static_cast<int16_t>(ax.default_index);
    } else if (ax.required) {
      std::string vals;
      for (size_t i = 0; i < ax.values.size() && i < 8; ++i) vals += (i ? ", " : "") + ax.values[i];
      if (ax.values.size() > 8) vals += ", ...";
      at.problems.push_back({inst.loc, f.mnemonic + " needs a ." + ax.name + " qualifier (one of " +
                                           vals + ") — §" + f.section});
    }
  }
  return at;
}

} // namespace

std::vector<Bound> bind_all(const ast::Instruction& inst, std::vector<Problem>& problems) {
  const auto& cands = families_for(inst.opcode);
  if (cands.empty()) {
    std::string near = nearest(inst.opcode, heads());
    problems.push_back({inst.loc, "unknown instruction '" + inst.opcode + "'" +
                                      (near.empty() ? "" : "; did you mean '" + near + "'?")});
    return {};
  }
  std::vector<Bound> out;
  std::optional<Attempt> best;
  for (const Family* f : cands) {
    Attempt at = try_bind(inst, *f);
    if (at.problems.empty()) {
      out.push_back(std::move(at.bound));
      continue;
    }
    if (!out.empty()) continue;
    // Prefer the row that explains the most: more fixed qualifiers matched, then fewer problems.
    if (!best || at.fixed_matched > best->fixed_matched ||
        (at.fixed_matched == best->fixed_matched && at.problems.size() < best->problems.size()))
      best = std::move(at);
  }
  if (out.empty()) problems = std::move(best->problems);
  return out;
}

} // namespace ptxvm::isa
