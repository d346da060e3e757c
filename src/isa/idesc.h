// Run-time checks of tcgen05.mma: M and N live in the instruction-descriptor register
// (000_70a4b524dfe259fa.txt §9.7.16.4.2, Tables 42-44), so only the executing instruction knows
// them. The execution engine calls this with the register's value; the message has the quality of
// the static checks (rule, values, section, the valid choices).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "isa/match.h"

namespace ptxvm::isa {

struct MmaShape {
  unsigned m = 0, n = 0;
};

// M and N as the descriptor encodes them for the instruction's .kind.
MmaShape idesc_shape(const Bound& mma, uint32_t idesc);

// Checks M and N against Table 39 (§9.7.16.2.1) for the instruction's .kind, .cta_group, .ws and
// sparsity; nullopt when valid. `mma` is a bound tcgen05.mma, .mma.sp, .mma.ws or .mma.ws.sp.
std::optional<std::string> check_idesc_shape(const Bound& mma, uint32_t idesc);

} // namespace ptxvm::isa
