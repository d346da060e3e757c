// PTX targets and versions; see target.h.
#include "isa/target.h"

#include <charconv>
#include <stdexcept>

namespace ptxvm::isa {

std::string Version::str() const {
  return std::to_string(major) + "." + std::to_string(minor);
}

std::optional<Target> parse_target(std::string_view s) {
  if (s.substr(0, 3) != "sm_") return std::nullopt;
  std::string_view rest = s.substr(3);
  unsigned sm = 0;
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), sm);
  if (ec != std::errc() || p == rest.data()) return std::nullopt;
  std::string_view tail(p, rest.data() + rest.size() - p);
  Target t;
  t.name = std::string(s);
  if (tail == "a" || tail == "f")
    t.suffix = tail[0];
  else if (!tail.empty())
    return std::nullopt;
  t.sm =
      sm == 101 ? 110 : sm; // renamed in PTX ISA 9.0 (000_70a4b524dfe259fa.txt, Target ISA notes)
  return t;
}

namespace {
// PTX ISA release notes (001_23fdd5978b24a3ed.txt §13) and the 9.0 rename, as accepted by ptxas.
struct KnownTarget {
  const char* name;
  Version ptx;
};
constexpr KnownTarget kTargets[] = {
    {"sm_75", {6, 3}},   {"sm_80", {7, 0}},   {"sm_86", {7, 1}},   {"sm_87", {7, 4}},
    {"sm_88", {7, 3}},   {"sm_89", {7, 8}},   {"sm_90", {7, 8}},   {"sm_90a", {8, 0}},
    {"sm_100", {8, 6}},  {"sm_100a", {8, 6}}, {"sm_100f", {8, 8}}, {"sm_101", {8, 6}},
    {"sm_101a", {8, 6}}, {"sm_101f", {8, 8}}, {"sm_103", {8, 8}},  {"sm_103a", {8, 8}},
    {"sm_103f", {8, 8}}, {"sm_110", {9, 0}},  {"sm_110a", {9, 0}}, {"sm_110f", {9, 0}},
    {"sm_120", {8, 7}},  {"sm_120a", {8, 7}}, {"sm_120f", {8, 8}}, {"sm_121", {8, 8}},
    {"sm_121a", {8, 8}}, {"sm_121f", {8, 8}},
    // Legacy targets: last, so that suggestions prefer current targets;
    // ptxas 13.0 still accepts them in .target (compiling for a newer -arch).
    {"sm_10", {1, 0}},   {"sm_11", {1, 0}},   {"sm_12", {1, 2}},   {"sm_13", {1, 2}},
    {"sm_20", {2, 0}},   {"sm_21", {2, 0}},   {"sm_30", {3, 0}},   {"sm_32", {4, 0}},
    {"sm_35", {3, 1}},   {"sm_37", {4, 1}},   {"sm_50", {4, 0}},   {"sm_52", {4, 1}},
    {"sm_53", {4, 2}},   {"sm_60", {5, 0}},   {"sm_61", {5, 0}},   {"sm_62", {5, 0}},
    {"sm_70", {6, 0}},   {"sm_72", {6, 1}},
};
} // namespace

std::optional<Version> target_min_ptx(const Target& t) {
  for (const auto& k : kTargets)
    if (t.name == k.name) return k.ptx;
  return std::nullopt;
}

const std::vector<std::string>& known_target_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& k : kTargets) v.emplace_back(k.name);
    return v;
  }();
  return names;
}

unsigned target_family(unsigned sm) {
  if (sm >= 100 && sm < 110) return 100;
  if (sm >= 110 && sm < 120) return 110;
  if (sm >= 120 && sm < 130) return 120;
  return sm;
}

TargetReq::TargetReq(std::string_view text) : text_(text) {
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t j = text.find(' ', i);
    if (j == std::string_view::npos) j = text.size();
    if (j > i) {
      auto t = parse_target(text.substr(i, j - i));
      if (!t) throw std::invalid_argument("bad target requirement: " + std::string(text));
      alts_.push_back({t->sm, t->suffix});
    }
    i = j;
  }
}

bool TargetReq::satisfied_by(const Target& t) const {
  for (const Alt& a : alts_) {
    switch (a.suffix) {
    case 0:
      if (t.sm >= a.sm) return true;
      break;
    case 'a':
      if (t.suffix == 'a' && t.sm == a.sm) return true;
      break;
    case 'f':
      if (t.suffix != 0 && target_family(t.sm) == target_family(a.sm) && t.sm >= a.sm) return true;
      break;
    }
  }
  return alts_.empty();
}

static std::string alt_name(unsigned sm, char suffix) {
  std::string s = "sm_" + std::to_string(sm);
  if (suffix) s += suffix;
  return s;
}

std::string TargetReq::describe() const {
  std::string s;
  for (size_t i = 0; i < alts_.size(); ++i) {
    if (i) s += i + 1 == alts_.size() ? " or " : ", ";
    s += alt_name(alts_[i].sm, alts_[i].suffix);
    if (alts_[i].suffix == 0) s += " or later";
    if (alts_[i].suffix == 'f') s += " (family)";
  }
  return s;
}

std::string TargetReq::suggestion() const {
  return alts_.empty() ? std::string() : alt_name(alts_[0].sm, alts_[0].suffix);
}

} // namespace ptxvm::isa
