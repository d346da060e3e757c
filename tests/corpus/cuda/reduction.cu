// Parallel reduction, the classic sequence of optimizations: interleaved
// addressing, sequential addressing, first-add-during-load, unrolled last
// warp, fully unrolled with template block size, and warp-shuffle variant.
// corpus-archs: auto:4

__global__ void reduce0(const int *in, int *out, unsigned n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce2(const int *in, int *out, unsigned n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <unsigned BS>
__device__ void warp_reduce_volatile(volatile int *s, unsigned tid)
{
    if (BS >= 64) s[tid] += s[tid + 32];
    if (BS >= 32) s[tid] += s[tid + 16];
    if (BS >= 16) s[tid] += s[tid + 8];
    if (BS >= 8) s[tid] += s[tid + 4];
    if (BS >= 4) s[tid] += s[tid + 2];
    if (BS >= 2) s[tid] += s[tid + 1];
}

template <unsigned BS>
__global__ void reduce6(const int *in, int *out, unsigned n)
{
    __shared__ int sdata[BS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BS * 2) + tid;
    unsigned grid = BS * 2 * gridDim.x;
    int sum = 0;
    while (i < n) {
        sum += in[i];
        if (i + BS < n) sum += in[i + BS];
        i += grid;
    }
    sdata[tid] = sum;
    __syncthreads();
    if (BS >= 1024) { if (tid < 512) sdata[tid] += sdata[tid + 512]; __syncthreads(); }
    if (BS >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
    if (BS >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
    if (BS >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
    if (tid < 32) warp_reduce_volatile<BS>(sdata, tid);
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
template __global__ void reduce6<64>(const int *, int *, unsigned);
template __global__ void reduce6<128>(const int *, int *, unsigned);
template __global__ void reduce6<256>(const int *, int *, unsigned);
template __global__ void reduce6<512>(const int *, int *, unsigned);
template __global__ void reduce6<1024>(const int *, int *, unsigned);

template <typename T, typename Op>
__global__ void reduce_shfl(const T *in, T *out, unsigned n, T identity, Op op)
{
    __shared__ T warp_res[32];
    T v = identity;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v = op(v, in[i]);
    for (int o = 16; o; o >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, o));
    if ((threadIdx.x & 31) == 0) warp_res[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < (blockDim.x + 31) / 32 ? warp_res[threadIdx.x] : identity;
        for (int o = 16; o; o >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, o));
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }
}
struct Sum { template <typename T> __device__ T operator()(T a, T b) const { return a + b; } };
struct Max { template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
struct Min { template <typename T> __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template __global__ void reduce_shfl<float, Sum>(const float *, float *, unsigned, float, Sum);
template __global__ void reduce_shfl<float, Max>(const float *, float *, unsigned, float, Max);
template __global__ void reduce_shfl<double, Sum>(const double *, double *, unsigned, double, Sum);
template __global__ void reduce_shfl<int, Min>(const int *, int *, unsigned, int, Min);
template __global__ void reduce_shfl<unsigned long long, Sum>(const unsigned long long *, unsigned long long *, unsigned, unsigned long long, Sum);

// Sync-count intrinsics as a reduction of predicates.
__global__ void count_positive(const float *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = i < n && in[i] > 0.f;
    int c = __syncthreads_count(p);
    int a = __syncthreads_and(p);
    int o = __syncthreads_or(p);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = c;
        out[3 * blockIdx.x + 1] = a;
        out[3 * blockIdx.x + 2] = o;
    }
}
