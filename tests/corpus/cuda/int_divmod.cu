// Integer division and modulo over all integer widths, by constants and by
// run-time values (templates give one instantiation per type).
// corpus-archs: auto:4
#include <cstdint>

template <typename T>
__global__ void divmod_kernel(const T *a, const T *b, T *q, T *r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = a[i], y = b[i];
    if (y == 0) y = 1;
    q[i] = x / y + x / (T)7 + x / (T)16;
    r[i] = x % y + x % (T)10 + x % (T)32;
}

template __global__ void divmod_kernel<int8_t>(const int8_t *, const int8_t *, int8_t *, int8_t *, int);
template __global__ void divmod_kernel<uint8_t>(const uint8_t *, const uint8_t *, uint8_t *, uint8_t *, int);
template __global__ void divmod_kernel<int16_t>(const int16_t *, const int16_t *, int16_t *, int16_t *, int);
template __global__ void divmod_kernel<uint16_t>(const uint16_t *, const uint16_t *, uint16_t *, uint16_t *, int);
template __global__ void divmod_kernel<int32_t>(const int32_t *, const int32_t *, int32_t *, int32_t *, int);
template __global__ void divmod_kernel<uint32_t>(const uint32_t *, const uint32_t *, uint32_t *, uint32_t *, int);
template __global__ void divmod_kernel<int64_t>(const int64_t *, const int64_t *, int64_t *, int64_t *, int);
template __global__ void divmod_kernel<uint64_t>(const uint64_t *, const uint64_t *, uint64_t *, uint64_t *, int);

// Fast division by a run-time invariant divisor (magic-number method).
struct FastDiv {
    uint32_t d, m, s;
};

__host__ __device__ inline uint32_t fastdiv(uint32_t n, FastDiv f)
{
    uint32_t hi = __umulhi(n, f.m);
    return (hi + ((n - hi) >> 1)) >> f.s;
}

__global__ void index_decompose(FastDiv w, FastDiv h, const float *in, float *out, int total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    uint32_t x = fastdiv(i, w);
    uint32_t col = i - x * w.d;
    uint32_t z = fastdiv(x, h);
    uint32_t row = x - z * h.d;
    out[i] = in[i] * (float)col + (float)row - (float)z;
}

__global__ void gcd_lcm(const uint32_t *a, const uint32_t *b, uint32_t *g, uint64_t *l, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = a[i], y = b[i];
    uint32_t ox = x, oy = y;
    while (y) { uint32_t t = x % y; x = y; y = t; }
    g[i] = x;
    l[i] = x ? (uint64_t)ox / x * oy : 0;
}
