// Records the H200's rcp/rsqrt/sqrt .approx.ftz.f32 over every mantissa: rcp at exponent 0,
// rsqrt and sqrt at exponents 0 and 1 (their results depend on the mantissa and the exponent's
// parity only: README.md). Each table is stored as int8 deltas, in units of the result's last
// bit, from a reference every host computes identically: the f64 result (1/x, 1/sqrt(x),
// sqrt(x)) converted to f32 with rounding to nearest even.
//
//   nvcc -O2 -arch=sm_90 -o record_sfu record_sfu.cu && ./record_sfu out/ && xz -9 out/*.delta out/*.diff out/*.diff32
//   (then copy out/*.delta.xz to src/numeric/sfu/, where the library embeds them)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../../src/numeric/sfu_reference.h"

#define F(name, insn)                                                       \
  __global__ void name(const float* x, float* y, int n) {                  \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                          \
    if (i < n) {                                                            \
      float r;                                                              \
      asm(insn " %0, %1;" : "=f"(r) : "f"(x[i]));                           \
      y[i] = r;                                                             \
    }                                                                       \
  }
F(k_rcp, "rcp.approx.ftz.f32")
F(k_rsqrt, "rsqrt.approx.ftz.f32")
F(k_sqrt, "sqrt.approx.ftz.f32")
F(k_ex2, "ex2.approx.ftz.f32")
F(k_lg2, "lg2.approx.ftz.f32")
F(k_tanh, "tanh.approx.f32")

#define F64(name, insn)                                                     \
  __global__ void name(const double* x, double* y, int n) {                \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                          \
    if (i < n) {                                                            \
      double r;                                                             \
      asm(insn " %0, %1;" : "=d"(r) : "d"(x[i]));                           \
      y[i] = r;                                                             \
    }                                                                       \
  }
F64(k_rcp64, "rcp.approx.ftz.f64")
F64(k_rsqrt64, "rsqrt.approx.ftz.f64")

// y = kernel(x) over x.size() elements, through the device buffers dx, dy (large enough).
template <typename T, typename X, typename Y>
void run(void (*kernel)(const T*, T*, int), T* dx, T* dy, const std::vector<X>& x, std::vector<Y>& y) {
  static_assert(sizeof(X) == sizeof(T) && sizeof(Y) == sizeof(T));
  const int n = int(x.size());
  cudaMemcpy(dx, x.data(), sizeof(T) * n, cudaMemcpyHostToDevice);
  kernel<<<(n + 255) / 256, 256>>>(dx, dy, n);
  cudaMemcpy(y.data(), dy, sizeof(T) * n, cudaMemcpyDeviceToHost);
}

template <typename T>
void write_table(const std::string& path, const std::vector<T>& v) {
  FILE* o = std::fopen(path.c_str(), "wb");
  std::fwrite(v.data(), sizeof(T), v.size(), o);
  std::fclose(o);
}

