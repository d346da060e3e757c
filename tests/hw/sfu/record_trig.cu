// Records the H200's sin/cos.approx.ftz.f32 (README.md, sin/cos). ptxas scales x to turns
// t = RZ(x * f32(1/(2 pi))) and MUFU.SIN/COS take |t| mod 1 in fixed point with 25 fraction bits,
// truncated: g = floor(frac(|t|) * 2^25). For every g of the first half period this program finds
// a positive x whose t falls in g's bucket, possibly whole half turns further on (no input at all
// reaches some g), and records sin and cos of it. It then checks on random inputs of every
// magnitude the model that makes these two tables enough: sin(-x) = -sin(x), cos(-x) = cos(x),
// and both change sign, exactly, over half a period. Each table is written as int32 second
// differences of the results read as ordered integers (unreachable entries interpolated), which
// xz compresses well.
//
//   nvcc -O2 -arch=sm_90 -o record_trig record_trig.cu && ./record_trig out/ && xz -9 out/*.d2
//   (then copy out/*.d2.xz to src/numeric/sfu/, where the library embeds them)
//
// On an H200 (driver 580.159.04): 15,959,527 of the 2^24 entries are reachable; the model gives
// all 18,874,368 random inputs' sin and cos bit for bit.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

template <bool kCos>
__global__ void k_trig(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r;
    if constexpr (kCos) asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x[i]));
    else asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x[i]));
    y[i] = r;
  }
}
constexpr auto k_sin = k_trig<false>;
constexpr auto k_cos = k_trig<true>;

constexpr int kBits = 25;
constexpr uint32_t kPeriod = 1u << kBits;

