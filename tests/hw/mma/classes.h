// The instruction texts of classes.inc as a table: shared by record_mma.cu and
// tests/sem/mma_hw_test.cpp.
#pragma once

namespace ptxvm_hw_mma {

struct Class {
  const char* kernel;  // in mma_kernels.ptx
  const char* text;
  char tmpl;           // R, L, W or S (gen_kernels.py)
  unsigned in_words, out_words, block_words;
  const char* operands;
  const char* dtype;
};

#define X(k, t, tm, in, out, blk, ops, dt) {k, t, tm, in, out, blk, ops, dt},
inline constexpr Class kClasses[] = {
#include "classes.inc"
};
#undef X

}  // namespace ptxvm_hw_mma
