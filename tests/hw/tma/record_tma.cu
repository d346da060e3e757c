// Records what an sm_90a GPU's TMA does for every text of texts.inc: builds each tensor map with
// cuTensorMapEncodeTiled, runs the text's kernel of tma_kernels.ptx once per coordinate set and
// writes the recorded words (tests/units/tma_hw_test.cpp replays them on ptxvm).
//
//   nvcc -O2 -std=c++17 -o record_tma record_tma.cu -lcuda
//   for each text i and coordinate set s: ./record_tma tma_kernels.ptx out/ i s
//
// Each launch runs in a process of its own (a TMA fault leaves the context unusable) and appends
// to out/tma.bin a record: uint16 length, "<set> <name>", uint8 4, uint32 word count, the words; a
// launch the GPU stops with an error is a record of no words, a map the encoder refuses one of word
// size 0.
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../driver.h"
#include "texts.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: record_tma tma_kernels.ptx outdir text set\n");
    return 2;
  }
  const unsigned only = unsigned(std::stoul(argv[3])), only_set = unsigned(std::stoul(argv[4]));
  CUmodule mod = load_ptx(argv[1]);
  // One record: uint16 length, "<set> <name>", uint8 word bytes (0: cuTensorMapEncode* refused the
  // map), uint32 word count, the words.
  auto record = [&](const std::string& name, uint8_t eb, const std::vector<uint32_t>& words) {
    const uint16_t len = uint16_t(name.size());
    const uint32_t n = uint32_t(words.size());
    std::string file;
    file.append(reinterpret_cast<const char*>(&len), 2).append(name);
    file.append(reinterpret_cast<const char*>(&eb), 1).append(reinterpret_cast<const char*>(&n), 4);
    file.append(reinterpret_cast<const char*>(words.data()), words.size() * 4);
    std::ofstream(std::string(argv[2]) + "/tma.bin", std::ios::binary | std::ios::app).write(file.data(), std::streamsize(file.size()));
  };
  {
    const ptxvm_hw_tma::Text& t = ptxvm_hw_tma::kTexts[only];
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, t.kernel));
    for (unsigned set = only_set; set == only_set; ++set) {
      const std::vector<uint32_t> image = ptxvm_hw_tma::tensor_image(t), source = ptxvm_hw_tma::shared_source(t);
      CUdeviceptr tensor, in, out;
      const size_t out_n = ptxvm_hw_tma::out_words(t);
      CHECK(cuMemAlloc(&tensor, image.size() * 4));
      CHECK(cuMemAlloc(&in, source.size() * 4));
      CHECK(cuMemAlloc(&out, out_n * 4));
      CHECK(cuMemcpyHtoD(tensor, image.data(), image.size() * 4));
      CHECK(cuMemcpyHtoD(in, source.data(), source.size() * 4));
      CHECK(cuMemsetD32(out, 0xdeadbeef, out_n));
      CUtensorMap map;
      cuuint64_t dims[5], strides[4];
      cuuint32_t box[5], es[5];
      for (unsigned i = 0; i < 5; ++i) dims[i] = t.dims[i], box[i] = t.box[i], es[i] = t.element_strides[i];
      for (unsigned i = 0; i < 4; ++i) strides[i] = t.strides[i];
      CUresult encoded;
      if (t.dir == 'I')
        encoded = (cuTensorMapEncodeIm2col(&map, CUtensorMapDataType(t.type), t.rank, reinterpret_cast<void*>(tensor), dims,
                                      strides, t.lower, t.upper, t.channels, t.pixels, es, CUtensorMapInterleave(t.interleave),
                                      CUtensorMapSwizzle(t.swizzle), CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                      CUtensorMapFloatOOBfill(t.oob)));
      else
        encoded = (cuTensorMapEncodeTiled(&map, CUtensorMapDataType(t.type), t.rank, reinterpret_cast<void*>(tensor), dims,
                                     strides, box, es, CUtensorMapInterleave(t.interleave), CUtensorMapSwizzle(t.swizzle),
                                     CU_TENSOR_MAP_L2_PROMOTION_NONE, CUtensorMapFloatOOBfill(t.oob)));
      const std::string name = std::to_string(set) + " " + t.name;
      if (encoded != CUDA_SUCCESS) {
        record(name, 0, {});
        std::printf("%s: REFUSED by the encoder (%d)\n", name.c_str(), int(encoded));
        return 0;
      }
      int c[5];
      for (unsigned i = 0; i < 5; ++i) c[i] = t.coords[set][i];
      unsigned short o[3];
      for (unsigned i = 0; i < 3; ++i) o[i] = static_cast<unsigned short>(t.offsets[set][i]);
      void* args[] = {&map, &in, &out, &c[0], &c[1], &c[2], &c[3], &c[4], &o[0], &o[1], &o[2]};
      CHECK(cuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
      const CUresult run = cuCtxSynchronize();
      std::vector<uint32_t> got(out_n);
      if (run != CUDA_SUCCESS) {
        const char* why;
        cuGetErrorString(run, &why);
        record(name, 4, {});
        std::printf("%s: FAULT %s\n", name.c_str(), why);
        return 0;
      }
      if (ptxvm_hw_tma::loads(t)) CHECK(cuMemcpyDtoH(got.data(), out, out_n * 4));
      else CHECK(cuMemcpyDtoH(got.data(), tensor, out_n * 4));
      CHECK(cuMemFree(tensor));
      CHECK(cuMemFree(in));
      CHECK(cuMemFree(out));
      record(name, 4, got);
      std::printf("%s: %s\n", name.c_str(), ptxvm_hw_tma::loads(t) ? (got[ptxvm_hw_tma::compared_words(t) - 1] == 1 ? "completed" : "NOT COMPLETED") : "stored");
    }
  }
  return 0;
}
