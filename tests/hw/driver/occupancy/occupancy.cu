// What the real driver answers to cuOccupancyAvailableDynamicSMemPerBlock and
// cuOccupancyMaxActiveClusters (tests/cuda/driver_api_test.cpp holds ptxvm's driver to it):
//   nvcc -o /tmp/occ occupancy.cu -lcuda && /tmp/occ > answers.txt
#include <cuda.h>

#include <cstdio>

__global__ void none(int* p) { p[threadIdx.x] = 1; }
__global__ void static_4k(int* p) {
  __shared__ int s[1024];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = s[1023 - threadIdx.x];
}

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
