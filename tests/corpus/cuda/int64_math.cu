// 64-bit integer arithmetic: mul, div, rem, shifts, comparisons, mixed widths.
// corpus-archs: auto:4
#include <cstdint>

__global__ void i64_ops(const int64_t *a, const int64_t *b, int64_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t x = a[i], y = b[i] | 1;
    int64_t r0 = x * y;
    int64_t r1 = x / y;
    int64_t r2 = x % y;
    int64_t r3 = x >> (y & 63);
    uint64_t r4 = (uint64_t)x >> (y & 63);
    int64_t r5 = x << (i & 63);
    int64_t r6 = x < y ? x : y;
    out[8 * i + 0] = r0;
    out[8 * i + 1] = r1;
    out[8 * i + 2] = r2;
    out[8 * i + 3] = r3;
    out[8 * i + 4] = (int64_t)r4;
    out[8 * i + 5] = r5;
    out[8 * i + 6] = r6 + llabs(x) + llmax(x, y) + llmin(x, y);
    out[8 * i + 7] = (int64_t)((uint64_t)x / (uint64_t)y + (uint64_t)x % (uint64_t)y);
}

__global__ void u128_mul(const uint64_t *a, const uint64_t *b, uint64_t *lo, uint64_t *hi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned __int128 p = (unsigned __int128)a[i] * b[i];
    lo[i] = (uint64_t)p;
    hi[i] = (uint64_t)(p >> 64);
}

// Add-with-carry chain for a 256-bit add.
__global__ void add256(const uint64_t *a, const uint64_t *b, uint64_t *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t carry = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        uint64_t x = a[4 * i + k], y = b[4 * i + k];
        uint64_t s = x + y;
        uint64_t c1 = s < x;
        uint64_t s2 = s + carry;
        uint64_t c2 = s2 < s;
        c[4 * i + k] = s2;
        carry = c1 | c2;
    }
}

// Modular exponentiation with 64-bit modulus (uses 128-bit intermediate).
__device__ __noinline__ uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)(((unsigned __int128)a * b) % m);
}

__global__ void powmod(const uint64_t *base, const uint64_t *exp, uint64_t m, uint64_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t r = 1, b = base[i] % m, e = exp[i];
    while (e) {
        if (e & 1) r = mulmod(r, b, m);
        b = mulmod(b, b, m);
        e >>= 1;
    }
    out[i] = r;
}
