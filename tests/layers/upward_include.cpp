// Compiled against the exec layer alone: exec sits below sem, so this include must not be found
// (src/CMakeLists.txt). tests/layers/CMakeLists.txt expects the build of this file to fail so.
#include "exec/warp.h"
#include "sem/dispatch.h"
