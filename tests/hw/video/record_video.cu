// Records what an sm_90 GPU writes for the video instructions of PTX §9.7.18: every text of
// inputs.h's texts(), each in the kernel of inputs.h's kernel() (the PTX that
// tests/sem/video_hw_test.cpp runs on ptxvm), loaded with the driver API over the operands of
// inputs.h's operands().
//
//   nvcc -O2 -std=c++17 -o record_video record_video.cu -lcuda && ./record_video OUT_DIR
//
// Writes OUT_DIR/video.bin (record_texts.h's format, 4 bytes per result) and
// OUT_DIR/rejected.txt.
#include <cstdio>

#include "../record_texts.h"
#include "inputs.h"

using namespace ptxvm_hw_video;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: record_video OUT_DIR\n");
    return 2;
  }
  const Operands o = operands();
  std::vector<uint32_t> in(o.a);
  in.insert(in.end(), o.b.begin(), o.b.end());
  in.insert(in.end(), o.c.begin(), o.c.end());
  return record_texts(argv[1], "video.bin", texts(), in.data(), in.size() * 4, kCount, kernel,
                      [](const std::string&) { return 4; });
}
