// Bitonic sort: shared-memory sort of a block, plus global merge steps;
// key-only and key-value versions.
// corpus-archs: auto:4

template <typename K>
__device__ __forceinline__ void cmp_swap(K &a, K &b, bool dir)
{
    if ((a > b) == dir) { K t = a; a = b; b = t; }
}

template <typename K, int N>
__global__ void bitonic_shared(K *data)
{
    __shared__ K s[N];
    K *d = data + (size_t)blockIdx.x * N;
    for (int i = threadIdx.x; i < N; i += blockDim.x) s[i] = d[i];
    __syncthreads();
    for (int size = 2; size <= N; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            for (int t = threadIdx.x; t < N / 2; t += blockDim.x) {
                int pos = 2 * t - (t & (stride - 1));
                bool dir = ((pos & size) == 0);
                cmp_swap(s[pos], s[pos + stride], dir);
            }
            __syncthreads();
        }
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x) d[i] = s[i];
}
template __global__ void bitonic_shared<int, 1024>(int *);
template __global__ void bitonic_shared<float, 2048>(float *);
template __global__ void bitonic_shared<unsigned long long, 512>(unsigned long long *);

extern "C" __global__ void bitonic_global_step(float *data, int j, int k, int n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ixj = i ^ j;
    if (i < (unsigned)n && ixj > i && ixj < (unsigned)n) {
        bool up = (i & k) == 0;
        float a = data[i], b = data[ixj];
        if ((a > b) == up) { data[i] = b; data[ixj] = a; }
    }
}

extern "C" __global__ void bitonic_kv_step(unsigned *keys, int *vals, int j, int k, int n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ixj = i ^ j;
    if (i < (unsigned)n && ixj > i && ixj < (unsigned)n) {
        bool up = (i & k) == 0;
        unsigned a = keys[i], b = keys[ixj];
        if ((a > b) == up) {
            keys[i] = b; keys[ixj] = a;
            int t = vals[i]; vals[i] = vals[ixj]; vals[ixj] = t;
        }
    }
}
