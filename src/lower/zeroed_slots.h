// The registers a CTA must zero before a kernel runs: registers start at 0, so that a read of one
// never written is deterministic, and zeroing only those a thread may read before writing them
// keeps CTA set-up cheap (exec/engine.cpp init_cta).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "program/program.h"

namespace ptxvm::lower {

// The register slots of kernel `k` that a thread may read before writing them, as (first, count)
// runs, with every slot of the device functions (program::Function::zeroed_slots).
std::vector<std::pair<uint32_t, uint32_t>> zeroed_slots(const program::Program& p, const program::Function& k);

}  // namespace ptxvm::lower
