// Device-side malloc/free and new/delete (CUDA C++ Programming Guide, "Dynamic Global Memory
// Allocation and Operations"): blocks made in one kernel are used and freed in another, a request
// larger than the heap (cudaLimitMallocHeapSize, 8 MiB by default) gets NULL, and the limit can be
// raised before the first kernel that allocates.
#include <cuda_runtime.h>

#include "check.h"

struct Node {
  int value;
  Node* next;
};

// Each thread builds a list of tid + 1 nodes with new and publishes its head.
__global__ void build(Node** heads) {
  const int t = threadIdx.x;
  Node* head = nullptr;
  for (int i = 0; i <= t; ++i) head = new Node{t * 100 + i, head};
  heads[t] = head;
}

// Sums each list into sums[t] and deletes it.
__global__ void consume(Node** heads, int* sums) {
  const int t = threadIdx.x;
  int s = 0;
  for (Node* n = heads[t]; n;) {
    s += n->value;
    Node* next = n->next;
    delete n;
    n = next;
  }
  sums[t] = s;
}

// malloc of `bytes` answers whether it got a block (and frees it).
__global__ void try_malloc(size_t bytes, int* got) {
  void* p = malloc(bytes);
  *got = p != nullptr;
  free(p);
}

int main() {
  size_t heap = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));  // before any kernel allocates
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  EXPECT(heap == 32 << 20);

  constexpr int kThreads = 64;
  Node** heads;
  int *sums, *got;
  CHECK(cudaMalloc(&heads, kThreads * sizeof(Node*)));
  CHECK(cudaMallocManaged(&sums, kThreads * sizeof(int)));
  CHECK(cudaMallocManaged(&got, sizeof(int)));
  build<<<1, kThreads>>>(heads);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  consume<<<1, kThreads>>>(heads, sums);
  CHECK(cudaDeviceSynchronize());
  for (int t = 0; t < kThreads; ++t) EXPECT(sums[t] == (t + 1) * t * 100 + t * (t + 1) / 2);

  try_malloc<<<1, 1>>>(1 << 20, got);  // 1 MiB of a 32 MiB heap
  CHECK(cudaDeviceSynchronize());
  EXPECT(*got == 1);
  try_malloc<<<1, 1>>>(size_t{64} << 20, got);  // more than the whole heap
  CHECK(cudaDeviceSynchronize());
  EXPECT(*got == 0);
  return pass();
}
