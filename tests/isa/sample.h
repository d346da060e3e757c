// Deterministic sampling of a family's bindings, shared by the rule tests and the corpus
// generator: a random value (or absence) per axis, defaults filled as the matcher fills them.
#pragma once

#include <optional>
#include <random>
#include <vector>

#include "isa/check.h"
#include "isa/family.h"
#include "isa/match.h"

namespace ptxvm::isa::testing {

inline Bound random_binding(const Family& f, std::mt19937& rng) {
  Bound b;
  b.family = &f;
  b.binding.value.assign(f.axes.size(), -1);
  b.axis_loc.assign(f.axes.size(), SourceLoc{});
  for (size_t a = 0; a < f.axes.size(); ++a) {
    const Axis& ax = f.axes[a];
    bool present = ax.required || rng() % 2 == 0;
    if (present) {
      b.binding.value[a] = static_cast<int16_t>(rng() % ax.values.size());
      b.written |= uint64_t{1} << a;
    } else if (ax.default_index >= 0) {
      b.binding.value[a] = static_cast<int16_t>(ax.default_index);
    }
  }
  return b;
}

// One goal of a search: `pred` must evaluate to `want`.
struct Goal {
  const Pred* pred;
  bool want;
};

// A binding meeting every goal, found by a seeded local search (WalkSAT): start at random, then
// repeatedly re-draw one axis that an unmet goal mentions. Deterministic for a given seed.
inline std::optional<Bound> solve(const Family& f, uint32_t seed, const std::vector<Goal>& goals,
                                  int restarts = 100, int steps = 1000) {
  std::mt19937 rng(seed);
  for (int r = 0; r < restarts; ++r) {
    Bound b = random_binding(f, rng);
    for (int s = 0; s < steps; ++s) {
      std::vector<const Goal*> unmet;
      for (const Goal& g : goals)
        if (g.pred->eval(b.binding) != g.want) unmet.push_back(&g);
      if (unmet.empty()) return b;
      std::vector<int> axes = unmet[rng() % unmet.size()]->pred->axes_mentioned();
      if (axes.empty()) break;
      int a = axes[rng() % axes.size()];
      const Axis& ax = f.axes[a];
      // Half the time a random value, else the value (or absence) that leaves fewest goals unmet.
      auto set = [&](Bound& x, size_t pick) {
        if (pick == ax.values.size()) {
          x.binding.value[a] = static_cast<int16_t>(ax.default_index);
          x.written &= ~(uint64_t{1} << a);
        } else {
          x.binding.value[a] = static_cast<int16_t>(pick);
          x.written |= uint64_t{1} << a;
        }
      };
      size_t choices = ax.values.size() + (ax.required ? 0 : 1);
      size_t pick = rng() % choices;
      if (rng() % 2) {
        size_t best = SIZE_MAX;
        for (size_t c = 0; c < choices; ++c) {
          Bound t = b;
          set(t, c);
          size_t n = 0;
          for (const Goal& g : goals) n += g.pred->eval(t.binding) != g.want;
          if (n < best || (n == best && rng() % 2)) best = n, pick = c;
        }
      }
      set(b, pick);
    }
  }
  return std::nullopt;
}

// Goals: every rule holds, plus `extra`.
inline std::vector<Goal> valid_goals(const Family& f, std::vector<Goal> extra = {}) {
  for (const Rule& r : f.rules) extra.push_back({&r.holds, true});
  return extra;
}

// The bound form written as PTX: "add.sat.s32".
inline std::string spelled(const Bound& b) {
  return spelling(b);
}

} // namespace ptxvm::isa::testing
