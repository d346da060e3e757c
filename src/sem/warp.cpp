// Warp-level collectives, PTX §9.7.13.10-14: match.sync, redux.sync, elect.sync.
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {

void register_warp(Registry& r) { (void)r; }

}  // namespace ptxvm::sem
