// CUDA arrays, texture and surface objects: the runtime's descriptions turned into the driver's
// (cuArray3DCreate, cuMemcpy2D/3D, cuTexObjectCreate, cuSurfObjectCreate), whose enumerations
// for address modes, filter modes and resource types have the same values.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "runtime.h"

using namespace ptxvm::cudart;

namespace {

// A channel format as the driver names it: element format and channel count.
bool format_of(const cudaChannelFormatDesc& d, CUarray_format* format, unsigned* channels) {
  *channels = unsigned(d.x > 0) + unsigned(d.y > 0) + unsigned(d.z > 0) + unsigned(d.w > 0);
  if (!*channels || (d.y && d.y != d.x) || (d.z && d.z != d.x) || (d.w && d.w != d.x)) return false;
  switch (d.f) {
  case cudaChannelFormatKindSigned:
    *format = d.x == 8 ? CU_AD_FORMAT_SIGNED_INT8 : d.x == 16 ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_SIGNED_INT32;
    return d.x == 8 || d.x == 16 || d.x == 32;
  case cudaChannelFormatKindUnsigned:
    *format = d.x == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 : d.x == 16 ? CU_AD_FORMAT_UNSIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT32;
    return d.x == 8 || d.x == 16 || d.x == 32;
  case cudaChannelFormatKindFloat:
    *format = d.x == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
    return d.x == 16 || d.x == 32;
  default: return false;
  }
}

cudaChannelFormatDesc desc_of(CUarray_format format, unsigned channels) {
  cudaChannelFormatDesc d{};
  int bits = 32;
  d.f = cudaChannelFormatKindFloat;
  switch (format) {
  case CU_AD_FORMAT_SIGNED_INT8: bits = 8, d.f = cudaChannelFormatKindSigned; break;
  case CU_AD_FORMAT_SIGNED_INT16: bits = 16, d.f = cudaChannelFormatKindSigned; break;
  case CU_AD_FORMAT_SIGNED_INT32: d.f = cudaChannelFormatKindSigned; break;
  case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8, d.f = cudaChannelFormatKindUnsigned; break;
  case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16, d.f = cudaChannelFormatKindUnsigned; break;
  case CU_AD_FORMAT_UNSIGNED_INT32: d.f = cudaChannelFormatKindUnsigned; break;
  case CU_AD_FORMAT_HALF: bits = 16; break;
  default: break;
  }
  d.x = bits, d.y = channels > 1 ? bits : 0, d.z = channels > 2 ? bits : 0, d.w = channels > 3 ? bits : 0;
  return d;
}

// The bytes of one element of `array`.
size_t element_bytes(CUarray array) {
  CUDA_ARRAY3D_DESCRIPTOR d{};
  if (cuArray3DGetDescriptor_v2(&d, array) != CUDA_SUCCESS) return 0;
  return size_t(desc_of(d.Format, d.NumChannels).x / 8) * d.NumChannels;
}

// The runtime's resource description as the driver's.
bool resource_of(const cudaResourceDesc& r, CUDA_RESOURCE_DESC& out) {
  std::memset(&out, 0, sizeof out);
  out.resType = static_cast<CUresourcetype>(r.resType);
  switch (r.resType) {
  case cudaResourceTypeArray: out.res.array.hArray = reinterpret_cast<CUarray>(r.res.array.array); return true;
  case cudaResourceTypeMipmappedArray:
    out.res.mipmap.hMipmappedArray = reinterpret_cast<CUmipmappedArray>(r.res.mipmap.mipmap);
    return true;
  case cudaResourceTypeLinear:
    out.res.linear.devPtr = reinterpret_cast<CUdeviceptr>(r.res.linear.devPtr);
    out.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
    return format_of(r.res.linear.desc, &out.res.linear.format, &out.res.linear.numChannels);
  case cudaResourceTypePitch2D:
    out.res.pitch2D.devPtr = reinterpret_cast<CUdeviceptr>(r.res.pitch2D.devPtr);
    out.res.pitch2D.width = r.res.pitch2D.width;
    out.res.pitch2D.height = r.res.pitch2D.height;
    out.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
    return format_of(r.res.pitch2D.desc, &out.res.pitch2D.format, &out.res.pitch2D.numChannels);
  }
  return false;
}

// One side of a copy: an array from (x bytes, y), or memory.
struct Place {
  cudaArray_const_t array;
  CUdeviceptr at = 0;
  size_t x = 0, y = 0;
};

// A copy of `height` rows of `width` bytes, on stream `s` when `async`.
cudaError_t copy_2d(const Place& dst, size_t dpitch, const Place& src, size_t spitch, size_t width, size_t height,
                    cudaMemcpyKind kind, cudaStream_t s, bool async) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY2D c{};
  auto side = [](const Place& p, size_t pitch, CUmemorytype& type, CUarray& array, CUdeviceptr& at, size_t& to_pitch,
                 size_t& x, size_t& y) {
    type = p.array ? CU_MEMORYTYPE_ARRAY : CU_MEMORYTYPE_UNIFIED;
    array = reinterpret_cast<CUarray>(const_cast<cudaArray_t>(p.array));
    at = p.at, to_pitch = pitch, x = p.x, y = p.y;
  };
  side(src, spitch, c.srcMemoryType, c.srcArray, c.srcDevice, c.srcPitch, c.srcXInBytes, c.srcY);
  side(dst, dpitch, c.dstMemoryType, c.dstArray, c.dstDevice, c.dstPitch, c.dstXInBytes, c.dstY);
  c.WidthInBytes = width, c.Height = height;
  return result(async ? cuMemcpy2DAsync_v2(&c, reinterpret_cast<CUstream>(s)) : cuMemcpy2D_v2(&c));
}

