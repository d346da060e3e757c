// PTX ISA versions and compilation targets (PTX §5.x `.target`, §11.1.4; 000_70a4b524dfe259fa.txt
// "Target ISA notes"; 003_6cc9a368d385caa7.txt "sm_100 / sm_100a / sm_100f Target Differences").
//
// A target is `sm_N` with an optional suffix: `a` (architecture-specific: every feature of that
// exact chip) or `f` (family-specific: the features shared by the chips of one family, e.g. sm_100f
// covers sm_100 and sm_103). sm_101 was renamed sm_110 in PTX ISA 9.0; both spellings name one
// chip.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxvm::isa {

struct Version {
  uint8_t major = 0, minor = 0;
  friend auto operator<=>(const Version&, const Version&) = default;
  std::string str() const; // "8.6"
};

struct Target {
  unsigned sm = 0;  // 75, 80, ..., 100, 103, 110 (sm_101 is stored as 110), 120, 121
  char suffix = 0;  // 0, 'a' or 'f'
  std::string name; // as written: "sm_101a"
};

// Parses `sm_90a`; nullopt for a malformed name. Whether the target exists is `target_known`.
std::optional<Target> parse_target(std::string_view s);
// Targets this project supports (sm_75 and later, as the spec lists them), with the first PTX ISA
// version that accepts each one.
std::optional<Version> target_min_ptx(const Target& t);
// The family of a chip: sm_103 belongs to sm_100's, sm_121 to sm_120's.
unsigned target_family(unsigned sm);
// The names of every supported target, in order (for suggestions and the corpus).
const std::vector<std::string>& known_target_names();

// A target requirement: alternatives separated by spaces, each `sm_N` (N or later, any suffix),
// `sm_Na` (exactly the architecture-specific target) or `sm_Nf` (a family- or architecture-
// specific target of N's family, at N or later in it).
class TargetReq {
public:
  TargetReq() = default;
  explicit TargetReq(std::string_view text); // throws std::invalid_argument on a bad spelling
  bool empty() const { return alts_.empty(); }
  bool satisfied_by(const Target& t) const;
  std::string describe() const;   // "sm_100a or sm_110a or sm_100f"
  std::string suggestion() const; // the target to suggest: "sm_100a"
  const std::string& text() const { return text_; }

private:
  struct Alt {
    unsigned sm;
    char suffix;
  };
  std::vector<Alt> alts_;
  std::string text_;
};

} // namespace ptxvm::isa
