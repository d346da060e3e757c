// Tensor maps (CUDA Driver API §6.30, PTX §5.5.8): cuTensorMapEncodeTiled/Im2col/Im2colWide and
// cuTensorMapReplaceAddress build ptxvm's 128-byte encoding (units/tma/tensor_map.h) with the
// rules cuda.h states; a map the real driver would refuse is CUDA_ERROR_INVALID_VALUE, with the
// rule on stderr under PTXVM_DRIVER_TRACE.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "driver.h"
#include "units/tma/tensor_map.h"

namespace ptxvm::cuda {
namespace {

using units::tma::TensorMap;

// The fields every encoder takes.
CUresult common(TensorMap& m, CUtensorMapDataType type, cuuint32_t rank, void* address, const cuuint64_t* dims,
                const cuuint64_t* strides, const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  if (!dims || !element_strides || (rank > 1 && !strides) || rank == 0 || rank > 5) return CUDA_ERROR_INVALID_VALUE;
  m.type = units::tma::DataType(type);
  m.rank = rank;
  m.address = reinterpret_cast<uint64_t>(address);
  for (unsigned i = 0; i < rank; ++i) m.dims[i] = dims[i], m.element_strides[i] = element_strides[i];
  for (unsigned i = 0; i + 1 < rank; ++i) m.strides[i] = strides[i];
  m.interleave = units::tma::Interleave(interleave);
  m.swizzle = units::tma::Swizzle(swizzle);
  m.l2 = units::tma::L2Promotion(l2);
  m.oob = units::tma::OobFill(oob);
  return CUDA_SUCCESS;
}

// The map into `out`, or the rule it breaks.
CUresult finish(CUtensorMap* out, const TensorMap& m) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (const std::string why = units::tma::validate(m); !why.empty()) {
    if (const char* trace = std::getenv("PTXVM_DRIVER_TRACE"); trace && *trace == '1')
      std::fprintf(stderr, "ptxvm: tensor map refused: %s\n", why.c_str());
    return CUDA_ERROR_INVALID_VALUE;
  }
  const std::array<uint8_t, 128> bytes = units::tma::encode(m);
  static_assert(sizeof(CUtensorMap) == 128);
  std::memcpy(out, bytes.data(), bytes.size());
  return CUDA_SUCCESS;
}

}  // namespace
}  // namespace ptxvm::cuda

using namespace ptxvm::cuda;

extern "C" {

CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* address,
                                        const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                                        const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                                        CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                                        CUtensorMapFloatOOBfill oob) {
  TensorMap m;
  if (CUresult e = common(m, type, rank, address, dims, strides, element_strides, interleave, swizzle, l2, oob)) return e;
  if (!box) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < rank; ++i) m.box[i] = box[i];
  return finish(map, m);
}

CUresult CUDAAPI cuTensorMapEncodeIm2col(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* address,
                                         const cuuint64_t* dims, const cuuint64_t* strides, const int* lower,
                                         const int* upper, cuuint32_t channels, cuuint32_t pixels,
                                         const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                                         CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                                         CUtensorMapFloatOOBfill oob) {
  TensorMap m;
  if (CUresult e = common(m, type, rank, address, dims, strides, element_strides, interleave, swizzle, l2, oob)) return e;
  if (!lower || !upper || rank < 3) return CUDA_ERROR_INVALID_VALUE;
  m.im2col = true;
  for (unsigned i = 0; i + 2 < rank; ++i) m.lower[i] = lower[i], m.upper[i] = upper[i];
  m.channels = channels;
  m.pixels = pixels;
  return finish(map, m);
}

CUresult CUDAAPI cuTensorMapEncodeIm2colWide(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank,
                                             void* address, const cuuint64_t* dims, const cuuint64_t* strides,
                                             int lower_w, int upper_w, cuuint32_t channels, cuuint32_t pixels,
                                             const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                                             CUtensorMapIm2ColWideMode mode, CUtensorMapSwizzle swizzle,
                                             CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  TensorMap m;
  if (CUresult e = common(m, type, rank, address, dims, strides, element_strides, interleave, swizzle, l2, oob)) return e;
  m.im2col = true;
  m.wide = ptxvm::units::tma::WideMode(mode);
  m.lower[0] = lower_w;
  m.upper[0] = upper_w;
  m.channels = channels;
  m.pixels = pixels;
  return finish(map, m);
}

CUresult CUDAAPI cuTensorMapReplaceAddress(CUtensorMap* map, void* address) {
  if (!map) return CUDA_ERROR_INVALID_VALUE;
  std::optional<TensorMap> m = ptxvm::units::tma::decode(reinterpret_cast<const uint8_t*>(map));
  if (!m) return CUDA_ERROR_INVALID_VALUE;
  m->address = reinterpret_cast<uint64_t>(address);
  return finish(map, *m);
}

}  // extern "C"
