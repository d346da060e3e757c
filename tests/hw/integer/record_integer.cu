// Records what an sm_90 GPU writes for the integer and logic instructions of inputs.h's texts():
// each text in the kernel of inputs.h's kernel() (the PTX that tests/sem/integer_hw_test.cpp runs
// on ptxvm), loaded with the driver API over the operands of inputs.h's operands().
//
//   nvcc -O2 -std=c++17 -o record_integer record_integer.cu -lcuda && ./record_integer OUT_DIR
//
// Writes OUT_DIR/integer.bin (record_texts.h's format, result_bytes(text) per result) and
// OUT_DIR/rejected.txt.
#include <cstdio>

#include "../record_texts.h"
#include "inputs.h"

using namespace ptxvm_hw_integer;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: record_integer OUT_DIR\n");
    return 2;
  }
  const Operands o = operands();
  std::vector<uint64_t> in(o.a);
  in.insert(in.end(), o.b.begin(), o.b.end());
  in.insert(in.end(), o.c.begin(), o.c.end());
  return record_texts(argv[1], "integer.bin", texts(), in.data(), in.size() * 8, kCount, kernel, result_bytes);
}
