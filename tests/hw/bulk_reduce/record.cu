// Records what cp.reduce.async.bulk .add into global memory does to subnormal f32 values and to
// f64 NaNs (PTX §9.7.9.25.4.2): does the bulk-copy unit flush subnormals, as atom.global.add.f32
// does, or keep them, as the TMA's tensor reductions do (tests/hw/tma/probes)?
//   nvcc -O2 -arch=sm_90a -o /tmp/record record.cu && /tmp/record > records.txt
// Output: one line per case: name, then per element "destination-before source result" in hex.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int kN = 64;  // elements per case (a multiple of 16 bytes for both types)

template <typename T>
__global__ void to_global(T* dst, const T* src) {
  __shared__ __align__(16) T buf[kN];
  buf[threadIdx.x] = src[threadIdx.x];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const uint32_t s = uint32_t(__cvta_generic_to_shared(buf));
    if constexpr (sizeof(T) == 4)
      asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;" ::"l"(dst), "r"(s), "r"(kN * 4) : "memory");
    else
      asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f64 [%0], [%1], %2;" ::"l"(dst), "r"(s), "r"(kN * 8) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
  }
}

template <typename T>
void print(const char* name, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& r) {
  std::printf("%s", name);
  for (int i = 0; i < kN; ++i) std::printf(sizeof(T) == 4 ? " %08llx:%08llx:%08llx" : " %016llx:%016llx:%016llx",
                                           (unsigned long long)a[i], (unsigned long long)b[i], (unsigned long long)r[i]);
  std::printf("\n");
}

int main() {
  // f32: destination subnormals, ±0, a NaN; source subnormals and normals
  std::vector<uint32_t> d32(kN), s32(kN);
  for (int i = 0; i < kN; ++i) {
    d32[i] = (i % 4 == 0) ? 0x00000001u * (i + 1) : (i % 4 == 1) ? 0x80000010u + i : (i % 4 == 2) ? 0x3f800000u : 0x007fffffu;
    s32[i] = (i % 3 == 0) ? 0x00000002u + i : (i % 3 == 1) ? 0x80400000u : 0x00800000u;
  }
  d32[5] = 0x7fc12345u, s32[6] = 0xffa00001u, d32[7] = 0x80000000u, s32[7] = 0x00000000u;
  // f64: NaNs with payloads on either side, infinities of both signs
  std::vector<uint64_t> d64(kN), s64(kN);
  for (int i = 0; i < kN; ++i) {
    d64[i] = (i % 4 == 0) ? 0x7ff0000000000123ull : (i % 4 == 1) ? 0x3ff0000000000000ull : (i % 4 == 2) ? 0x7ff0000000000000ull : 0x0000000000000007ull;
    s64[i] = (i % 3 == 0) ? 0xfff8000000000456ull : (i % 3 == 1) ? 0xfff0000000000000ull : 0x7ff4000000000789ull;
  }
  uint32_t *g32, *s32d;
  uint64_t *g64, *s64d;
  cudaMalloc(&g32, kN * 4), cudaMalloc(&s32d, kN * 4), cudaMalloc(&g64, kN * 8), cudaMalloc(&s64d, kN * 8);
  cudaMemcpy(g32, d32.data(), kN * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(s32d, s32.data(), kN * 4, cudaMemcpyHostToDevice);
  to_global<float><<<1, kN>>>(reinterpret_cast<float*>(g32), reinterpret_cast<const float*>(s32d));
  std::vector<uint32_t> r32(kN);
  cudaMemcpy(r32.data(), g32, kN * 4, cudaMemcpyDeviceToHost);
  print("add.f32.global", d32, s32, r32);
  cudaMemcpy(g64, d64.data(), kN * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(s64d, s64.data(), kN * 8, cudaMemcpyHostToDevice);
  to_global<double><<<1, kN>>>(reinterpret_cast<double*>(g64), reinterpret_cast<const double*>(s64d));
  std::vector<uint64_t> r64(kN);
  cudaMemcpy(r64.data(), g64, kN * 8, cudaMemcpyDeviceToHost);
  print("add.f64.global", d64, s64, r64);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("status %s\n", cudaGetErrorName(e));
  return 0;
}
