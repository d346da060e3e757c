// Hashing and pseudo-random number generation: CRC32 (table in constant
// memory), MurmurHash3 finalizer, xorshift, PCG, Philox-like rounds.
// corpus-archs: auto:4
#include <cstdint>

__constant__ uint32_t crc_table[256];

__device__ uint32_t crc32_bytes(const uint8_t *p, int len)
{
    uint32_t c = 0xffffffffu;
    for (int k = 0; k < len; ++k)
        c = crc_table[(c ^ p[k]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

extern "C" __global__ void crc32_blocks(const uint8_t *data, int block_len, uint32_t *crcs, int nblocks)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nblocks) crcs[i] = crc32_bytes(data + (size_t)i * block_len, block_len);
}

__device__ __forceinline__ uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

extern "C" __global__ void murmur_keys(const uint64_t *keys, uint32_t *buckets, uint32_t nb, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) buckets[i] = (uint32_t)(fmix64(keys[i]) % nb);
}

struct Pcg { uint64_t state, inc; };

__device__ uint32_t pcg_next(Pcg &r)
{
    uint64_t old = r.state;
    r.state = old * 6364136223846793005ULL + r.inc;
    uint32_t xs = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xs >> rot) | (xs << ((32 - rot) & 31));
}

extern "C" __global__ void monte_carlo_pi(uint64_t seed, int iters, unsigned long long *hits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Pcg r{seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL, (uint64_t)i * 2 + 1};
    unsigned c = 0;
    for (int k = 0; k < iters; ++k) {
        float x = pcg_next(r) * 2.3283064365386963e-10f;
        float y = pcg_next(r) * 2.3283064365386963e-10f;
        c += (x * x + y * y <= 1.0f);
    }
    atomicAdd(hits, (unsigned long long)c);
}

__device__ __forceinline__ void philox_round(uint32_t &c0, uint32_t &c1, uint32_t &c2, uint32_t &c3, uint32_t k0, uint32_t k1)
{
    uint32_t hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    uint32_t hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
}

extern "C" __global__ void philox4x32(uint32_t key0, uint32_t key1, uint4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t c0 = i, c1 = 0, c2 = 0, c3 = 0, k0 = key0, k1 = key1;
#pragma unroll
    for (int r = 0; r < 10; ++r) {
        philox_round(c0, c1, c2, c3, k0, k1);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[i] = make_uint4(c0, c1, c2, c3);
}

extern "C" __global__ void xorshift_fill(uint32_t seed, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t s = seed ^ (i * 0x27d4eb2du);
    for (int k = i; k < n; k += gridDim.x * blockDim.x) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        out[k] = s;
    }
}
