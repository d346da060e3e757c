// The sizes of the register vectors of matrix instructions: how many registers each thread holds
// of each fragment, from the shape and types (001_23fdd5978b24a3ed.txt §9.7.14.4.1 wmma fragments,
// §9.7.14.5.1-13 mma, §9.7.14.6.2 mma.sp, §9.7.14.5.15-16 ldmatrix/stmatrix, §9.7.15.5.1.1 wgmma;
// 000_70a4b524dfe259fa.txt §9.7.16.8.3 Tables 47-48 for tcgen05.ld/st).
//
// The checker requires these sizes of the rows' `v*` operands; the corpus generator writes them.
#pragma once

#include <optional>
#include <vector>

#include "isa/match.h"

namespace ptxvm::isa {

// Per operand of the row (in the row's operand order) the vector size, 0 where the size is not
// fixed by the shape; nullopt for families without such vectors.
std::optional<std::vector<unsigned>> fragment_sizes(const Bound& b);

} // namespace ptxvm::isa
