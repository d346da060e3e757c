// Records samples.ptx's outputs on a GPU: record_samples samples.ptx OUT/samples.bin, records in
// the tma/texture format (uint16 name length, name, uint8 4, uint32 word count, the words).
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include -o record_samples record_samples.cpp -lcuda
#include "samples.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: record_samples samples.ptx OUT.bin\n");
    return 2;
  }
  using namespace ptxvm_hw_texture_samples;
  try {
    SAMPLES_CHECK(cuInit(0));
    CUdevice dev;
    SAMPLES_CHECK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    SAMPLES_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    SAMPLES_CHECK(cuCtxSetCurrent(ctx));
    std::ofstream out(argv[2], std::ios::binary);
    for (const Output& o : run_samples(argv[1])) {
      const uint16_t len = uint16_t(o.name.size());
      const uint8_t eb = 4;
      const uint32_t n = uint32_t(o.words.size());
      out.write(reinterpret_cast<const char*>(&len), 2).write(o.name.data(), len);
      out.write(reinterpret_cast<const char*>(&eb), 1).write(reinterpret_cast<const char*>(&n), 4);
      out.write(reinterpret_cast<const char*>(o.words.data()), std::streamsize(4 * n));
      std::printf("%s: %u words\n", o.name.c_str(), n);
    }
  } catch (const Failure& f) {
    std::fprintf(stderr, "%s\n", f.what.c_str());
    return 1;
  }
  return 0;
}
