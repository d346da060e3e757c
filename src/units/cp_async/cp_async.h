// The non-bulk asynchronous copy unit (PTX §9.7.9.25.3): what other units ask of it.
#pragma once

#include <cstdint>

namespace ptxvm::exec {
class Warp;
}

namespace ptxvm::units::cp_async {

// Every cp.async copy the lanes of `w` issued lands in shared memory now, committed or not.
void complete_all(exec::Warp& w, uint32_t lanes);

}  // namespace ptxvm::units::cp_async
