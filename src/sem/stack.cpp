// Stack manipulation, PTX §9.7.17: alloca, stacksave, stackrestore.
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {

void register_stack(Registry& r) { (void)r; }

}  // namespace ptxvm::sem
