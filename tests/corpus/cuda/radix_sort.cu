// One LSD radix-sort pass (4-bit digits): per-block digit histogram, a
// single-block exclusive scan over (digit, block) counts, and a stable
// scatter that ranks keys within the block using warp ballots.
// corpus-archs: auto:4
#define RADIX 16
#define BLOCK 256

__global__ void digit_count(const unsigned *keys, unsigned *counts, int n, int shift)
{
    __shared__ unsigned h[RADIX];
    if (threadIdx.x < RADIX) h[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) atomicAdd(&h[(keys[i] >> shift) & (RADIX - 1)], 1u);
    __syncthreads();
    if (threadIdx.x < RADIX) counts[threadIdx.x * gridDim.x + blockIdx.x] = h[threadIdx.x];
}

__global__ void scan_counts(unsigned *counts, int total)
{
    __shared__ unsigned carry;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (int base = 0; base < total; base += blockDim.x) {
        int i = base + threadIdx.x;
        unsigned v = i < total ? counts[i] : 0;
        unsigned x = v;
        for (int o = 1; o < 32; o <<= 1) {
            unsigned t = __shfl_up_sync(0xffffffffu, x, o);
            if ((threadIdx.x & 31) >= (unsigned)o) x += t;
        }
        __shared__ unsigned wsum[32];
        if ((threadIdx.x & 31) == 31) wsum[threadIdx.x >> 5] = x;
        __syncthreads();
        unsigned add = carry;
        for (unsigned w = 0; w < (threadIdx.x >> 5); ++w) add += wsum[w];
        if (i < total) counts[i] = x - v + add;
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1) carry = add + x;
        __syncthreads();
    }
}

__global__ void scatter(const unsigned *keys_in, const unsigned *vals_in, unsigned *keys_out, unsigned *vals_out, const unsigned *offsets, int n, int shift)
{
    __shared__ unsigned warp_digit_counts[BLOCK / 32][RADIX];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    bool valid = i < n;
    unsigned key = valid ? keys_in[i] : 0xffffffffu;
    unsigned d = (key >> shift) & (RADIX - 1);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned same = 0xffffffffu;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
        unsigned bal = __ballot_sync(0xffffffffu, (d >> b) & 1);
        same &= ((d >> b) & 1) ? bal : ~bal;
    }
    same &= __ballot_sync(0xffffffffu, valid);
    unsigned rank_in_warp = __popc(same & ((1u << lane) - 1));
    if (threadIdx.x < BLOCK / 32 * RADIX) (&warp_digit_counts[0][0])[threadIdx.x] = 0;
    __syncthreads();
    if (valid && rank_in_warp == 0) warp_digit_counts[warp][d] = __popc(same);
    __syncthreads();
    unsigned before = 0;
    for (int w = 0; w < warp; ++w) before += warp_digit_counts[w][d];
    if (valid) {
        unsigned dst = offsets[d * gridDim.x + blockIdx.x] + before + rank_in_warp;
        keys_out[dst] = key;
        vals_out[dst] = vals_in[i];
    }
}
