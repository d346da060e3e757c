// The deviceQuery sample's questions: devices, properties, attributes, versions.
#include <cstring>
#include "check.h"

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  EXPECT(count >= 1);
  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  EXPECT(driver >= 13000 && runtime >= 13000);
  CHECK(cudaSetDevice(0));
  int device = -1;
  CHECK(cudaGetDevice(&device));
  EXPECT(device == 0);
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  EXPECT(std::strlen(p.name) > 0);
  EXPECT(p.warpSize == 32 && p.maxThreadsPerBlock == 1024 && p.maxThreadsDim[0] == 1024);
  EXPECT(p.major * 10 + p.minor >= 70 && p.multiProcessorCount > 0 && p.totalGlobalMem > 0);
  EXPECT(p.sharedMemPerBlock == 48 * 1024 && p.sharedMemPerBlockOptin > p.sharedMemPerBlock);
  int major = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  EXPECT(major == p.major && sms == p.multiProcessorCount);
  EXPECT(cudaSetDevice(count) == cudaErrorInvalidDevice);
  EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
  EXPECT(cudaGetLastError() == cudaSuccess);
  size_t free_bytes = 0, total = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total));
  EXPECT(total > 0 && free_bytes <= total);
  std::printf("%s, compute capability %d.%d, %d SMs\n", p.name, p.major, p.minor, p.multiProcessorCount);
  return pass();
}