// The deprecated copies of `count` bytes to, from and between arrays (cudaMemcpyToArray and its
// kin): the bytes run along an array's row from (x, y) and go on at the start of the next row
// ("starting at hOffset rows and wOffset bytes from the upper left corner"). Each piece within one
// row of each array is one copy.
cudaError_t copy_linear(Place dst, Place src, size_t count, cudaMemcpyKind kind, cudaStream_t s, bool async) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  size_t row[2] = {SIZE_MAX, SIZE_MAX};  // an array's row in bytes: dst's, src's
  for (int i = 0; i < 2; ++i) {
    const Place& p = i ? src : dst;
    if (!p.array) continue;
    CUDA_ARRAY3D_DESCRIPTOR d{};
    if (cudaError_t e = result(cuArray3DGetDescriptor_v2(&d, reinterpret_cast<CUarray>(const_cast<cudaArray_t>(p.array))));
        e != cudaSuccess)
      return e;
    row[i] = d.Width * (desc_of(d.Format, d.NumChannels).x / 8) * d.NumChannels;
    const size_t rows = std::max<size_t>(d.Height, 1);
    if (p.x >= row[i] || p.y >= rows || p.y * row[i] + p.x + count > rows * row[i]) return fail(cudaErrorInvalidValue);
  }
  while (count) {
    const size_t n = std::min({count, row[0] - dst.x, row[1] - src.x});
    if (cudaError_t e = copy_2d(dst, n, src, n, n, 1, kind, s, async); e != cudaSuccess) return e;
    for (int i = 0; i < 2; ++i) {
      Place& p = i ? src : dst;
      if (!p.array) p.at += n;
      else if ((p.x += n) == row[i]) p.x = 0, ++p.y;
    }
    count -= n;
  }
  return cudaSuccess;
}

}  // namespace

namespace ptxvm::cudart {

// Widths and x positions count elements where an array takes part, bytes otherwise
// (cudaMemcpy3DParms) — on both sides: an H200 moves a pitched pointer's srcPos.x by that many of
// the array's elements, though the documentation calls a pointer's element a byte
// (tests/cudart/programs/graph_memcpy3d.cu).
cudaError_t copy_of(const cudaMemcpy3DParms* p, CUDA_MEMCPY3D& c) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (p->kind < cudaMemcpyHostToHost || p->kind > cudaMemcpyDefault) return fail(cudaErrorInvalidMemcpyDirection);
  c = {};
  const size_t element = p->srcArray   ? element_bytes(reinterpret_cast<CUarray>(p->srcArray))
                         : p->dstArray ? element_bytes(reinterpret_cast<CUarray>(p->dstArray))
                                       : 1;
  // one side of the copy: an array, or memory at a pitched pointer
  auto side = [&](cudaArray_t array, const cudaPitchedPtr& at, const cudaPos& pos, CUmemorytype& type, CUarray& to_array,
                  CUdeviceptr& to, size_t& pitch, size_t& height, size_t& x, size_t& y, size_t& z) {
    type = array ? CU_MEMORYTYPE_ARRAY : CU_MEMORYTYPE_UNIFIED;
    to_array = reinterpret_cast<CUarray>(array);
    if (!array) to = reinterpret_cast<CUdeviceptr>(at.ptr), pitch = at.pitch, height = at.ysize;
    x = pos.x * element, y = pos.y, z = pos.z;
  };
  side(p->srcArray, p->srcPtr, p->srcPos, c.srcMemoryType, c.srcArray, c.srcDevice, c.srcPitch, c.srcHeight,
       c.srcXInBytes, c.srcY, c.srcZ);
  side(p->dstArray, p->dstPtr, p->dstPos, c.dstMemoryType, c.dstArray, c.dstDevice, c.dstPitch, c.dstHeight,
       c.dstXInBytes, c.dstY, c.dstZ);
  c.WidthInBytes = p->extent.width * element;
  c.Height = std::max<size_t>(p->extent.height, 1), c.Depth = std::max<size_t>(p->extent.depth, 1);
  return cudaSuccess;
}

