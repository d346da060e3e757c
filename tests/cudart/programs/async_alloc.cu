// Stream-ordered allocation and memory pools (cudaMallocAsync, cudaMallocFromPoolAsync, pool
// attributes), the driver's entry points through the runtime (cudaGetDriverEntryPoint: CUTLASS's
// way to cuTensorMapEncodeTiled), and a few more runtime calls: cudaMemset2D, cudaMemcpyPeer,
// cudaFuncGetName, cudaDeviceGetPCIBusId.
#include <cuda.h>
#include <cstring>
#include <vector>
#include "check.h"

__global__ void iota(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = i;
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  cuuint64_t threshold = 1 << 20, read = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read));
  EXPECT(read == threshold);
  const int n = 4096;
  int* x;
  CHECK(cudaMallocAsync(&x, n * sizeof(int), s));
  cuuint64_t used = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  EXPECT(used >= n * sizeof(int));
  iota<<<n / 256, 256, 0, s>>>(x, n);
  std::vector<int> h(n);
  CHECK(cudaMemcpyAsync(h.data(), x, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) EXPECT(h[i] == i);
  CHECK(cudaFreeAsync(x, s));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  EXPECT(used == 0);

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  CHECK(cudaMemPoolCreate(&mine, &props));
  int* y;
  CHECK(cudaMallocFromPoolAsync(&y, 1000, mine, s));
  cuuint64_t high = 0;
  CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemHigh, &high));
  EXPECT(high == 1000);
  CHECK(cudaMemset2D(y, 100, 0x7f, 40, 10));
  unsigned char pageable[1000], *back;
  EXPECT(cudaMemcpyPeer(pageable, 0, y, 0, sizeof pageable) == cudaErrorInvalidValue);  // pageable memory: refused
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaMallocHost(&back, 1000));
  CHECK(cudaMemcpyPeer(back, 0, y, 0, 1000));
  for (int row = 0; row < 10; ++row) EXPECT(back[row * 100] == 0x7f && back[row * 100 + 39] == 0x7f);
  CHECK(cudaFreeHost(back));
  CHECK(cudaFreeAsync(y, s));
  CHECK(cudaMemPoolDestroy(mine));

  // The driver's cuTensorMapEncodeTiled through the runtime, as CUTLASS finds it.
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 13000, cudaEnableDefault, &found));
  EXPECT(found == cudaDriverEntryPointSuccess && fn);
  float* tensor;
  CHECK(cudaMalloc(&tensor, 64 * 64 * sizeof(float)));
  CUtensorMap map;
  const cuuint64_t dims[2] = {64, 64}, strides[1] = {64 * sizeof(float)};
  const cuuint32_t box[2] = {32, 8}, steps[2] = {1, 1};
  auto encode = reinterpret_cast<decltype(&cuTensorMapEncodeTiled)>(fn);
  EXPECT(encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tensor, dims, strides, box, steps,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
  CHECK(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 13000, cudaEnableDefault, &found));
  EXPECT(found == cudaDriverEntryPointSymbolNotFound && !fn);

  const char* name = nullptr;
  CHECK(cudaFuncGetName(&name, iota));
  EXPECT(std::strcmp(name, "_Z4iotaPii") == 0);
  char bus[32];
  CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  EXPECT(std::strlen(bus) == 12 && bus[4] == ':' && bus[7] == ':' && bus[10] == '.');
  CHECK(cudaStreamDestroy(s));
  return pass();
}
