// Video instructions, PTX §9.7.18 (000_70a4b524dfe259fa.txt): scalar and SIMD video forms.
#include "exec/warp.h"
#include "sem/dispatch.h"
#include "sem/registry.h"

namespace ptxvm::sem {

void register_video(Registry& r) { (void)r; }

}  // namespace ptxvm::sem
