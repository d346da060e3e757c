// Atomic operations on global memory: add, min, max, exchange, compare-and-swap (a float
// maximum built on it), inc with wrap-around, and, or, xor.
#include "check.h"

__device__ float atomic_max_float(float* at, float v) {
  int old = __float_as_int(*at);
  while (__int_as_float(old) < v) {
    const int seen = atomicCAS(reinterpret_cast<int*>(at), old, __float_as_int(v));
    if (seen == old) break;
    old = seen;
  }
  return __int_as_float(old);
}

struct Results {
  int sum, min, max, exch, cas_count;
  unsigned inc, and_bits, or_bits, xor_bits;
  float fmax;
};

__global__ void all(Results* r) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&r->sum, i);
  atomicMin(&r->min, 1000 - i);
  atomicMax(&r->max, i * 3);
  atomicExch(&r->exch, 7);
  if (atomicCAS(&r->cas_count, 0, 1) == 0) atomicAdd(&r->cas_count, 10);
  atomicInc(&r->inc, 99);
  atomicAnd(&r->and_bits, ~(1u << (i % 32)));
  atomicOr(&r->or_bits, 1u << (i % 32));
  atomicXor(&r->xor_bits, 1u << (i % 8));
  atomic_max_float(&r->fmax, float(i % 300) * 0.5f);
}

int main() {
  const int n = 512;
  Results init{0, 1 << 30, -1, 0, 0, 0, 0xffffffffu, 0, 0, -1.0f}, got;
  Results* d;
  CHECK(cudaMalloc(&d, sizeof(Results)));
  CHECK(cudaMemcpy(d, &init, sizeof init, cudaMemcpyHostToDevice));
  all<<<n / 128, 128>>>(d);
  CHECK(cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got.sum == n * (n - 1) / 2);
  EXPECT(got.min == 1000 - (n - 1) && got.max == 3 * (n - 1) && got.exch == 7);
  EXPECT(got.cas_count == 11);
  EXPECT(got.inc == unsigned(n % 100));
  EXPECT(got.and_bits == 0 && got.or_bits == 0xffffffffu && got.xor_bits == 0);
  EXPECT(got.fmax == 149.5f);
  return pass();
}
