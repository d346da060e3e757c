// Warp shuffles: __shfl_sync/up/down/xor with widths, 64-bit and struct
// shuffles, and templated warp reductions.
// corpus-archs: auto:4

template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

template <typename T>
__device__ __forceinline__ T warp_max_down(T v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, o));
    return __shfl_sync(0xffffffffu, v, 0);
}

template <typename T>
__global__ void warp_reduce(const T *in, T *sums, T *maxs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v = i < n ? in[i] : T(0);
    T s = warp_sum(v);
    T m = warp_max_down(v);
    if ((threadIdx.x & 31) == 0) {
        sums[i / 32] = s;
        maxs[i / 32] = m;
    }
}
template __global__ void warp_reduce<int>(const int *, int *, int *, int);
template __global__ void warp_reduce<unsigned>(const unsigned *, unsigned *, unsigned *, int);
template __global__ void warp_reduce<float>(const float *, float *, float *, int);
template __global__ void warp_reduce<double>(const double *, double *, double *, int);
template __global__ void warp_reduce<long long>(const long long *, long long *, long long *, int);

__global__ void shuffle_widths(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    float a = __shfl_sync(0xffffffffu, v, 3, 8);      // broadcast within groups of 8
    float b = __shfl_up_sync(0xffffffffu, v, 1, 16);  // shift within 16
    float c = __shfl_down_sync(0xffffffffu, v, 2, 4); // shift within 4
    float d = __shfl_xor_sync(0xffffffffu, v, 1, 2);
    int lane = threadIdx.x & 31;
    float e = __shfl_sync(0xffffffffu, v, 31 - lane); // reverse
    if (i < n) out[i] = a + b + c + d + e;
}

struct Particle { float x, y, z; int id; };

__global__ void shuffle_struct(const Particle *p, Particle *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Particle q = i < n ? p[i] : Particle{0, 0, 0, -1};
    int src = (threadIdx.x + 1) & 31;
    Particle r;
    r.x = __shfl_sync(0xffffffffu, q.x, src);
    r.y = __shfl_sync(0xffffffffu, q.y, src);
    r.z = __shfl_sync(0xffffffffu, q.z, src);
    r.id = __shfl_sync(0xffffffffu, q.id, src);
    if (i < n) out[i] = r;
}

// Partial-warp shuffle with a computed member mask.
__global__ void partial_mask(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffffu, i < n);
    if (i < n) {
        int v = in[i];
        int leader = __ffs(mask) - 1;
        int first = __shfl_sync(mask, v, leader);
        unsigned long long w = ((unsigned long long)v << 32) | (unsigned)i;
        w = __shfl_xor_sync(mask, w, 1);
        out[i] = first + (int)(w >> 32);
    }
}
