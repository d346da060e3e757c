// CUDA arrays, 2D/3D copies, texture and surface objects (CUDA Driver API §6.14-6.16, §6.27,
// §6.28) over ptxvm's texture objects (include/ptxvm/texture.h, PTX §5.3). An array is device
// memory laid out as ptxvm's texture unit reads it: texels densely, x fastest, then y, then the
// slice (z, layer or cube face), each mip level after the one before.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>

#include "driver.h"

struct CUarray_st {
  ptxvm::TextureResource resource;  // the level it is: kind Array, address of its texels
  bool owned = true;                // false: a level of a mipmapped array
};

struct CUmipmappedArray_st {
  ptxvm::TextureResource resource;  // kind MipmappedArray
  std::vector<std::unique_ptr<CUarray_st>> levels;
};

namespace ptxvm::cuda {
namespace {

bool known_format(CUarray_format f) {
  switch (f) {
  case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_UNSIGNED_INT32:
  case CU_AD_FORMAT_SIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT32:
  case CU_AD_FORMAT_HALF: case CU_AD_FORMAT_FLOAT: return true;
  default: return false;
  }
}

uint64_t texel_bytes(const TextureResource& r) { return uint64_t(channel_bytes(r.format)) * r.channels; }

// The size of level `l` of `r` (layers and faces keep their count).
TextureResource level_of(const TextureResource& r, uint32_t l) {
  TextureResource v = r;
  v.kind = TextureResource::Kind::Array;
  v.levels = 1;
  v.width = std::max(1u, r.width >> l);
  v.height = r.height ? std::max(1u, r.height >> l) : 0;
  v.depth = r.depth && !(r.layered || r.cubemap) ? std::max(1u, r.depth >> l) : r.depth;
  return v;
}

uint64_t bytes_of(const TextureResource& level) {
  return uint64_t(level.width) * std::max(1u, level.height) * std::max(1u, level.depth) * texel_bytes(level);
}

// The resource of a CUDA_ARRAY3D_DESCRIPTOR, or an error.
CUresult describe(const CUDA_ARRAY3D_DESCRIPTOR& d, uint32_t levels, TextureResource& r) {
  if (!known_format(d.Format) || (d.NumChannels != 1 && d.NumChannels != 2 && d.NumChannels != 4) || d.Width == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (d.Flags & ~unsigned(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER))
    return CUDA_ERROR_NOT_SUPPORTED;  // depth textures, sparse and deferred-mapping arrays
  r.kind = levels > 1 ? TextureResource::Kind::MipmappedArray : TextureResource::Kind::Array;
  r.format = ChannelFormat(d.Format);
  r.channels = uint8_t(d.NumChannels);
  r.width = uint32_t(d.Width), r.height = uint32_t(d.Height), r.depth = uint32_t(d.Depth);
  r.layered = d.Flags & CUDA_ARRAY3D_LAYERED;
  r.cubemap = d.Flags & CUDA_ARRAY3D_CUBEMAP;
  r.surface = d.Flags & CUDA_ARRAY3D_SURFACE_LDST;
  r.levels = levels;
  if (r.cubemap && (r.width != r.height || r.depth == 0 || r.depth % 6)) return CUDA_ERROR_INVALID_VALUE;
  if (r.layered && r.depth == 0) return CUDA_ERROR_INVALID_VALUE;
  if (r.kind == TextureResource::Kind::MipmappedArray && levels > 32) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

// A new array's texels in device memory, all levels.
CUresult place(TextureResource& r) {
  uint64_t total = 0;
  for (uint32_t l = 0; l < r.levels; ++l) total += bytes_of(level_of(r, l));
  CUdeviceptr at;
  if (CUresult e = allocate(&at, total)) return e;
  r.address = at;
  r.bytes = total;
  return CUDA_SUCCESS;
}

// One side of a 2D/3D copy: where its (x in bytes, y, z) origin is and its row and slice pitches.
struct Side {
  uint8_t* base = nullptr;
  uint64_t pitch = 0, slice = 0;
};

CUresult side(CUmemorytype type, const void* host, CUdeviceptr device, CUarray array, size_t pitch, size_t height,
              size_t x, size_t y, size_t z, uint64_t rows, uint64_t slices, uint64_t width_bytes, Side& s) {
  if (type == CU_MEMORYTYPE_ARRAY) {
    if (!array) return CUDA_ERROR_INVALID_VALUE;
    const TextureResource& r = array->resource;
    pitch = size_t(uint64_t(r.width) * texel_bytes(r));
    height = std::max(1u, r.height);
    if (x + width_bytes > pitch || y + rows > height || z + slices > std::max(1u, r.depth)) return CUDA_ERROR_INVALID_VALUE;
    device = r.address;
  } else if (pitch == 0) {
    pitch = width_bytes;
  }
  if (height == 0) height = y + rows;
  s.pitch = pitch;
  s.slice = uint64_t(pitch) * height;
  const uint64_t offset = z * s.slice + y * pitch + x;
  const uint64_t span = (slices - 1) * s.slice + (rows - 1) * pitch + width_bytes;
  if (type == CU_MEMORYTYPE_HOST) {
    s.base = static_cast<uint8_t*>(const_cast<void*>(host)) + offset;
  } else {  // device, array, or unified: a device allocation, or host memory at its own address
    const uint64_t at = (type == CU_MEMORYTYPE_UNIFIED && host ? reinterpret_cast<uint64_t>(host) : device) + offset;
    void* p = device_bytes(at, span);
    s.base = static_cast<uint8_t*>(p ? p : (type == CU_MEMORYTYPE_UNIFIED ? reinterpret_cast<void*>(at) : nullptr));
  }
  return s.base ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult copy3d(const CUDA_MEMCPY3D& c) {
  if (CUresult r = ready()) return r;
  if (c.srcLOD || c.dstLOD) return CUDA_ERROR_INVALID_VALUE;  // cuMemcpy3D: must be 0
  const uint64_t rows = std::max<size_t>(c.Height, 1), slices = std::max<size_t>(c.Depth, 1);
  if (c.WidthInBytes == 0) return CUDA_SUCCESS;
  Side src, dst;
  if (CUresult e = side(c.srcMemoryType, c.srcHost, c.srcDevice, c.srcArray, c.srcPitch, c.srcHeight, c.srcXInBytes,
                        c.srcY, c.srcZ, rows, slices, c.WidthInBytes, src))
    return e;
  if (CUresult e = side(c.dstMemoryType, c.dstHost, c.dstDevice, c.dstArray, c.dstPitch, c.dstHeight, c.dstXInBytes,
                        c.dstY, c.dstZ, rows, slices, c.WidthInBytes, dst))
    return e;
  for (uint64_t z = 0; z < slices; ++z)
    for (uint64_t y = 0; y < rows; ++y)
      std::memmove(dst.base + z * dst.slice + y * dst.pitch, src.base + z * src.slice + y * src.pitch, c.WidthInBytes);
  return CUDA_SUCCESS;
}

CUDA_MEMCPY3D from_2d(const CUDA_MEMCPY2D& c) {
  CUDA_MEMCPY3D m{};
  m.srcXInBytes = c.srcXInBytes, m.srcY = c.srcY, m.srcMemoryType = c.srcMemoryType, m.srcHost = c.srcHost;
  m.srcDevice = c.srcDevice, m.srcArray = c.srcArray, m.srcPitch = c.srcPitch;
  m.dstXInBytes = c.dstXInBytes, m.dstY = c.dstY, m.dstMemoryType = c.dstMemoryType, m.dstHost = c.dstHost;
  m.dstDevice = c.dstDevice, m.dstArray = c.dstArray, m.dstPitch = c.dstPitch;
  m.WidthInBytes = c.WidthInBytes, m.Height = c.Height, m.Depth = 1;
  return m;
}

// ptxvm's sampler from CUDA's texture descriptor.
TextureSampler sampler_of(const CUDA_TEXTURE_DESC& t) {
  TextureSampler s;
  for (unsigned i = 0; i < 3; ++i) s.address[i] = AddressMode(t.addressMode[i]);
  s.filter = FilterMode(t.filterMode);
  s.mipmap_filter = FilterMode(t.mipmapFilterMode);
  s.read_as_integer = t.flags & CU_TRSF_READ_AS_INTEGER;
  s.normalized_coordinates = t.flags & CU_TRSF_NORMALIZED_COORDINATES;
  s.srgb = t.flags & CU_TRSF_SRGB;
  s.seamless_cubemap = t.flags & CU_TRSF_SEAMLESS_CUBEMAP;
  s.exact_trilinear = t.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
  for (unsigned i = 0; i < 4; ++i) s.border_color[i] = t.borderColor[i];
  s.max_anisotropy = t.maxAnisotropy;
  s.mipmap_level_bias = t.mipmapLevelBias;
  s.min_mipmap_level_clamp = t.minMipmapLevelClamp;
  s.max_mipmap_level_clamp = t.maxMipmapLevelClamp;
  return s;
}

// ptxvm's resource from CUDA's resource descriptor.
CUresult resource_of(const CUDA_RESOURCE_DESC& d, TextureResource& r) {
  switch (d.resType) {
  case CU_RESOURCE_TYPE_ARRAY:
    if (!d.res.array.hArray) return CUDA_ERROR_INVALID_HANDLE;
    r = d.res.array.hArray->resource;
    return CUDA_SUCCESS;
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    if (!d.res.mipmap.hMipmappedArray) return CUDA_ERROR_INVALID_HANDLE;
    r = d.res.mipmap.hMipmappedArray->resource;
    return CUDA_SUCCESS;
  case CU_RESOURCE_TYPE_LINEAR:
    if (!known_format(d.res.linear.format)) return CUDA_ERROR_INVALID_VALUE;
    r.kind = TextureResource::Kind::Linear;
    r.format = ChannelFormat(d.res.linear.format);
    r.channels = uint8_t(d.res.linear.numChannels);
    r.address = d.res.linear.devPtr;
    r.bytes = d.res.linear.sizeInBytes;
    r.width = uint32_t(r.bytes / std::max<uint64_t>(texel_bytes(r), 1));
    return CUDA_SUCCESS;
  case CU_RESOURCE_TYPE_PITCH2D:
    if (!known_format(d.res.pitch2D.format)) return CUDA_ERROR_INVALID_VALUE;
    r.kind = TextureResource::Kind::Pitch2D;
    r.format = ChannelFormat(d.res.pitch2D.format);
    r.channels = uint8_t(d.res.pitch2D.numChannels);
    r.address = d.res.pitch2D.devPtr;
    r.width = uint32_t(d.res.pitch2D.width), r.height = uint32_t(d.res.pitch2D.height);
    r.pitch = d.res.pitch2D.pitchInBytes;
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

// What each texture or surface object was made from, for cuTexObjectGet*Desc.
struct Made {
  CUDA_RESOURCE_DESC resource;
  CUDA_TEXTURE_DESC texture;
};
std::map<unsigned long long, Made>& made() {
  static std::map<unsigned long long, Made> m;
  return m;
}

template <typename Create>
CUresult object(unsigned long long* out, Create create) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  try {
    std::lock_guard lock(driver().mutex);
    *out = create(driver().device);
  } catch (const std::invalid_argument&) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult destroy_object(unsigned long long handle) {
  try {
    std::lock_guard lock(driver().mutex);
    driver().device.destroy_object(handle);
    made().erase(handle);
  } catch (const std::invalid_argument&) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

}  // namespace
}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;
using ptxvm::TextureResource;

extern "C" {

CUresult CUDAAPI cuArray3DCreate_v2(CUarray* out, const CUDA_ARRAY3D_DESCRIPTOR* d) {
  if (!out || !d) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  auto a = std::make_unique<CUarray_st>();
  if (CUresult e = describe(*d, 1, a->resource)) return e;
  if (CUresult e = place(a->resource)) return e;
  *out = a.release();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuArrayCreate_v2(CUarray* out, const CUDA_ARRAY_DESCRIPTOR* d) {
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  const CUDA_ARRAY3D_DESCRIPTOR d3{d->Width, d->Height, 0, d->Format, d->NumChannels, 0};
  return cuArray3DCreate_v2(out, &d3);
}

CUresult CUDAAPI cuArrayDestroy(CUarray a) {
  if (!a || !a->owned) return CUDA_ERROR_INVALID_HANDLE;
  const CUresult r = release(a->resource.address);
  delete a;
  return r;
}

CUresult CUDAAPI cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR* d, CUarray a) {
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  if (!a) return CUDA_ERROR_INVALID_HANDLE;
  const TextureResource& r = a->resource;
  *d = {r.width, r.height, r.depth, CUarray_format(r.format), r.channels,
        (r.layered ? unsigned(CUDA_ARRAY3D_LAYERED) : 0u) | (r.cubemap ? unsigned(CUDA_ARRAY3D_CUBEMAP) : 0u) |
            (r.surface ? unsigned(CUDA_ARRAY3D_SURFACE_LDST) : 0u)};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR* d, CUarray a) {
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  CUDA_ARRAY3D_DESCRIPTOR d3;
  if (CUresult e = cuArray3DGetDescriptor_v2(&d3, a)) return e;
  if (d3.Depth) return CUDA_ERROR_INVALID_VALUE;  // a 3D array: cuArray3DGetDescriptor's
  *d = {d3.Width, d3.Height, d3.Format, d3.NumChannels};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray* out, const CUDA_ARRAY3D_DESCRIPTOR* d, unsigned levels) {
  if (!out || !d || levels == 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ready()) return r;
  auto m = std::make_unique<CUmipmappedArray_st>();
  if (CUresult e = describe(*d, levels, m->resource)) return e;
  if (CUresult e = place(m->resource)) return e;
  uint64_t offset = 0;
  for (uint32_t l = 0; l < levels; ++l) {
    auto level = std::make_unique<CUarray_st>();
    level->resource = level_of(m->resource, l);
    level->resource.address = m->resource.address + offset;
    level->resource.bytes = bytes_of(level->resource);
    level->owned = false;
    offset += level->resource.bytes;
    m->levels.push_back(std::move(level));
  }
  *out = m.release();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMipmappedArrayGetLevel(CUarray* out, CUmipmappedArray m, unsigned level) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (!m) return CUDA_ERROR_INVALID_HANDLE;
  if (level >= m->levels.size()) return CUDA_ERROR_INVALID_VALUE;
  *out = m->levels[level].get();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray m) {
  if (!m) return CUDA_ERROR_INVALID_HANDLE;
  const CUresult r = release(m->resource.address);
  delete m;
  return r;
}

CUresult CUDAAPI cuMemcpy3D_v2(const CUDA_MEMCPY3D* c) { return c ? copy3d(*c) : CUDA_ERROR_INVALID_VALUE; }
CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* c, CUstream) { return cuMemcpy3D_v2(c); }
CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D* c) { return c ? copy3d(from_2d(*c)) : CUDA_ERROR_INVALID_VALUE; }
CUresult CUDAAPI cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* c) { return cuMemcpy2D_v2(c); }
CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* c, CUstream) { return cuMemcpy2D_v2(c); }

CUresult CUDAAPI cuMemcpyHtoA_v2(CUarray dst, size_t offset, const void* src, size_t n) {
  if (!dst) return CUDA_ERROR_INVALID_HANDLE;
  if (offset + n > dst->resource.bytes) return CUDA_ERROR_INVALID_VALUE;
  return cuMemcpyHtoD_v2(dst->resource.address + offset, src, n);
}
CUresult CUDAAPI cuMemcpyAtoH_v2(void* dst, CUarray src, size_t offset, size_t n) {
  if (!src) return CUDA_ERROR_INVALID_HANDLE;
  if (offset + n > src->resource.bytes) return CUDA_ERROR_INVALID_VALUE;
  return cuMemcpyDtoH_v2(dst, src->resource.address + offset, n);
}

// Arrays and linear memory: byte offsets into the array's texels, which lie densely in device
// memory (cuMemcpyDtoA, cuMemcpyAtoD, cuMemcpyAtoA; the asynchronous forms run at once).
CUresult CUDAAPI cuMemcpyDtoA_v2(CUarray dst, size_t offset, CUdeviceptr src, size_t n) {
  if (!dst) return CUDA_ERROR_INVALID_HANDLE;
  if (offset + n > dst->resource.bytes) return CUDA_ERROR_INVALID_VALUE;
  return cuMemcpyDtoD_v2(dst->resource.address + offset, src, n);
}
CUresult CUDAAPI cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t offset, size_t n) {
  if (!src) return CUDA_ERROR_INVALID_HANDLE;
  if (offset + n > src->resource.bytes) return CUDA_ERROR_INVALID_VALUE;
  return cuMemcpyDtoD_v2(dst, src->resource.address + offset, n);
}
CUresult CUDAAPI cuMemcpyAtoA_v2(CUarray dst, size_t dst_offset, CUarray src, size_t src_offset, size_t n) {
  if (!dst || !src) return CUDA_ERROR_INVALID_HANDLE;
  if (src_offset + n > src->resource.bytes) return CUDA_ERROR_INVALID_VALUE;
  return cuMemcpyDtoA_v2(dst, dst_offset, src->resource.address + src_offset, n);
}
CUresult CUDAAPI cuMemcpyHtoAAsync_v2(CUarray dst, size_t offset, const void* src, size_t n, CUstream) {
  return cuMemcpyHtoA_v2(dst, offset, src, n);
}
CUresult CUDAAPI cuMemcpyAtoHAsync_v2(void* dst, CUarray src, size_t offset, size_t n, CUstream) {
  return cuMemcpyAtoH_v2(dst, src, offset, n);
}

CUresult CUDAAPI cuTexObjectCreate(CUtexObject* out, const CUDA_RESOURCE_DESC* res, const CUDA_TEXTURE_DESC* tex,
                                   const CUDA_RESOURCE_VIEW_DESC* view) {
  if (!res || !tex) return CUDA_ERROR_INVALID_VALUE;
  if (view) return CUDA_ERROR_NOT_SUPPORTED;  // resource views: not modelled
  TextureResource r;
  if (CUresult e = resource_of(*res, r)) return e;
  const CUresult e = object(out, [&](ptxvm::Device& d) { return d.create_texture(r, sampler_of(*tex)); });
  if (e == CUDA_SUCCESS) made()[*out] = {*res, *tex};
  return e;
}
CUresult CUDAAPI cuTexObjectDestroy(CUtexObject t) { return destroy_object(t); }

CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC* res, CUtexObject t) {
  std::lock_guard lock(driver().mutex);
  auto it = made().find(t);
  if (!res || it == made().end()) return CUDA_ERROR_INVALID_VALUE;
  *res = it->second.resource;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC* tex, CUtexObject t) {
  std::lock_guard lock(driver().mutex);
  auto it = made().find(t);
  if (!tex || it == made().end()) return CUDA_ERROR_INVALID_VALUE;
  *tex = it->second.texture;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC* res, CUsurfObject s) {
  return cuTexObjectGetResourceDesc(res, s);
}

CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject* out, const CUDA_RESOURCE_DESC* res) {
  if (!res) return CUDA_ERROR_INVALID_VALUE;
  if (res->resType != CU_RESOURCE_TYPE_ARRAY) return CUDA_ERROR_INVALID_VALUE;  // surfaces bind arrays
  TextureResource r;
  if (CUresult e = resource_of(*res, r)) return e;
  if (!r.surface) return CUDA_ERROR_INVALID_VALUE;  // made without CUDA_ARRAY3D_SURFACE_LDST
  const CUresult e = object(out, [&](ptxvm::Device& d) { return d.create_surface(r); });
  if (e == CUDA_SUCCESS) made()[*out] = {*res, {}};
  return e;
}
CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject s) { return destroy_object(s); }

}  // extern "C"
