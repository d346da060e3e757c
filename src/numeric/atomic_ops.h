// The read-modify-write of one element by atom, red (PTX §9.7.13.5-6) and the bulk reductions
// cp.reduce.async.bulk (§9.7.9.25.4.2), 001_23fdd5978b24a3ed.txt: the new memory value from the
// old one, as sm_90 computes it.
#pragma once

#include <cstdint>
#include <string>

namespace ptxvm::numeric {

// The new memory value from the old one, operand b and (for .cas) c, as bits of the element
// type; `global`: the element is in global memory, where floating-point adds behave differently
// (atomic_ops.cpp).
using Combine = uint64_t (*)(uint64_t old, uint64_t b, uint64_t c, bool global);

// Integer .add: old + b, which the caller truncates to the element type (atom's fast path
// compares against it).
uint64_t add_integers(uint64_t old, uint64_t b, uint64_t c, bool global);

// *element = f(*element, *operand, 0, global) for an element of `size` bytes (2, 4 or 8), as one
// atomic read-modify-write: other host threads may combine into the same element.
void combine_atomically(Combine f, uint8_t* element, const uint8_t* operand, unsigned size, bool global);

// The combine function of operation `op` (".add", ".min", ".cas", ...) on type `type` (".u32",
// ".f16x2", ...), or null for a pair no instruction has. `bulk`: for the bulk and tensor
// reductions (cp.reduce.async.bulk{.tensor}), whose .add.f32 keeps subnormals in global memory too.
Combine combine_for(const std::string& op, const std::string& type, bool bulk = false);

}  // namespace ptxvm::numeric
