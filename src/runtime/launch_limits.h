// The launch rules CUDA applies for a target, checked before a launch runs: the %nctaid and
// %ntid ranges (PTX §10), the per-CTA and per-SM limits of the compute capability (CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability"), and the kernel's
// .maxntid/.reqntid/.minnctapersm (§11.4) and cluster directives (§11.7).
#pragma once

#include <string>

#include "program/program.h"
#include "ptxvm/ptxvm.h"

namespace ptxvm::runtime {

struct TargetLimits {
  unsigned sm;                   // the first chip these apply to (75 for sm_75 ...)
  uint32_t shared_per_cta;       // opt-in maximum of shared memory per CTA, bytes
  uint32_t threads_per_sm;
  uint32_t clusters_from_sm;     // 0: no clusters; else the portable cluster size limit applies
};

// The limits of a `.target` name (`sm_90a`); an unknown or missing target gets sm_90's.
const TargetLimits& target_limits(const std::string& target);

// Why `config` cannot launch `kernel` of `program` on its target; empty when it can.
std::string check_launch_limits(const program::Program& program, const program::Function& kernel,
                                const LaunchConfig& config);

}  // namespace ptxvm::runtime
