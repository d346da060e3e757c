// A small CUDA runtime program for trace.sh: device properties, allocations, copies, a <<<>>>
// launch and a cudaLaunchKernelEx launch with a cluster dimension. Build for sm_90 (clusters).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e = (call);                                                                        \
    if (e != cudaSuccess) {                                                                        \
      std::printf("%s: %s\n", #call, cudaGetErrorString(e));                                       \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 16, block = 256;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, compute capability %d.%d\n", prop.name, prop.major, prop.minor);

  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; i++) {
    a[i] = float(i);
    b[i] = 2.0f * float(i);
  }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&db, n * sizeof(float)));
  CHECK(cudaMalloc(&dc, n * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  add<<<n / block, block>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(n / block);
  config.blockDim = dim3(block);
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 2;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, add, (const float*)db, (const float*)da, dc, n));
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (c[i] != 3.0f * float(i)) {
      std::printf("wrong sum at %d: %g\n", i, c[i]);
      return 1;
    }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  std::printf("ok\n");
  return 0;
}