uint32_t bits(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
float from_bits(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }

// t = x * f32(1/(2 pi)) rounded toward zero (FMUL.RZ): the product is exact in double.
float turns(float x) {
  const double p = double(x) * double(from_bits(0x3e22f983u));
  float t = float(p);
  if (std::fabs(double(t)) > std::fabs(p)) t = std::nextafter(t, 0.0f);
  return t;
}

// The table index of x: |t| mod 1 in fixed point, truncated.
uint32_t index_of(float x) {
  const double a = std::fabs(double(turns(x)));
  return uint32_t(std::floor((a - std::floor(a)) * double(kPeriod))) & (kPeriod - 1);
}

void run(void (*k)(const float*, float*, int), const std::vector<float>& x, std::vector<uint32_t>& y) {
  const int n = int(x.size());
  float *dx, *dy;
  cudaMalloc(&dx, 4ull * n);
  cudaMalloc(&dy, 4ull * n);
  cudaMemcpy(dx, x.data(), 4ull * n, cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(dx, dy, n);
  y.resize(n);
  cudaMemcpy(y.data(), dy, 4ull * n, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

// Results as ordered integers (+0 .. +Inf as 0 .. 0x7f800000, -0 as -1, -d as -1 - |d|),
// unreachable entries linearly interpolated, then second differences (wrapping int32): smooth
// tables become small numbers.
void write_d2(const std::string& path, const std::vector<uint32_t>& r, const std::vector<bool>& reached) {
  const uint32_t size = uint32_t(r.size());
  std::vector<int64_t> s(size);
  for (uint32_t g = 0; g < size; ++g) s[g] = (r[g] >> 31) ? -1 - int64_t(r[g] & 0x7fffffffu) : int64_t(r[g]);
  uint32_t last = 0;  // entry 0 is always reached (x = 0)
  for (uint32_t g = 1; g <= size; ++g) {
    if (g < size && !reached[g]) continue;
    const int64_t a = s[last], b = g < size ? s[g] : s[last];
    for (uint32_t h = last + 1; h < g; ++h) s[h] = a + (b - a) * int64_t(h - last) / int64_t(g - last);
    last = g;
  }
  std::vector<int32_t> d2(size);
  int64_t p1 = 0, p2 = 0;
  for (uint32_t g = 0; g < size; ++g) {
    d2[g] = int32_t(uint32_t(s[g] - 2 * p1 + p2));
    p2 = p1;
    p1 = s[g];
  }
  FILE* o = std::fopen(path.c_str(), "wb");
  std::fwrite(d2.data(), 4, d2.size(), o);
  std::fclose(o);
}

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  // A positive x for every reachable g of the half period, from t = n/2 + g * 2^-25 for the
  // first n = 0..15 that some x reaches (the other half period is the negated half: checked below).
  constexpr uint32_t kHalf = kPeriod >> 1;
  std::vector<float> x(kHalf, 0.0f);
  std::vector<uint8_t> half_turns(kHalf, 0);  // n
  std::vector<bool> reached(kHalf, false);
  reached[0] = true;
  const double c = double(from_bits(0x3e22f983u));
  uint32_t n_reached = 1;
  for (uint32_t g = 1; g < kHalf; ++g)
    for (uint32_t n = 0; n < 16 && !reached[g]; ++n) {
      float cand = float((double(n) * kHalf + double(g) + 0.5) / double(kPeriod) / c);
      for (int k = 0; k < 8; ++k) cand = std::nextafter(cand, 0.0f);
      for (int k = 0; k < 17 && !reached[g]; ++k, cand = std::nextafter(cand, INFINITY))
        if (index_of(cand) == g + (n & 1) * kHalf && uint32_t(turns(cand) * 2) == n)
          x[g] = cand, half_turns[g] = uint8_t(n), reached[g] = true, ++n_reached;
    }
  std::printf("reachable half-period entries: %u of %u\n", n_reached, kHalf);
  std::vector<uint32_t> sp, cp;
  run(k_sin, x, sp);
  run(k_cos, x, cp);
  for (uint32_t g = 0; g < kHalf; ++g)
    if (half_turns[g] & 1) sp[g] ^= 0x80000000u, cp[g] ^= 0x80000000u;

  // The model on random inputs: random bit patterns (every finite magnitude) and uniform x in
  // [-2^k, 2^k] for k = 1..20: sin(-x) = -sin(x), cos(-x) = cos(x), f(t + 1/2) = -f(t).
  std::mt19937_64 rng(20261122);
  std::vector<float> rx;
  while (rx.size() < (1u << 23)) {
    const float f = from_bits(uint32_t(rng()));
    if (std::isfinite(f)) rx.push_back(f);
  }
  for (int k = 1; k <= 20; ++k)
    for (int i = 0; i < (1 << 19); ++i)
      rx.push_back(float(std::ldexp(double(int64_t(rng() >> 11) - (int64_t(1) << 52)) / double(int64_t(1) << 52), k)));
  std::vector<uint32_t> rs, rc;
  run(k_sin, rx, rs);
  run(k_cos, rx, rc);
  uint64_t ok_s = 0, ok_c = 0, unreached = 0, shown = 0;
  for (size_t i = 0; i < rx.size(); ++i) {
    uint32_t xb = bits(rx[i]);
    float xf = rx[i];
    if ((xb & 0x7f800000u) == 0) xf = from_bits(xb & 0x80000000u);  // .ftz
    const uint32_t g = index_of(xf), h = g & (kHalf - 1), flip = (g >> (kBits - 1)) << 31;
    const uint32_t neg = bits(xf) & 0x80000000u;
    if (!reached[h]) { ++unreached; continue; }
    const uint32_t ms = sp[h] ^ flip ^ neg, mc = cp[h] ^ flip;
    ok_s += rs[i] == ms;
    ok_c += rc[i] == mc;
    if ((rs[i] != ms || rc[i] != mc) && shown++ < 12)
      std::printf("  miss x=%08x t=%08x g=%u: sin %08x model %08x, cos %08x model %08x\n", xb, bits(turns(xf)), g,
                  rs[i], ms, rc[i], mc);
  }
  uint64_t neg_zero = 0;
  for (uint32_t g = 0; g < kHalf; ++g) neg_zero += reached[g] && (sp[g] == 0x80000000u || cp[g] == 0x80000000u);
  std::printf("entries that are -0: %llu\n", (unsigned long long)neg_zero);
  std::printf("random inputs: %zu; sin model %llu, cos model %llu; index unreached %llu\n", rx.size(),
              (unsigned long long)ok_s, (unsigned long long)ok_c, (unsigned long long)unreached);

  write_d2(dir + "/sin_half.d2", sp, reached);
  write_d2(dir + "/cos_half.d2", cp, reached);
  return 0;
}
