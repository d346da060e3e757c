// Integer bit manipulation intrinsics: popc, clz, brev, ffs, funnel shifts,
// __byte_perm, mul.hi, sad.
// corpus-archs: auto:5
#include <cstdint>

extern "C" __global__ void bit_stats(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = in[i];
    uint32_t pc = __popc(x);
    uint32_t lz = __clz(x);
    uint32_t rv = __brev(x);
    uint32_t fs = __ffs(x);
    out[4 * i + 0] = pc | (lz << 8) | (fs << 16);
    out[4 * i + 1] = rv;
    out[4 * i + 2] = __byte_perm(x, rv, 0x5140);
    out[4 * i + 3] = __funnelshift_l(x, rv, pc) ^ __funnelshift_r(x, rv, lz) ^ __funnelshift_lc(x, rv, fs) ^ __funnelshift_rc(rv, x, 40);
}

extern "C" __global__ void bit_stats64(const unsigned long long *in, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = in[i];
    int pc = __popcll(x);
    int lz = __clzll(x);
    int fs = __ffsll((long long)x);
    unsigned long long rv = __brevll(x);
    out[2 * i] = ((unsigned long long)pc << 48) | ((unsigned long long)lz << 32) | (unsigned)fs;
    out[2 * i + 1] = rv ^ __umul64hi(x, rv) ^ (unsigned long long)__mul64hi((long long)x, -(long long)rv);
}

extern "C" __global__ void mulhi_sad(const int *a, const int *b, int *out, unsigned *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    out[i] = __mulhi(x, y) + __mul24(x, y) + __sad(x, y, 7) + __hadd(x, y) + __rhadd(x, y);
    uout[i] = __umulhi((unsigned)x, (unsigned)y) + __umul24((unsigned)x, (unsigned)y) + __usad((unsigned)x, (unsigned)y, 3u) + __uhadd((unsigned)x, (unsigned)y) + __urhadd((unsigned)x, (unsigned)y);
}

// Bit-field extract/insert written with shifts and masks; the compiler turns
// these into bfe/bfi.
__device__ __forceinline__ uint32_t extract(uint32_t v, int pos, int len) { return (v >> pos) & ((1u << len) - 1u); }
__device__ __forceinline__ uint32_t insert(uint32_t v, uint32_t f, int pos, int len)
{
    uint32_t m = ((1u << len) - 1u) << pos;
    return (v & ~m) | ((f << pos) & m);
}

extern "C" __global__ void bitfields(const uint32_t *in, uint32_t *out, int pos, int len, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t v = in[i];
    uint32_t f = extract(v, pos, len);
    uint32_t g = extract(v, 3, 5);
    int s = ((int)(v << 4)) >> 28; // signed field
    out[i] = insert(insert(v, f + 1, 24, 8), g, pos, len) + s;
}

// Morton (Z-order) encoding with magic numbers.
__device__ uint32_t part1by1(uint32_t x)
{
    x &= 0x0000ffff;
    x = (x ^ (x << 8)) & 0x00ff00ff;
    x = (x ^ (x << 4)) & 0x0f0f0f0f;
    x = (x ^ (x << 2)) & 0x33333333;
    x = (x ^ (x << 1)) & 0x55555555;
    return x;
}

extern "C" __global__ void morton2d(const uint16_t *xs, const uint16_t *ys, uint32_t *codes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) codes[i] = part1by1(xs[i]) | (part1by1(ys[i]) << 1);
}
