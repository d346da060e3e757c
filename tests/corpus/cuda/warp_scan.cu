// Warp-level inclusive/exclusive scans with shuffles, lane masks read from
// special registers via inline PTX, and a segmented scan.
// corpus-archs: auto:4

__device__ __forceinline__ unsigned lanemask_lt()
{
    unsigned m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}
__device__ __forceinline__ unsigned lane_id()
{
    unsigned l;
    asm("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

template <typename T>
__device__ T warp_inclusive_scan(T v)
{
    unsigned lane = lane_id();
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        T t = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= (unsigned)o) v += t;
    }
    return v;
}

template <typename T>
__global__ void block_scan(const T *in, T *out, int n)
{
    __shared__ T warp_tot[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v = i < n ? in[i] : T(0);
    T inc = warp_inclusive_scan(v);
    int w = threadIdx.x / 32;
    if (lane_id() == 31) warp_tot[w] = inc;
    __syncthreads();
    if (w == 0) {
        T t = lane_id() < blockDim.x / 32 ? warp_tot[lane_id()] : T(0);
        warp_tot[lane_id()] = warp_inclusive_scan(t) - t;
    }
    __syncthreads();
    if (i < n) out[i] = inc + warp_tot[w];
}
template __global__ void block_scan<int>(const int *, int *, int);
template __global__ void block_scan<float>(const float *, float *, int);
template __global__ void block_scan<double>(const double *, double *, int);

__global__ void segmented_scan(const int *vals, const int *head_flags, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? vals[i] : 0;
    int f = i < n ? head_flags[i] : 1;
    unsigned heads = __ballot_sync(0xffffffffu, f);
    unsigned lane = lane_id();
    unsigned below = heads & (lanemask_lt() | (1u << lane));
    int seg_start = below ? 31 - __clz(below) : 0;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, o);
        if ((int)lane - o >= seg_start) v += t;
    }
    if (i < n) out[i] = v;
}

__global__ void rank_in_warp(const int *pred, int *rank, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = i < n && pred[i];
    unsigned b = __ballot_sync(0xffffffffu, p);
    __syncwarp();
    if (i < n) rank[i] = p ? __popc(b & lanemask_lt()) : -1;
}
