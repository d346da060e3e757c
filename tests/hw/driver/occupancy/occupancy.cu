// What the real driver answers to cuOccupancyAvailableDynamicSMemPerBlock,
// cuOccupancyMaxActiveClusters and cuOccupancyMaxActiveBlocksPerMultiprocessor, and the local
// memory it gives kernels with local arrays (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
// (tests/cuda/driver_api_test.cpp holds ptxvm's driver to it):
//   nvcc -arch=sm_90 -o /tmp/occ occupancy.cu -lcuda && /tmp/occ > answers.txt
// and its PTX, which the test loads: nvcc -arch=sm_90 -ptx -o occupancy.sm_90.ptx occupancy.cu
#include <cuda.h>

#include <cstdio>

__global__ void none(int* p) { p[threadIdx.x] = 1; }
__global__ void static_4k(int* p) {
  __shared__ int s[1024];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = s[1023 - threadIdx.x];
}

// Local arrays indexed at run time live in local memory: the kernel's own, and a device
// function's that is not inlined.
__global__ void local_400(int* p) {
  int buf[100];
  for (int i = 0; i < 100; ++i) buf[i] = p[i] * i;
  p[threadIdx.x] = buf[p[threadIdx.x] % 100];
}
__device__ __noinline__ int callee_256(const int* p, int k) {
  int buf[64];
  for (int i = 0; i < 64; ++i) buf[i] = p[i] + k;
  return buf[p[k] % 64];
}
__global__ void local_via_call(int* p) { p[threadIdx.x] = callee_256(p, threadIdx.x); }
__global__ void local_both(int* p) {
  int buf[20];
  for (int i = 0; i < 20; ++i) buf[i] = p[i];
  p[threadIdx.x] = buf[p[threadIdx.x] % 20] + callee_256(p, threadIdx.x);
}

// __constant__ memory: CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES of kernels that read 400 and 40 bytes of
// it, and of one that reads none.
__constant__ float table_400[100];
__constant__ int table_40[10];
__global__ void const_400(int* p) { p[threadIdx.x] = int(table_400[p[threadIdx.x] % 100]); }
__global__ void const_40(int* p) { p[threadIdx.x] = table_40[p[threadIdx.x] % 10]; }

int main() {
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  CUcontext ctx;
  cuDevicePrimaryCtxRetain(&ctx, dev);
  cuCtxSetCurrent(ctx);
  char name[128];
  cuDeviceGetName(name, sizeof name, dev);
  int sms;
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  std::printf("device %s sms %d\n", name, sms);
  CUfunction fns[2];
  cudaGetFuncBySymbol(&fns[0], reinterpret_cast<const void*>(none));
  cudaGetFuncBySymbol(&fns[1], reinterpret_cast<const void*>(static_4k));
  const char* names[2] = {"none", "static_4k"};
  for (int k = 0; k < 2; ++k)
    for (int threads : {32, 128, 256, 1024})
      for (int dynamic : {0, 1024, 8192, 29184, 32768, 49152, 65536}) {
        int blocks = -1;
        const CUresult r = cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fns[k], threads, size_t(dynamic));
        std::printf("blocks %s threads %d dynamic %d -> %d %d\n", names[k], threads, dynamic, int(r), blocks);
      }
  const void* locals[6] = {reinterpret_cast<const void*>(local_400), reinterpret_cast<const void*>(local_via_call),
                           reinterpret_cast<const void*>(local_both), reinterpret_cast<const void*>(const_400),
                           reinterpret_cast<const void*>(const_40), reinterpret_cast<const void*>(none)};
  const char* local_names[6] = {"local_400", "local_via_call", "local_both", "const_400", "const_40", "none"};
  for (int k = 0; k < 6; ++k) {
    CUfunction f;
    cudaGetFuncBySymbol(&f, locals[k]);
    int local = -1, constant = -1;
    cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
    cuFuncGetAttribute(&constant, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, f);
    std::printf("local %s -> %d const %d\n", local_names[k], local, constant);
  }
  for (int k = 0; k < 2; ++k) {
    for (int blocks : {1, 2, 3, 4, 8, 16, 32})
      for (int threads : {32, 128, 1024}) {
        size_t bytes = 0;
        const CUresult r = cuOccupancyAvailableDynamicSMemPerBlock(&bytes, fns[k], blocks, threads);
        std::printf("avail %s blocks %d threads %d -> %d %zu\n", names[k], blocks, threads, int(r), bytes);
      }
    for (unsigned c : {1u, 2u, 4u, 8u, 16u})
      for (unsigned threads : {128u, 1024u}) {
        CUlaunchAttribute a{};
        a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        a.value.clusterDim.x = c, a.value.clusterDim.y = 1, a.value.clusterDim.z = 1;
        CUlaunchConfig cfg{};
        cfg.gridDimX = c, cfg.gridDimY = 1, cfg.gridDimZ = 1, cfg.blockDimX = threads, cfg.blockDimY = 1, cfg.blockDimZ = 1;
        cfg.attrs = &a, cfg.numAttrs = 1;
        if (c == 16) cuFuncSetAttribute(fns[k], CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
        int clusters = -1;
        const CUresult r = cuOccupancyMaxActiveClusters(&clusters, fns[k], &cfg);
        std::printf("clusters %s size %u threads %u -> %d %d\n", names[k], c, threads, int(r), clusters);
      }
  }
  return 0;
}
