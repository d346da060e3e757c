// The sanitizer's vocabulary (docs/Sanitizer.md): which checks a launch runs and what a check
// reports. Dependency-free, shared by the public API and the sanitizer layer (src/sanitize).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptxvm {

// The checks of a launch; all off by default, and then they cost nothing.
struct Checks {
  bool memcheck = false;   // out-of-bounds and misaligned accesses, named by the allocation
  bool racecheck = false;  // shared-memory hazards between threads no synchronisation orders
  bool synccheck = false;  // barriers and .aligned instructions reached by part of a CTA or warp
  bool initcheck = false;  // uses of values loaded from shared or local memory no thread wrote
  bool async = false;      // memory an asynchronous copy in flight writes or reads, accessed
  bool tcgen05 = false;    // Tensor Memory read unwritten or before the operation writing it completed
  bool any() const { return memcheck || racecheck || synccheck || initcheck || async || tcgen05; }
  // "memcheck,racecheck", "all": the checks named, or nullopt with *error saying which name is
  // unknown.
  static std::optional<Checks> parse(std::string_view list, std::string* error);
};

// Where an access or instruction happened.
struct CheckSite {
  uint32_t cta[3] = {0, 0, 0};
  uint32_t thread[3] = {0, 0, 0};  // %tid
  uint32_t warp = 0, lane = 0;
  uint32_t pc = 0, line = 0;
  std::string instruction;          // the PTX instruction, canonical
  std::string source_file;          // the .loc line of the program's source (CUDA C++), when the
  uint32_t source_line = 0;         // module has .loc directives (nvcc -lineinfo, -G)
};

// One finding. Reports of the same kind at the same instructions fold into one (`count`).
struct CheckReport {
  std::string check;   // "memcheck", "racecheck", "synccheck", "initcheck", "async" or "tcgen05"
  std::string kind;    // "out-of-bounds", "write-after-read hazard", "divergent barrier", ...
  std::string kernel;
  CheckSite site;      // the access or instruction reported
  std::optional<CheckSite> other;  // racecheck: the earlier access of the pair; async: the issue
  std::string space;   // the state space accessed, when an access is reported
  uint64_t address = 0;
  uint32_t size = 0;
  uint64_t count = 1;
  std::string detail;  // what is wrong, citing the spec
  // The report as text, in the manner of compute-sanitizer; `source` names the PTX file.
  std::string render(const std::string& source) const;
};

}  // namespace ptxvm
