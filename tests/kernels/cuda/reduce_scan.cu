// Reductions and scans: warp shuffles, shared memory, block-wide prefix sums.
// Float results depend on the summation order, so they check bit-exactness.

// Integer sum: grid-stride loop, __shfl_down_sync tree per warp, per-warp
// partials in shared memory, one atomicAdd per block into out[0]; the block's
// own sum goes to out[1 + blockIdx.x].
extern "C" __global__ void reduce_sum_shfl(const int *in, int *out, int n)
{
    __shared__ int warp_sums[32];
    int s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0;
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
        if (lane == 0) {
            atomicAdd(out, s);
            out[1 + blockIdx.x] = s;
        }
    }
}

// Float sum per block with a butterfly (__shfl_xor_sync): every lane ends with
// the warp total; written per block (no float atomics: their order would vary).
extern "C" __global__ void reduce_f32_xor(const float *in, float *partial, int n)
{
    __shared__ float warp_sums[32];
    float s = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i] * 1.0001f;
    for (int o = 1; o < 32; o <<= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.f;
        for (unsigned w = 0; w < (blockDim.x >> 5); ++w) t += warp_sums[w];
        partial[blockIdx.x] = t;
    }
}

// Max and argmax of doubles per block, shared-memory tree.
extern "C" __global__ void reduce_argmax_f64(const double *in, double *max_out, int *idx_out)
{
    __shared__ double v[256];
    __shared__ int ix[256];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    v[t] = in[g];
    ix[t] = g;
    __syncthreads();
    for (unsigned o = blockDim.x / 2; o > 0; o >>= 1) {
        if (t < (int)o && (v[t + o] > v[t] || (v[t + o] == v[t] && ix[t + o] < ix[t]))) {
            v[t] = v[t + o];
            ix[t] = ix[t + o];
        }
        __syncthreads();
    }
    if (t == 0) {
        max_out[blockIdx.x] = v[0];
        idx_out[blockIdx.x] = ix[0];
    }
}

// Inclusive scan per block: __shfl_up_sync within warps, then the warp totals
// scanned by warp 0. Block totals go to block_sums.
extern "C" __global__ void scan_inclusive_u32(const unsigned *in, unsigned *out, unsigned *block_sums)
{
    __shared__ unsigned warp_tot[32];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned x = in[g];
    for (int o = 1; o < 32; o <<= 1) {
        unsigned y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) warp_tot[warp] = x;
    __syncthreads();
    if (warp == 0) {
        unsigned w = lane < (int)(blockDim.x >> 5) ? warp_tot[lane] : 0;
        for (int o = 1; o < 32; o <<= 1) {
            unsigned y = __shfl_up_sync(0xffffffffu, w, o);
            if (lane >= o) w += y;
        }
        warp_tot[lane] = w;
    }
    __syncthreads();
    if (warp > 0) x += warp_tot[warp - 1];
    out[g] = x;
    if (threadIdx.x == blockDim.x - 1) block_sums[blockIdx.x] = x;
}

// Work-efficient (Blelloch) exclusive scan of 2*blockDim floats per block in
// shared memory with a padded index to avoid bank conflicts.
#define PAD(i) ((i) + ((i) >> 5))
extern "C" __global__ void scan_blelloch_f32(const float *in, float *out)
{
    __shared__ float s[PAD(512) + 1];
    int t = threadIdx.x, n = 2 * blockDim.x;
    const float *src = in + blockIdx.x * n;
    s[PAD(t)] = src[t];
    s[PAD(t + blockDim.x)] = src[t + blockDim.x];
    int off = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
            s[PAD(b)] += s[PAD(a)];
        }
        off <<= 1;
    }
    if (t == 0) s[PAD(n - 1)] = 0.f;
    for (int d = 1; d < n; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
            float u = s[PAD(a)];
            s[PAD(a)] = s[PAD(b)];
            s[PAD(b)] += u;
        }
    }
    __syncthreads();
    out[blockIdx.x * n + t] = s[PAD(t)];
    out[blockIdx.x * n + t + blockDim.x] = s[PAD(t + blockDim.x)];
}
