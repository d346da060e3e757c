// The sanitizer's state for one launch (docs/Sanitizer.md): the checks asked for, what each
// instruction does as the checks see it, and the reports, folded and collected from every host
// thread.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ptxvm/check.h"
#include "sanitize/op_traits.h"

namespace ptxvm::sanitize {

class Session {
public:
  Session(const Checks& enabled, const program::Program& program, const program::Function& kernel,
          const uint32_t (&block)[3]);

  const Checks checks;
  // The tcgen05 check follows the order of tcgen05 operations across threads (on racecheck's
  // clocks, sanitize::RaceShadow): it runs and the kernel reaches tcgen05 instructions.
  const bool tcgen05_order;
  // racecheck's clocks follow the launch: for racecheck, or for tcgen05_order.
  bool clocks() const { return checks.racecheck || tcgen05_order; }
  const OpTraits& traits(uint32_t pc) const { return traits_[pc]; }
  // Where thread `thread` (its linear index in the CTA) of CTA `cta` stands at `pc`.
  CheckSite site(const uint32_t (&cta)[3], uint32_t thread, uint32_t pc) const;
  // Adds a report, or counts it in an earlier one of the same kind at the same instructions.
  void report(CheckReport r);
  std::vector<CheckReport> reports() const;
  // Whether `check` has reported something at `pc` (a fault's report then adds nothing).
  bool reported(const std::string& check, uint32_t pc) const;

  static constexpr size_t kMostReports = 1000;  // distinct reports kept; the rest are counted

private:
  const program::Program& program_;
  const std::string kernel_;
  uint32_t block_[3];
  std::vector<OpTraits> traits_;
  mutable std::mutex mutex_;
  std::vector<CheckReport> reports_;
  std::map<std::tuple<std::string, std::string, uint32_t, uint32_t>, size_t> index_;  // check, kind, pc, other pc
};

}  // namespace ptxvm::sanitize