// rcp/rsqrt.approx.ftz.f64 read the upper word of x (sign, exponent, 20 mantissa bits) and write
// the upper word of the result. Over the 2^20 upper mantissas at exponent 0 (and 1 for rsqrt),
// int8 deltas of the result's upper word from sfu_reference64; checked here to hold at other
// exponents and whatever the lower word.
int record_f64(const char* dir, double* dx, double* dy) {
  const int n = 1 << 20;
  std::vector<uint64_t> x(n), y(n);
  struct T { const char* name; void (*k)(const double*, double*, int); ptxvm::numeric::SfuFn fn; int p; };
  const T tables[] = {{"rcp64_e0", k_rcp64, ptxvm::numeric::SfuFn::Rcp, 0},
                      {"rsqrt64_e0", k_rsqrt64, ptxvm::numeric::SfuFn::Rsqrt, 0},
                      {"rsqrt64_e1", k_rsqrt64, ptxvm::numeric::SfuFn::Rsqrt, 1}};
  for (const T& t : tables) {
    std::vector<int8_t> delta(n);
    for (int e : {t.p, t.p + 2, t.p - 2, t.p + 10, t.p - 10, t.p + 500, t.p - 500, t.p + 1, t.p - 1}) {
      if ((e - t.p) % 2 != 0 && t.fn != ptxvm::numeric::SfuFn::Rcp) continue;  // rsqrt: same parity
      for (int m = 0; m < n; ++m)
        x[m] = (uint64_t(1023 + e) << 52) | (uint64_t(m) << 32) | (e == t.p ? 0 : uint32_t(m * 2654435761u));
      run(t.k, dx, dy, x, y);
      for (int m = 0; m < n; ++m) {
        const uint64_t ref = ptxvm::numeric::sfu_reference64(t.fn, x[m]);
        const int64_t d = int64_t(y[m] >> 32) - int64_t(ref >> 32);
        if (uint32_t(y[m]) != 0 || d < -127 || d > 127) { std::fprintf(stderr, "%s: %016llx -> %016llx\n", t.name, (unsigned long long)x[m], (unsigned long long)y[m]); return 1; }
        if (e == t.p) delta[m] = int8_t(d);
        else if (delta[m] != int8_t(d)) { std::fprintf(stderr, "%s: exponent %d differs at %d\n", t.name, e, m); return 1; }
      }
    }
    write_table(std::string(dir) + "/" + t.name + ".delta", delta);
  }
  return 0;
}

// tanh over every exponent E in [-9, 2] (tanh is odd; above it is ±1, below it x: checked
// here): the unit keeps only the top 23-k mantissa bits of x, k found per exponent, so each table
// holds 2^(23-k) results, as int32 differences between consecutive result bit patterns from the
// first. File tanh_e<E>_k<k>.diff32 (E written as m9 for -9).
int record_tanh(const char* dir, float* dx, float* dy) {
  const int n = 1 << 23;
  std::vector<uint32_t> x(n), y(n);
  for (int e = -24; e <= 3; ++e) {
    for (int m = 0; m < n; ++m) x[m] = (uint32_t(127 + e) << 23) | m;
    run(k_tanh, dx, dy, x, y);
    if (e < -9 || e > 2) {  // below: x itself; above: 1
      for (int m = 0; m < n; ++m)
        if (y[m] != (e < -9 ? x[m] : 0x3f800000u)) {
          std::fprintf(stderr, "tanh at exponent %d, mantissa %d: %08x\n", e, m, y[m]);
          return 1;
        }
      continue;
    }
    int k = 0;
    while (k < 23) {
      const uint32_t step = 1u << (k + 1);
      bool same = true;
      for (int m = 0; m < n && same; ++m) same = y[m] == y[m & ~(step - 1)];
      if (!same) break;
      ++k;
    }
    std::vector<int32_t> diff(n >> k);
    uint32_t previous = y[0];
    for (int i = 0; i < (n >> k); ++i) {
      diff[i] = int32_t(y[size_t(i) << k] - previous);
      previous = y[size_t(i) << k];
    }
    diff[0] = int32_t(y[0]);  // the first entry itself
    write_table(std::string(dir) + "/tanh_e" + (e < 0 ? "m" : "") + std::to_string(e < 0 ? -e : e) + "_k" +
                    std::to_string(k) + ".diff32", diff);
  }
  return 0;
}

// lg2 over every mantissa of [1, 2) and of [0.5, 1) (the unit adds the exponent to one of these
// two tables and truncates: README.md). Stored as int32 differences between consecutive result
// bit patterns, from lg2(1) = 0 and lg2(0.5) = -1.
int record_lg2(const char* dir, float* dx, float* dy) {
  const int n = 1 << 23;
  std::vector<uint32_t> x(n), y(n);
  for (int half = 0; half < 2; ++half) {
    for (int m = 0; m < n; ++m) x[m] = (uint32_t(127 - half) << 23) | m;
    run(k_lg2, dx, dy, x, y);
    std::vector<int32_t> diff(n);
    uint32_t previous = half ? 0xbf800000u : 0u;
    for (int m = 0; m < n; ++m) {
      diff[m] = int32_t(y[m] - previous);
      previous = y[m];
    }
    write_table(std::string(dir) + "/lg2_" + (half ? "half" : "one") + ".diff32", diff);
  }
  return 0;
}

