// CUDA's device-side cudaGraphSetConditional(handle, value) (CUDA C++ Programming Guide,
// "Conditional Graph Nodes"; cuda_device_runtime_api.h), which nvcc emits as a call of the extern
// function cudaGraphSetConditional(.b64 handle, .b32 value). The drop-in driver makes a
// conditional handle the device address of the handle's 32-bit value (src/cuda/conditional.cpp),
// so setting it is a store there; the graph reads it when the conditional node is evaluated.
#pragma once

#include <cstdint>

namespace ptxvm::exec {
class Warp;
}

namespace ptxvm::sem {

// Sets the value of `handle` for `lane`; a handle that is no device address faults, named.
void graph_set_conditional(exec::Warp& w, uint64_t handle, uint32_t value, int lane);

}  // namespace ptxvm::sem
