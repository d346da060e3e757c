// Half-precision and mixed-precision arithmetic, PTX §9.7.4 and §9.7.5.
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {

void register_half(Registry& r) { (void)r; }

}  // namespace ptxvm::sem
