// CUDA arrays, texture and surface objects: the runtime's descriptions turned into the driver's
// (cuArray3DCreate, cuMemcpy2D/3D, cuTexObjectCreate, cuSurfObjectCreate), whose enumerations
// for address modes, filter modes and resource types have the same values.
#include <algorithm>
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

}  // namespace

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
                                          size_t width, size_t height, cudaMemcpyKind) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY2D c{};
  c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  c.srcDevice = reinterpret_cast<CUdeviceptr>(src);
  c.srcPitch = spitch;
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = reinterpret_cast<CUarray>(dst);
  c.dstXInBytes = x, c.dstY = y;
  c.WidthInBytes = width, c.Height = height;
  return result(cuMemcpy2D_v2(&c));
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t x, size_t y,
                                            size_t width, size_t height, cudaMemcpyKind) {
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY2D c{};
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = reinterpret_cast<CUarray>(const_cast<cudaArray_t>(src));
  c.srcXInBytes = x, c.srcY = y;
  c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  c.dstDevice = reinterpret_cast<CUdeviceptr>(dst);
  c.dstPitch = dpitch;
  c.WidthInBytes = width, c.Height = height;
  return result(cuMemcpy2D_v2(&c));
}

cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t x, size_t y, const void* src, size_t count,
                                        cudaMemcpyKind kind) {
  return cudaMemcpy2DToArray(dst, x, y, src, count, count, 1, kind);
}

// Widths count elements where an array takes part, bytes otherwise (cudaMemcpy3DParms).
cudaError_t CUDARTAPI cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = ready(); e != cudaSuccess) return e;
  CUDA_MEMCPY3D c{};
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


cudaError_t CUDARTAPI cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t) { return cudaMemcpy3D(p); }

}  // extern "C"
