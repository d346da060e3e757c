// What NVIDIA's runtime answers (CUDA 13.0, driver 580, H100) where ptxvm's libcudart must agree:
// launches the device cannot take, an event recorded during stream capture, peer copies from
// pageable memory. answers.txt is its output:
//   nvcc -arch=sm_90 -o /tmp/answers runtime_answers.cu && /tmp/answers > answers.txt
#include <cstdio>
__global__ void fine(int* x) { x[threadIdx.x] = 1; }
__global__ void add_one(int* x) { x[threadIdx.x] += 1; }
int main() {
  int* x; cudaMalloc(&x, 4096 * 4);
  fine<<<1, 2048>>>(x);
  cudaError_t e = cudaGetLastError();
  printf("launch 2048: %d %s / peek after %d\n", e, cudaGetErrorName(e), cudaPeekAtLastError());
  fine<<<dim3(1u << 31), 32>>>(x); e = cudaGetLastError(); printf("grid 2^31: %d %s\n", e, cudaGetErrorName(e));
  fine<<<1, 32, 1 << 20>>>(x); e = cudaGetLastError(); printf("shared 1MB: %d %s\n", e, cudaGetErrorName(e));
  cudaStream_t s; cudaStreamCreate(&s);
  cudaEvent_t ev, before; cudaEventCreate(&ev); cudaEventCreate(&before);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  add_one<<<1, 32, 0, s>>>(x);
  e = cudaEventRecord(ev, s); printf("record in capture: %d %s\n", e, cudaGetErrorName(e));
  cudaGraph_t g; e = cudaStreamEndCapture(s, &g); printf("end capture: %d %s\n", e, cudaGetErrorName(e));
  size_t n = 0; cudaGraphGetNodes(g, nullptr, &n); printf("nodes %zu\n", n);
  e = cudaEventQuery(ev); printf("query after capture: %d %s\n", e, cudaGetErrorName(e));
  cudaGraphExec_t ex; cudaGraphInstantiate(&ex, g, 0);
  cudaEventRecord(before, s); cudaGraphLaunch(ex, s); cudaStreamSynchronize(s);
  float ms = -1; e = cudaEventElapsedTime(&ms, before, ev); printf("elapsed before->ev: %d %s %f\n", e, cudaGetErrorName(e), ms);
  e = cudaEventQuery(ev); printf("query after launch: %d %s\n", e, cudaGetErrorName(e));
  char host[64]; int* y; cudaMalloc(&y, 64);
  e = cudaMemcpyPeer(host, 0, y, 0, 64); printf("peer d->h: %d %s\n", e, cudaGetErrorName(e));
  e = cudaMemcpyPeer(x, 0, y, 0, 64); printf("peer d->d: %d %s\n", e, cudaGetErrorName(e));
  int* m; cudaMallocManaged(&m, 64);
  e = cudaMemcpyPeer(m, 0, y, 0, 64); printf("peer d->managed: %d %s\n", e, cudaGetErrorName(e));
  void* ph; cudaMallocHost(&ph, 64);
  e = cudaMemcpyPeer(ph, 0, y, 0, 64); printf("peer d->pinned: %d %s\n", e, cudaGetErrorName(e));
  e = cudaGetLastError(); printf("last: %d %s\n", e, cudaGetErrorName(e));
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  add_one<<<1, 32, 0, s>>>(x);
  e = cudaStreamSynchronize(s); printf("sync in capture: %d %s\n", e, cudaGetErrorName(e));
  cudaGraph_t h = nullptr; e = cudaStreamEndCapture(s, &h); printf("end after sync: %d %s %s\n", e, cudaGetErrorName(e), h ? "graph" : "null");
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  e = cudaGraphLaunch(ex, s); printf("graph launch in capture: %d %s\n", e, cudaGetErrorName(e));
  h = nullptr; e = cudaStreamEndCapture(s, &h); printf("end after graph launch: %d %s %s\n", e, cudaGetErrorName(e), h ? "graph" : "null");
  cudaGetLastError();
  return 0;
}
