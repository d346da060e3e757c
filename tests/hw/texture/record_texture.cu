// Records what an sm_90 GPU's texture and surface instructions return for every case of cases.h:
// builds each case's CUDA array (mipmapped array, linear or pitch-linear memory) and its texture
// or surface object with the driver API, runs the case's kernel of texture_kernels.ptx and
// appends a record to OUTDIR/texture.bin (ptxvm's replay runs the same kernels on the same cases).
//
//   nvcc -std=c++17 -O2 -o record_texture record_texture.cu -lcuda
//   ./record_texture texture_kernels.ptx OUTDIR FIRST      (record.sh runs it)
//
// Runs the cases from number FIRST on (texture_cases(), then surface_cases()). A record: uint16
// length, the case's name, uint8 4, uint32 word count, the words (cases.h says which). A launch
// the GPU stops with an error is a record of no words; as the context is then unusable, the
// recorder prints "next N" and exits, and record.sh starts it again at case N. A resource or
// object the driver refuses is a record "<name> refused": the CUresult and the step (1 creating
// the array or memory, 2 filling it, 3 creating the texture or surface object).
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "../driver.h"
#include "cases.h"

namespace tx = ptxvm_hw_texture;

namespace {

std::string g_out;  // OUTDIR/texture.bin

void record(const std::string& name, const std::vector<uint32_t>& words) {
  const uint16_t len = uint16_t(name.size());
  const uint8_t element_bytes = 4;
  const uint32_t n = uint32_t(words.size());
  std::string r;
  r.append(reinterpret_cast<const char*>(&len), 2).append(name);
  r.append(reinterpret_cast<const char*>(&element_bytes), 1)
      .append(reinterpret_cast<const char*>(&n), 4);
  r.append(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  std::ofstream(g_out, std::ios::binary | std::ios::app).write(r.data(), std::streamsize(r.size()));
}

// Copies a level's texels (dense, cases.h's layout) into a CUDA array, or back out of it.
CUresult copy_level(CUarray array, uint8_t* host, const tx::Extent& e, unsigned texel_bytes,
                    bool into_array) {
  CUDA_MEMCPY3D p;
  std::memset(&p, 0, sizeof p);
  const size_t row = size_t(e.width) * texel_bytes;
  if (into_array) {
    p.srcMemoryType = CU_MEMORYTYPE_HOST, p.srcHost = host, p.srcPitch = row, p.srcHeight = e.rows;
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY, p.dstArray = array;
  } else {
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY, p.srcArray = array;
    p.dstMemoryType = CU_MEMORYTYPE_HOST, p.dstHost = host, p.dstPitch = row, p.dstHeight = e.rows;
  }
  p.WidthInBytes = row, p.Height = e.rows, p.Depth = e.slices;
  return cuMemcpy3D(&p);
}

// A case's image on the device and the CUDA_RESOURCE_DESC naming it.
struct Resource {
  CUarray array = nullptr;
  CUmipmappedArray mipmapped = nullptr;
  CUdeviceptr memory = 0;
  CUDA_RESOURCE_DESC desc;
  unsigned failed_step = 0;

  // Creates the image and fills it with `texels`; on failure, failed_step says where.
  CUresult create(const tx::Image& im, std::vector<uint8_t>& texels, size_t alignment) {
    std::memset(&desc, 0, sizeof desc);
    const unsigned tb = tx::texel_bytes(im);
    CUresult r;
    if (im.resource == tx::kResLinear || im.resource == tx::kResPitch2D) {
      const size_t rows = std::max(1u, im.height),
                   pitch = im.resource == tx::kResLinear ? size_t(im.width) * tb : im.pitch;
      failed_step = 1;
      if ((r = cuMemAlloc(&memory, pitch * rows + alignment)) != CUDA_SUCCESS) return r;
      const CUdeviceptr base = (memory + alignment - 1) / alignment * alignment;
      failed_step = 2;
      if ((r = cuMemsetD8(base, 0, pitch * rows)) != CUDA_SUCCESS) return r;
      CUDA_MEMCPY2D p;
      std::memset(&p, 0, sizeof p);
      p.srcMemoryType = CU_MEMORYTYPE_HOST, p.srcHost = texels.data();
      p.dstMemoryType = CU_MEMORYTYPE_DEVICE, p.dstDevice = base, p.dstPitch = pitch;
      p.WidthInBytes = p.srcPitch = size_t(im.width) * tb, p.Height = rows;
      if ((r = cuMemcpy2D(&p)) != CUDA_SUCCESS) return r;
      if (im.resource == tx::kResLinear) {
        desc.resType = CU_RESOURCE_TYPE_LINEAR;
        desc.res.linear.devPtr = base, desc.res.linear.format = CUarray_format(im.format);
        desc.res.linear.numChannels = im.channels, desc.res.linear.sizeInBytes = pitch;
      } else {
        desc.resType = CU_RESOURCE_TYPE_PITCH2D;
        desc.res.pitch2D.devPtr = base, desc.res.pitch2D.format = CUarray_format(im.format);
        desc.res.pitch2D.numChannels = im.channels, desc.res.pitch2D.width = im.width;
        desc.res.pitch2D.height = im.height, desc.res.pitch2D.pitchInBytes = pitch;
      }
      failed_step = 0;
      return CUDA_SUCCESS;
    }
    CUDA_ARRAY3D_DESCRIPTOR d;
    std::memset(&d, 0, sizeof d);
    d.Width = im.width, d.Height = im.height, d.Depth = im.depth;
    d.Format = CUarray_format(im.format), d.NumChannels = im.channels, d.Flags = im.flags;
    failed_step = 1;
    if (im.resource == tx::kResMipmapped) {
      if ((r = cuMipmappedArrayCreate(&mipmapped, &d, im.levels)) != CUDA_SUCCESS) return r;
      desc.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY, desc.res.mipmap.hMipmappedArray = mipmapped;
    } else {
      if ((r = cuArray3DCreate(&array, &d)) != CUDA_SUCCESS) return r;
      desc.resType = CU_RESOURCE_TYPE_ARRAY, desc.res.array.hArray = array;
    }
    failed_step = 2;
    size_t offset = 0;
    for (unsigned l = 0; l < im.levels; ++l) {
      CUarray level = array;
      if (mipmapped && (r = cuMipmappedArrayGetLevel(&level, mipmapped, l)) != CUDA_SUCCESS)
        return r;
      const tx::Extent e = tx::extent(im, l);
      if ((r = copy_level(level, texels.data() + offset, e, tb, true)) != CUDA_SUCCESS) return r;
      offset += size_t(e.width) * e.rows * e.slices * tb;
    }
    failed_step = 0;
    return CUDA_SUCCESS;
  }

  ~Resource() {
    if (array) cuArrayDestroy(array);
    if (mipmapped) cuMipmappedArrayDestroy(mipmapped);
    if (memory) cuMemFree(memory);
  }
};

CUDA_TEXTURE_DESC texture_desc(const tx::Sampler& s) {
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof t);
  for (unsigned i = 0; i < 3; ++i) t.addressMode[i] = CUaddress_mode(s.address[i]);
  t.filterMode = CUfilter_mode(s.filter), t.mipmapFilterMode = CUfilter_mode(s.mip_filter);
  t.flags = s.flags, t.maxAnisotropy = s.max_anisotropy;
  t.mipmapLevelBias = s.level_bias;
  t.minMipmapLevelClamp = s.min_level_clamp, t.maxMipmapLevelClamp = s.max_level_clamp;
  std::memcpy(t.borderColor, s.border, sizeof t.borderColor);
  return t;
}

CUfunction function(CUmodule mod, const std::string& name) {
  static std::map<std::string, CUfunction> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, name.c_str()));
  return cache[name] = fn;
}

