// Predefined identifiers: the special registers of PTX §10 and the constant WARP_SZ (§4.5.1).
#pragma once

#include <cstdint>
#include <string_view>

namespace ptxvm::check {

struct SpecialRegister {
  std::string_view name;     // `%tid`, or a prefix such as `%envreg` for numbered families
  std::string_view section;  // §10.x of 001_23fdd5978b24a3ed.txt
  std::string_view type;     // `.u32`, `.u64`, `.v4.u32` for registers read with .x/.y/.z
  uint32_t count = 0;        // numbered family: `%envreg` with count 32 is %envreg0..%envreg31
};

// The special register `name` names (e.g. `%ctaid`, `%envreg7`, `%pm3_64`), or null.
const SpecialRegister* find_special_register(std::string_view name);

}  // namespace ptxvm::check
