// The element types of the matrix instructions by name, and the bits an element takes in its
// register (§9.7.14.2, §9.7.15.3, 001_23fdd5978b24a3ed.txt): shared by mma, wmma and wgmma.
#pragma once

#include <string_view>

#include "mma/arith.h"

namespace ptxvm::mma {

// The type a qualifier names (".f16" -> F16); false for a name that is no matrix element type.
bool type_named(std::string_view qualifier, Type& out);

// Bits an element occupies in its register: fp8/fp6/fp4 operands sit in 8-bit containers
// (§9.7.14.5.14).
unsigned register_bits(Type t);

}  // namespace ptxvm::mma
