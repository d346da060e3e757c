// Streams and events: work split over streams with asynchronous copies into pinned memory,
// events timing it, a stream waiting on an event, a host function and a callback in order.
#include <vector>
#include "check.h"

__global__ void scale(float* x, int n, float f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

int order[2], calls = 0;
void CUDART_CB host_fn(void* slot) { order[calls++] = *static_cast<int*>(slot); }
void CUDART_CB callback(cudaStream_t, cudaError_t status, void* slot) {
  if (status == cudaSuccess) order[calls++] = *static_cast<int*>(slot);
}

int main() {
  const int n = 4096, parts = 4, part = n / parts;
  float* host;
  CHECK(cudaMallocHost(&host, n * sizeof(float)));
  for (int i = 0; i < n; ++i) host[i] = float(i);
  float* dev;
  CHECK(cudaMalloc(&dev, n * sizeof(float)));
  cudaStream_t streams[parts];
  for (auto& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, 0));
  for (int p = 0; p < parts; ++p) {
    float* d = dev + p * part;
    CHECK(cudaMemcpyAsync(d, host + p * part, part * sizeof(float), cudaMemcpyHostToDevice, streams[p]));
    scale<<<part / 256, 256, 0, streams[p]>>>(d, part, float(p + 1));
    CHECK(cudaMemcpyAsync(host + p * part, d, part * sizeof(float), cudaMemcpyDeviceToHost, streams[p]));
  }
  CHECK(cudaEventRecord(stop, streams[parts - 1]));
  CHECK(cudaStreamWaitEvent(streams[0], stop, 0));
  int first = 1, second = 2;
  CHECK(cudaLaunchHostFunc(streams[0], host_fn, &first));
  CHECK(cudaStreamAddCallback(streams[0], callback, &second, 0));
  for (auto& s : streams) CHECK(cudaStreamSynchronize(s));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0);
  EXPECT(cudaStreamQuery(streams[1]) == cudaSuccess);
  EXPECT(calls == 2 && order[0] == 1 && order[1] == 2);
  for (int i = 0; i < n; ++i) EXPECT(host[i] == float(i) * float(i / part + 1));
  for (auto& s : streams) CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFreeHost(host));
  return pass();
}