void params_of(const CUDA_MEMCPY3D& c, cudaMemcpy3DParms& p) {
  p = {};
  const size_t element = c.srcMemoryType == CU_MEMORYTYPE_ARRAY   ? element_bytes(c.srcArray)
                         : c.dstMemoryType == CU_MEMORYTYPE_ARRAY ? element_bytes(c.dstArray)
                                                                  : 1;
  auto side = [&](CUmemorytype type, CUarray array, CUdeviceptr device, const void* host, size_t pitch, size_t height,
                  size_t x, size_t y, size_t z, cudaArray_t& to_array, cudaPitchedPtr& at, cudaPos& pos) {
    if (type == CU_MEMORYTYPE_ARRAY) to_array = reinterpret_cast<cudaArray_t>(array);
    else at = {type == CU_MEMORYTYPE_HOST ? const_cast<void*>(host) : reinterpret_cast<void*>(device), pitch,
               c.WidthInBytes, height};
    pos = {x / element, y, z};  // as copy_of counts them
  };
  side(c.srcMemoryType, c.srcArray, c.srcDevice, c.srcHost, c.srcPitch, c.srcHeight, c.srcXInBytes, c.srcY, c.srcZ,
       p.srcArray, p.srcPtr, p.srcPos);
  side(c.dstMemoryType, c.dstArray, c.dstDevice, c.dstHost, c.dstPitch, c.dstHeight, c.dstXInBytes, c.dstY, c.dstZ,
       p.dstArray, p.dstPtr, p.dstPos);
  p.extent = {c.WidthInBytes / element, c.Height, c.Depth};
  p.kind = cudaMemcpyDefault;
}

}  // namespace ptxvm::cudart

extern "C" {

cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return {x, y, z, w, f};
}

cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                        unsigned flags) {
  if (!array || !desc) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  if (!format_of(*desc, &d.Format, &d.NumChannels)) return fail(cudaErrorInvalidChannelDescriptor);
  d.Width = extent.width, d.Height = extent.height, d.Depth = extent.depth;
  d.Flags = flags;  // cudaArrayLayered, SurfaceLoadStore, Cubemap, TextureGather: the driver's values
  return result(cuArray3DCreate_v2(reinterpret_cast<CUarray*>(array), &d));
}

cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                                      size_t height, unsigned flags) {
  return cudaMalloc3DArray(array, desc, cudaExtent{width, height, 0}, flags);
}

cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return array ? result(cuArrayDestroy(reinterpret_cast<CUarray>(array))) : cudaSuccess;
}

cudaError_t CUDARTAPI cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags,
                                       cudaArray_t array) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  if (cudaError_t e = result(cuArray3DGetDescriptor_v2(&d, reinterpret_cast<CUarray>(array))); e != cudaSuccess)
    return e;
  if (desc) *desc = desc_of(d.Format, d.NumChannels);
  if (extent) *extent = {d.Width, d.Height, d.Depth};
  if (flags) *flags = d.Flags;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  return cudaArrayGetInfo(desc, nullptr, nullptr, const_cast<cudaArray_t>(array));
}

cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t x, size_t y, const void* src, size_t spitch,
                                          size_t width, size_t height, cudaMemcpyKind kind) {
  return copy_2d({dst, 0, x, y}, 0, {nullptr, CUdeviceptr(src)}, spitch, width, height, kind, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t x, size_t y, const void* src, size_t spitch,
                                               size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t s) {
  return copy_2d({dst, 0, x, y}, 0, {nullptr, CUdeviceptr(src)}, spitch, width, height, kind, s, true);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t x, size_t y,
                                            size_t width, size_t height, cudaMemcpyKind kind) {
  return copy_2d({nullptr, CUdeviceptr(dst)}, dpitch, {src, 0, x, y}, 0, width, height, kind, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t x, size_t y,
                                                 size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t s) {
  return copy_2d({nullptr, CUdeviceptr(dst)}, dpitch, {src, 0, x, y}, 0, width, height, kind, s, true);
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t dx, size_t dy, cudaArray_const_t src, size_t sx,
                                               size_t sy, size_t width, size_t height, cudaMemcpyKind kind) {
  return copy_2d({dst, 0, dx, dy}, 0, {src, 0, sx, sy}, 0, width, height, kind, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t x, size_t y, const void* src, size_t count,
                                        cudaMemcpyKind kind) {
  return copy_linear({dst, 0, x, y}, {nullptr, CUdeviceptr(src)}, count, kind, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t x, size_t y, const void* src, size_t count,
                                             cudaMemcpyKind kind, cudaStream_t s) {
  return copy_linear({dst, 0, x, y}, {nullptr, CUdeviceptr(src)}, count, kind, s, true);
}

cudaError_t CUDARTAPI cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t x, size_t y, size_t count,
                                          cudaMemcpyKind kind) {
  return copy_linear({nullptr, CUdeviceptr(dst)}, {src, 0, x, y}, count, kind, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t x, size_t y, size_t count,
                                               cudaMemcpyKind kind, cudaStream_t s) {
  return copy_linear({nullptr, CUdeviceptr(dst)}, {src, 0, x, y}, count, kind, s, true);
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t dx, size_t dy, cudaArray_const_t src, size_t sx,
                                             size_t sy, size_t count, cudaMemcpyKind kind) {
  return copy_linear({dst, 0, dx, dy}, {src, 0, sx, sy}, count, kind, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_of(p, c); e != cudaSuccess) return e;
  return result(cuMemcpy3D_v2(&c));
}

cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t* object, const cudaResourceDesc* resource,
                                              const cudaTextureDesc* texture, const cudaResourceViewDesc* view) {
  if (!object || !resource || !texture) return fail(cudaErrorInvalidValue);
  if (view) return fail(cudaErrorNotSupported);  // resource views: not in the driver either
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_RESOURCE_DESC r;
  if (!resource_of(*resource, r)) return fail(cudaErrorInvalidChannelDescriptor);
  CUDA_TEXTURE_DESC t{};
  for (int i = 0; i < 3; ++i) t.addressMode[i] = static_cast<CUaddress_mode>(texture->addressMode[i]);
  t.filterMode = static_cast<CUfilter_mode>(texture->filterMode);
  t.flags = (texture->readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0u) |
            (texture->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0u) |
            (texture->sRGB ? CU_TRSF_SRGB : 0u) |
            (texture->disableTrilinearOptimization ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0u) |
            (texture->seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0u);
  t.maxAnisotropy = texture->maxAnisotropy;
  t.mipmapFilterMode = static_cast<CUfilter_mode>(texture->mipmapFilterMode);
  t.mipmapLevelBias = texture->mipmapLevelBias;
  t.minMipmapLevelClamp = texture->minMipmapLevelClamp;
  t.maxMipmapLevelClamp = texture->maxMipmapLevelClamp;
  std::memcpy(t.borderColor, texture->borderColor, sizeof t.borderColor);
  return result(cuTexObjectCreate(object, &r, &t, nullptr));
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t object) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuTexObjectDestroy(object));
}

cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t* object, const cudaResourceDesc* resource) {
  if (!object || !resource) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_RESOURCE_DESC r;
  if (!resource_of(*resource, r)) return fail(cudaErrorInvalidValue);
  return result(cuSurfObjectCreate(object, &r));
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t object) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  return result(cuSurfObjectDestroy(object));
}


cudaError_t CUDARTAPI cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t s) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_of(p, c); e != cudaSuccess) return e;
  return result(cuMemcpy3DAsync_v2(&c, reinterpret_cast<CUstream>(s)));
}

}  // extern "C"