// ex2 over the 2^23 fractions f = i * 2^-23 of [0, 1), of +f and of -f (the unit takes |x| in
// fixed point with 23 fraction bits and has one table per sign: README.md). Stored as int8
// differences between consecutive results, from ex2(0) = 1.
int record_ex2(const char* dir, float* dx, float* dy) {
  const int n = 1 << 23;
  std::vector<float> x(n);
  std::vector<uint32_t> y(n);
  for (int sign = 0; sign < 2; ++sign) {
    for (int i = 0; i < n; ++i) x[i] = (sign ? -1.0f : 1.0f) * float(i) * 0x1p-23f;
    run(k_ex2, dx, dy, x, y);
    std::vector<int8_t> diff(n);
    uint32_t previous = 0x3f800000u;  // ex2(0)
    for (int i = 0; i < n; ++i) {
      const int64_t d = int64_t(y[i]) - int64_t(previous);
      if (d < -127 || d > 127) { std::fprintf(stderr, "ex2: difference %lld at %d\n", (long long)d, i); return 1; }
      diff[i] = int8_t(d);
      previous = y[i];
    }
    write_table(std::string(dir) + "/ex2_" + (sign ? "neg" : "pos") + ".diff", diff);
  }
  return 0;
}

int main(int argc, char** argv) {
  const int n = 1 << 23;
  struct Table { const char* name; void (*k)(const float*, float*, int); int exponent; ptxvm::numeric::SfuFn fn; };
  const Table tables[] = {{"rcp_e0", k_rcp, 0, ptxvm::numeric::SfuFn::Rcp},
                          {"rsqrt_e0", k_rsqrt, 0, ptxvm::numeric::SfuFn::Rsqrt},
                          {"rsqrt_e1", k_rsqrt, 1, ptxvm::numeric::SfuFn::Rsqrt},
                          {"sqrt_e0", k_sqrt, 0, ptxvm::numeric::SfuFn::Sqrt},
                          {"sqrt_e1", k_sqrt, 1, ptxvm::numeric::SfuFn::Sqrt}};
  std::vector<uint32_t> x(n), y(n);
  float *dx, *dy;
  cudaMalloc(&dx, 4ull * n);
  cudaMalloc(&dy, 4ull * n);
  for (const Table& t : tables) {
    for (int m = 0; m < n; ++m) x[m] = (uint32_t(127 + t.exponent) << 23) | m;
    run(t.k, dx, dy, x, y);
    std::vector<int8_t> delta(n);
    for (int m = 0; m < n; ++m) {
      const int64_t d = int64_t(y[m]) - int64_t(ptxvm::numeric::sfu_reference(t.fn, x[m]));
      if (d < -127 || d > 127) { std::fprintf(stderr, "%s: delta %lld at %d\n", t.name, (long long)d, m); return 1; }
      delta[m] = int8_t(d);
    }
    write_table(std::string(argc > 1 ? argv[1] : ".") + "/" + t.name + ".delta", delta);
  }
  const char* dir = argc > 1 ? argv[1] : ".";
  if (record_ex2(dir, dx, dy) || record_lg2(dir, dx, dy) || record_tanh(dir, dx, dy) ||
      record_f64(dir, reinterpret_cast<double*>(dx), reinterpret_cast<double*>(dy)))
    return 1;
  std::printf("recorded %zu tables, ex2's two, lg2's two, tanh's and the f64 three\n", sizeof tables / sizeof tables[0]);
  return 0;
}
