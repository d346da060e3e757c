// Prints every device attribute the driver answers (cuDeviceGetAttribute) and the runtime's error
// strings and names, one per line.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
int main() {
  cuInit(0);
  CUdevice d; cuDeviceGet(&d, 0);
  char name[256]; cuDeviceGetName(name, 256, d);
  std::printf("name %s\n", name);
  for (int a = 1; a < 200; ++a) {
    int v = 0; CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, d);
    std::printf("attr %d %d %d\n", a, (int)r, v);
  }
  for (int e = 0; e < 1000; ++e) {
    const char* n = cudaGetErrorName((cudaError_t)e);
    const char* s = cudaGetErrorString((cudaError_t)e);
    std::printf("err %d|%s|%s\n", e, n ? n : "(null)", s ? s : "(null)");
  }
  for (int e = 0; e < 1000; ++e) {
    const char* n = nullptr; const char* s = nullptr;
    CUresult rn = cuGetErrorName((CUresult)e, &n); CUresult rs = cuGetErrorString((CUresult)e, &s);
    std::printf("cuerr %d|%d|%s|%d|%s\n", e, (int)rn, n ? n : "(null)", (int)rs, s ? s : "(null)");
  }
  size_t free_b, total_b; cudaMemGetInfo(&free_b, &total_b);
  std::printf("mem %zu %zu\n", free_b, total_b);
}
