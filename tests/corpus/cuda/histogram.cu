// Histograms: shared-memory privatized bins with atomics, per-warp
// sub-histograms, and a 2D byte-pair histogram.
// corpus-archs: auto:4

extern "C" __global__ void hist256_shared(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned sh[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) sh[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&sh[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (sh[b]) atomicAdd(&bins[b], sh[b]);
}

#define WARPS 8
extern "C" __global__ void hist_per_warp(const unsigned *data, unsigned *bins, int n, int nbins, unsigned shift)
{
    extern __shared__ unsigned wh[]; // WARPS * nbins
    int warp = threadIdx.x / 32;
    for (int b = threadIdx.x; b < WARPS * nbins; b += blockDim.x) wh[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned bin = (data[i] >> shift) % nbins;
        atomicAdd(&wh[warp * nbins + bin], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
        unsigned s = 0;
        for (int w = 0; w < WARPS; ++w) s += wh[w * nbins + b];
        atomicAdd(&bins[b], s);
    }
}

extern "C" __global__ void hist_float(const float *x, int n, float lo, float hi, int nbins, unsigned long long *bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float t = (x[i] - lo) / (hi - lo);
    int b = min(max(__float2int_rd(t * nbins), 0), nbins - 1);
    atomicAdd(&bins[b], 1ull);
}

// Aggregated atomics: one atomic per group of lanes hitting the same bin.
extern "C" __global__ void hist_aggregated(const int *keys, int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool active = i < n;
    int key = active ? keys[i] : -1;
    unsigned mask = __ballot_sync(0xffffffffu, active);
    if (!active) return;
    unsigned peers = __match_any_sync(mask, key);
    int leader = __ffs(peers) - 1;
    if ((int)(threadIdx.x & 31) == leader) atomicAdd(&bins[key], __popc(peers));
}
