// Histograms with atomics, bitonic sort and radix sort in shared memory.

// 256-bin byte histogram: shared-memory atomics per block, then global atomicAdd.
extern "C" __global__ void histogram256(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned h[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (h[i]) atomicAdd(&hist[i], h[i]);
}

// Order-independent global atomics: every result is the same whatever order
// the hardware applies them in. stats = {sum, max, min, or, and, xor, inc-wrap,
// sum64 lo, sum64 hi, float max via CAS}.
__device__ float atomic_max_float(float *addr, float v)
{
    int *a = (int *)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(a, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

extern "C" __global__ void atomics_mix(const int *in, int *stats, unsigned long long *sum64, float *fmax_out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    atomicAdd(&stats[0], v);
    atomicMax(&stats[1], v);
    atomicMin(&stats[2], v);
    atomicOr(&stats[3], v);
    atomicAnd(&stats[4], v | 0x10000);
    atomicXor(&stats[5], v);
    atomicInc((unsigned *)&stats[6], 1000u);
    atomicMax((unsigned *)&stats[7], (unsigned)v);
    atomicAdd(sum64, (unsigned long long)(long long)v * 0x100000001ull);
    atomic_max_float(fmax_out, (float)v * 0.25f);
}

// Bitonic sort of 2*blockDim keys per block (ascending), in shared memory.
extern "C" __global__ void bitonic_sort_u32(unsigned *keys)
{
    __shared__ unsigned s[512];
    int t = threadIdx.x, n = 2 * blockDim.x;
    unsigned *base = keys + blockIdx.x * n;
    s[t] = base[t];
    s[t + blockDim.x] = base[t + blockDim.x];
    for (int k = 2; k <= n; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            int i = 2 * t - (t & (j - 1));  // lower index of this thread's pair
            int p = i + j;
            bool up = (i & k) == 0;
            unsigned a = s[i], b = s[p];
            if ((a > b) == up) {
                s[i] = b;
                s[p] = a;
            }
        }
    }
    __syncthreads();
    base[t] = s[t];
    base[t + blockDim.x] = s[t + blockDim.x];
}

// Bitonic sort of float key / int value pairs, descending, one block.
extern "C" __global__ void bitonic_sort_kv_f32(float *keys, int *vals)
{
    __shared__ float k_s[256];
    __shared__ int v_s[256];
    int t = threadIdx.x, n = blockDim.x;
    k_s[t] = keys[blockIdx.x * n + t];
    v_s[t] = vals[blockIdx.x * n + t];
    for (int k = 2; k <= n; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            int p = t ^ j;
            if (p > t) {
                bool desc = (t & k) == 0;
                float a = k_s[t], b = k_s[p];
                if (desc ? (a < b) : (a > b)) {
                    k_s[t] = b; k_s[p] = a;
                    int x = v_s[t]; v_s[t] = v_s[p]; v_s[p] = x;
                }
            }
        }
    }
    __syncthreads();
    keys[blockIdx.x * n + t] = k_s[t];
    vals[blockIdx.x * n + t] = v_s[t];
}

// LSD radix sort of blockDim keys per block, one bit per pass: a stable split
// using __ballot_sync/__popc within warps and a block scan of the warp counts.
extern "C" __global__ void radix_sort_u32(unsigned *keys, unsigned *perm)
{
    __shared__ unsigned k_s[256];
    __shared__ unsigned p_s[256];
    __shared__ unsigned zeros_before_warp[9];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
    k_s[t] = keys[blockIdx.x * blockDim.x + t];
    p_s[t] = t;
    __syncthreads();
    for (int bit = 0; bit < 32; ++bit) {
        unsigned k = k_s[t], p = p_s[t];
        bool one = (k >> bit) & 1;
        unsigned zmask = __ballot_sync(0xffffffffu, !one);
        unsigned zeros_below = __popc(zmask & ((1u << lane) - 1));
        if (lane == 0) zeros_before_warp[warp + 1] = __popc(zmask);
        int total_zeros = __syncthreads_count(!one);
        if (t == 0) {
            zeros_before_warp[0] = 0;
            for (int w = 1; w <= nw; ++w) zeros_before_warp[w] += zeros_before_warp[w - 1];
        }
        __syncthreads();
        unsigned zb = zeros_before_warp[warp] + zeros_below;
        unsigned dst = one ? total_zeros + (t - zb) : zb;
        k_s[dst] = k;
        p_s[dst] = p;
        __syncthreads();
    }
    keys[blockIdx.x * blockDim.x + t] = k_s[t];
    perm[blockIdx.x * blockDim.x + t] = p_s[t];
}
