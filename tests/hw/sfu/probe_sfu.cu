// Probe: does each MUFU-backed .approx function's result depend on the input mantissa only
// (plus exponent / parity)? Records f(1.m * 2^E) for all 2^23 mantissas at several E.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#define F(name, insn) __global__ void name(const float* x, float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { float r; asm(insn " %0, %1;" : "=f"(r) : "f"(x[i])); y[i] = r; } }
F(k_rcp, "rcp.approx.ftz.f32") F(k_rsqrt, "rsqrt.approx.ftz.f32") F(k_sqrt, "sqrt.approx.ftz.f32")
F(k_lg2, "lg2.approx.ftz.f32") F(k_ex2, "ex2.approx.ftz.f32") F(k_tanh, "tanh.approx.f32")
F(k_sin, "sin.approx.ftz.f32") F(k_cos, "cos.approx.ftz.f32") F(k_rcpn, "rcp.approx.f32")
int main() {
  const int n = 1 << 23; const int E[] = {0, 1, 2, 5, -5, 20, -20, -1};
  std::vector<float> x(n * 8);
  for (int e = 0; e < 8; ++e) for (int m = 0; m < n; ++m) { uint32_t b = (uint32_t(127 + E[e]) << 23) | m; memcpy(&x[e * n + m], &b, 4); }
  float *dx, *dy; cudaMalloc(&dx, 4ull * n * 8); cudaMalloc(&dy, 4ull * n * 8);
  cudaMemcpy(dx, x.data(), 4ull * n * 8, cudaMemcpyHostToDevice);
  void (*ks[])(const float*, float*, int) = {k_rcp, k_rsqrt, k_sqrt, k_lg2, k_ex2, k_tanh, k_sin, k_cos, k_rcpn};
  const char* names[] = {"rcp", "rsqrt", "sqrt", "lg2", "ex2", "tanh", "sin", "cos", "rcpn"};
  std::vector<float> y(n * 8);
  for (int f = 0; f < 9; ++f) {
    ks[f]<<<(n * 8 + 255) / 256, 256>>>(dx, dy, n * 8);
    cudaMemcpy(y.data(), dy, 4ull * n * 8, cudaMemcpyDeviceToHost);
    char path[64]; snprintf(path, 64, "/tmp/sfu_%s.bin", names[f]);
    FILE* o = fopen(path, "wb"); fwrite(y.data(), 4, y.size(), o); fclose(o);
  }
  printf("done\n");
}
