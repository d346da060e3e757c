// The matcher; see match.h.
#include "isa/match.h"

#include <algorithm>
#include <unordered_map>

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
  std::vector<int> axis_of_qualifier;  // per written qualifier: the axis it bound, -1 if fixed
};

// `explain`: spell out suggestions (edit distances) in the problems; only worth it for the row
// whose problems are reported, since most instructions bind to one of several candidate rows.
Attempt try_bind(const ast::Instruction& inst, const Family& f, bool explain) {
  Attempt at;
  at.bound.family = &f;
  at.bound.binding.value.assign(f.axes.size(), -1);
  at.bound.axis_loc.assign(f.axes.size(), inst.loc);
  at.axis_of_qualifier.assign(inst.qualifiers.size(), -1);
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
      at.axis_of_qualifier[q] = static_cast<int>(a);
      bound = true;
    }
    if (bound) continue;
    if (duplicate) {
      at.problems.push_back({loc_of(q), "qualifier '" + tok + "' repeated or conflicting in " +
                                            f.mnemonic + " (§" + f.section + ")"});
      continue;
    }
    std::string near;
    if (explain) {
      std::vector<std::string> options;
      for (const Axis& a : f.axes) options.insert(options.end(), a.values.begin(), a.values.end());
      near = nearest(tok, options);
    }
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

// Binding depends only on the opcode and the qualifier spelling, which real modules repeat
// thousands of times: successful bindings are remembered per spelling (per thread, bounded),
// with the qualifier ▶ axis map that re-locates them on each instruction.
struct Remembered {
  std::vector<Bound> bounds;
  std::vector<std::vector<int>> axis_of_qualifier;
};
constexpr size_t kRememberedSpellings = 4096;

std::vector<Bound> relocate(const Remembered& r, const ast::Instruction& inst) {
  std::vector<Bound> out = r.bounds;
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].axis_loc.assign(out[i].axis_loc.size(), inst.loc);
    for (size_t q = 0; q < r.axis_of_qualifier[i].size(); ++q) {
      int a = r.axis_of_qualifier[i][q];
      if (a >= 0 && q < inst.qualifier_locs.size()) out[i].axis_loc[static_cast<size_t>(a)] = inst.qualifier_locs[q];
    }
  }
  return out;
}

}  // namespace

std::vector<Bound> bind_all(const ast::Instruction& inst, std::vector<Problem>& problems) {
  thread_local std::unordered_map<std::string, Remembered> remembered;
  std::string key = inst.opcode;
  for (const std::string& q : inst.qualifiers) key += q;
  if (auto it = remembered.find(key); it != remembered.end()) return relocate(it->second, inst);

  const auto& cands = families_for(inst.opcode);
  if (cands.empty()) {
    std::string near = nearest(inst.opcode, heads());
    problems.push_back({inst.loc, "unknown instruction '" + inst.opcode + "'" +
                                      (near.empty() ? "" : "; did you mean '" + near + "'?")});
    return {};
  }
  std::vector<Bound> out;
  Remembered memo;
  std::optional<Attempt> best;
  const Family* best_family = nullptr;
  for (const Family* f : cands) {
    Attempt at = try_bind(inst, *f, /*explain=*/false);
    if (at.problems.empty()) {
      memo.axis_of_qualifier.push_back(at.axis_of_qualifier);
      out.push_back(std::move(at.bound));
      continue;
    }
    if (!out.empty()) continue;
    // Prefer the row that explains the most: more fixed qualifiers matched, then fewer problems.
    if (!best || at.fixed_matched > best->fixed_matched ||
        (at.fixed_matched == best->fixed_matched && at.problems.size() < best->problems.size())) {
      best = std::move(at);
      best_family = f;
    }
  }
  if (out.empty()) {
    problems = try_bind(inst, *best_family, /*explain=*/true).problems;
    return out;
  }
  if (remembered.size() >= kRememberedSpellings) remembered.clear();
  memo.bounds = out;
  remembered.emplace(std::move(key), std::move(memo));
  return out;
}

} // namespace ptxvm::isa
