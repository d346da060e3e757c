// Runs the kernels of samples.ptx (samples.cu) through the CUDA Driver API on deterministic
// inputs and returns each launch's output words. The recorder (record_samples.cpp, on a GPU's
// driver) and the replay (tests/cuda/texture_samples_test.cpp, on ptxvm's libcuda.so.1) share it.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../splitmix64.h"

namespace ptxvm_hw_texture_samples {

struct Output {
  std::string name;
  std::vector<uint32_t> words;
};

// A failed driver call: its name and result, for the caller to report.
struct Failure {
  std::string what;
};
#define SAMPLES_CHECK(call)                                                                    \
  do {                                                                                         \
    if (CUresult r_ = (call); r_ != CUDA_SUCCESS) throw Failure{#call + std::string(" = ") + std::to_string(r_)}; \
  } while (0)

inline std::vector<uint8_t> random_bytes(uint64_t seed, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t z = ptxvm_hw_seed::splitmix64(seed);
    std::memcpy(v.data() + i, &z, std::min<size_t>(8, n - i));
  }
  return v;
}

// Floats in [0, 1) on a 2^-16 grid.
inline std::vector<float> random_floats(uint64_t seed, size_t n) {
  std::vector<float> v(n);
  for (float& f : v) f = float(ptxvm_hw_seed::splitmix64(seed) & 0xffff) / 65536.0f;
  return v;
}

inline CUarray array3d(size_t w, size_t h, size_t d, CUarray_format f, unsigned channels, unsigned flags,
                       const void* host, size_t texel_bytes) {
  CUDA_ARRAY3D_DESCRIPTOR desc{w, h, d, f, channels, flags};
  CUarray a;
  SAMPLES_CHECK(cuArray3DCreate(&a, &desc));
  CUDA_MEMCPY3D c{};
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = host;
  c.srcPitch = w * texel_bytes;
  c.srcHeight = h ? h : 1;
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = a;
  c.WidthInBytes = w * texel_bytes;
  c.Height = h ? h : 1;
  c.Depth = d ? d : 1;
  SAMPLES_CHECK(cuMemcpy3D(&c));
  return a;
}

inline CUtexObject texture(CUarray a, CUaddress_mode mode, CUfilter_mode filter, unsigned flags) {
  CUDA_RESOURCE_DESC res{};
  res.resType = CU_RESOURCE_TYPE_ARRAY;
  res.res.array.hArray = a;
  CUDA_TEXTURE_DESC td{};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = filter;
  td.flags = flags;
  CUtexObject t;
  SAMPLES_CHECK(cuTexObjectCreate(&t, &res, &td, nullptr));
  return t;
}

inline std::vector<uint32_t> launch(CUmodule m, const char* kernel, unsigned gx, unsigned gy, unsigned bx, unsigned by,
                                    std::vector<void*> args, CUdeviceptr out, size_t words) {
  CUfunction f;
  SAMPLES_CHECK(cuModuleGetFunction(&f, m, kernel));
  SAMPLES_CHECK(cuLaunchKernel(f, gx, gy, 1, bx, by, 1, 0, nullptr, args.data(), nullptr));
  SAMPLES_CHECK(cuCtxSynchronize());
  std::vector<uint32_t> w(words);
  SAMPLES_CHECK(cuMemcpyDtoH(w.data(), out, words * 4));
  return w;
}

// Every sample, in a context that is current.
inline std::vector<Output> run_samples(const std::string& ptx_path) {
  std::ifstream f(ptx_path);
  std::stringstream ss;
  ss << f.rdbuf();
  CUmodule m;
  SAMPLES_CHECK(cuModuleLoadData(&m, ss.str().c_str()));
  std::vector<Output> outs;
  CUdeviceptr out;
  SAMPLES_CHECK(cuMemAlloc(&out, 1 << 20));
  {  // bilinear resize: a 37 x 23 RGBA8 image to 64 x 48
    const std::vector<uint8_t> img = random_bytes(1, 37 * 23 * 4);
    CUarray a = array3d(37, 23, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, img.data(), 4);
    CUtexObject t = texture(a, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES);
    int w = 64, h = 48;
    outs.push_back({"bilinear_resize", launch(m, "bilinear_resize", 4, 6, 16, 8, {&t, &out, &w, &h}, out, w * h)});
    SAMPLES_CHECK(cuTexObjectDestroy(t));
    SAMPLES_CHECK(cuArrayDestroy(a));
  }
  {  // volume ray march: a 17 x 13 x 11 float volume, 32 x 24 rays of 16 steps
    const std::vector<float> vol = random_floats(2, 17 * 13 * 11);
    CUarray a = array3d(17, 13, 11, CU_AD_FORMAT_FLOAT, 1, 0, vol.data(), 4);
    CUtexObject t = texture(a, CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES);
    int w = 32, h = 24, steps = 16;
    outs.push_back({"volume_march", launch(m, "volume_march", 2, 3, 16, 8, {&t, &out, &w, &h, &steps}, out, w * h)});
    SAMPLES_CHECK(cuTexObjectDestroy(t));
    SAMPLES_CHECK(cuArrayDestroy(a));
  }
  {  // layered: 5 layers of 16 x 12 floats, point sampled
    const std::vector<float> tex = random_floats(3, 16 * 12 * 5);
    CUarray a = array3d(16, 12, 5, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED, tex.data(), 4);
    CUtexObject t = texture(a, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
    int w = 16, h = 12, layers = 5;
    outs.push_back({"layered", launch(m, "layered", 1, 2, 16, 8, {&t, &out, &w, &h, &layers}, out, w * h * layers)});
    SAMPLES_CHECK(cuTexObjectDestroy(t));
    SAMPLES_CHECK(cuArrayDestroy(a));
  }
  {  // surface round trip: a 32 x 8 float surface, one block per row
    const std::vector<float> img = random_floats(4, 32 * 8);
    CUarray a = array3d(32, 8, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST, img.data(), 4);
    CUDA_RESOURCE_DESC res{};
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = a;
    CUsurfObject s;
    SAMPLES_CHECK(cuSurfObjectCreate(&s, &res));
    int w = 32, h = 8;
    outs.push_back({"surface_roundtrip", launch(m, "surface_roundtrip", 1, 8, 32, 1, {&s, &out, &w, &h}, out, w * h)});
    SAMPLES_CHECK(cuSurfObjectDestroy(s));
    SAMPLES_CHECK(cuArrayDestroy(a));
  }
  SAMPLES_CHECK(cuMemFree(out));
  SAMPLES_CHECK(cuModuleUnload(m));
  return outs;
}

}  // namespace ptxvm_hw_texture_samples
