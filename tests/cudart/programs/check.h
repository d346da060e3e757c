// What every program here does: stop with a message on a runtime error or a wrong value, print
// PASS when all is well (tests/cudart/CMakeLists.txt runs each over ptxvm's libcudart.so.13).
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    cudaError_t e_ = (call);                                                                          \
    if (e_ != cudaSuccess) {                                                                          \
      std::printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_));           \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

#define EXPECT(cond)                                                                                  \
  do {                                                                                                \
    if (!(cond)) {                                                                                    \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                     \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

inline int pass() {
  std::printf("PASS\n");
  return 0;
}