// Launches n threads in blocks of 128 and waits: the launch's or the kernel's error.
CUresult launch(CUfunction fn, uint64_t handle, CUdeviceptr coords, CUdeviceptr out, uint32_t n) {
  void* args[] = {&handle, &coords, &out, &n};
  const CUresult r =
      cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr);
  return r != CUDA_SUCCESS ? r : cuCtxSynchronize();
}

const char* error_name(CUresult r) {
  const char* s = "?";
  cuGetErrorName(r, &s);
  return s;
}

// Runs one case; false when a launch failed (the fault is recorded; the context is lost).
bool run(CUmodule mod, size_t index, const std::string& name, const std::string& kernel_name,
         const tx::Image& im, const tx::Sampler* sampler, const std::vector<uint32_t>& in,
         size_t alignment) {
  const tx::Kernel& k = tx::kernel(kernel_name);
  std::vector<uint8_t> texels = tx::texels(im, name);
  Resource res;
  CUresult r = res.create(im, texels, alignment);
  uint64_t handle = 0;
  if (r == CUDA_SUCCESS) {
    if (sampler) {
      const CUDA_TEXTURE_DESC td = texture_desc(*sampler);
      CUtexObject t;
      r = cuTexObjectCreate(&t, &res.desc, &td, nullptr);
      handle = t;
    } else {
      CUsurfObject s;
      r = cuSurfObjectCreate(&s, &res.desc);
      handle = s;
    }
    if (r != CUDA_SUCCESS) res.failed_step = 3;
  }
  if (r != CUDA_SUCCESS) {
    record(name + " refused", {uint32_t(r), res.failed_step});
    std::printf("%zu %s: refused at step %u: %s\n", index, name.c_str(), res.failed_step,
                error_name(r));
    return true;
  }
  const uint32_t n = uint32_t(in.size() / 16);
  const size_t out_words = size_t(n) * k.result_words;
  CUdeviceptr coords, out = 0;
  CHECK(cuMemAlloc(&coords, in.size() * 4));
  CHECK(cuMemcpyHtoD(coords, in.data(), in.size() * 4));
  if (out_words) {
    CHECK(cuMemAlloc(&out, out_words * 4));
    CHECK(cuMemsetD32(out, 0xdeadbeef, out_words));
  }
  const CUfunction fn = function(mod, kernel_name);
  std::vector<uint32_t> words;
  if (!tx::stores(k)) {
    r = launch(fn, handle, coords, out, n);
    if (r == CUDA_SUCCESS) {
      words.resize(out_words);
      CHECK(cuMemcpyDtoH(words.data(), out, out_words * 4));
    }
  } else {  // the surface after each store or reduction
    const size_t bytes = tx::image_bytes(im), padded = (bytes + 3) / 4 * 4;
    std::vector<uint8_t> image(padded, 0);
    for (uint32_t i = 0; i < n; ++i) {
      if ((r = launch(fn, handle, coords + 64 * i, 0, 1)) != CUDA_SUCCESS) break;
      CHECK(copy_level(res.array, image.data(), tx::extent(im, 0), tx::texel_bytes(im), false));
      const size_t at = words.size();
      words.resize(at + padded / 4);
      std::memcpy(words.data() + at, image.data(), padded);
    }
  }
  if (r != CUDA_SUCCESS) {
    record(name, {});
    std::printf("%zu %s: FAULT %s\n", index, name.c_str(), error_name(r));
    return false;
  }
  record(name, words);
  std::printf("%zu %s: %zu words\n", index, name.c_str(), words.size());
  if (sampler)
    CHECK(cuTexObjectDestroy(handle));
  else
    CHECK(cuSurfObjectDestroy(handle));
  CHECK(cuMemFree(coords));
  if (out) CHECK(cuMemFree(out));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: record_texture texture_kernels.ptx outdir first\n");
    return 2;
  }
  CUmodule mod = load_ptx(argv[1]);
  g_out = std::string(argv[2]) + "/texture.bin";
  CUdevice dev;
  CHECK(cuCtxGetDevice(&dev));
  int alignment;
  CHECK(cuDeviceGetAttribute(&alignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, dev));
  const std::vector<tx::TexCase> textures = tx::texture_cases();
  const std::vector<tx::SurfCase> surfaces = tx::surface_cases();
  for (size_t i = std::stoul(argv[3]); i < textures.size() + surfaces.size(); ++i) {
    bool ok;
    if (i < textures.size()) {
      const tx::TexCase& c = textures[i];
      ok = run(mod, i, c.name, c.kernel, c.image, &c.sampler, tx::lookups(c), size_t(alignment));
    } else {
      const tx::SurfCase& c = surfaces[i - textures.size()];
      ok = run(mod, i, c.name, c.kernel, c.image, nullptr, tx::lookups(c), size_t(alignment));
    }
    if (!ok) {
      std::printf("next %zu\n", i + 1);
      return 0;
    }
  }
  return 0;
}
