// Dynamic (extern) shared memory: typed views over one buffer, 1D and 2D
// stencils with halos, and a templated block-local sort buffer.
// corpus-archs: auto:4

template <typename T>
struct SharedMem {
    __device__ T *get()
    {
        extern __shared__ __align__(16) unsigned char smem_raw[];
        return reinterpret_cast<T *>(smem_raw);
    }
};

template <typename T, int R>
__global__ void stencil1d(const T *in, T *out, int n, const T *weights)
{
    T *s = SharedMem<T>().get();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + R;
    s[l] = g < n ? in[g] : T(0);
    if (threadIdx.x < R) {
        s[l - R] = g >= R ? in[g - R] : T(0);
        s[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : T(0);
    }
    __syncthreads();
    T acc = T(0);
#pragma unroll
    for (int k = -R; k <= R; ++k) acc += weights[k + R] * s[l + k];
    if (g < n) out[g] = acc;
}
template __global__ void stencil1d<float, 3>(const float *, float *, int, const float *);
template __global__ void stencil1d<double, 4>(const double *, double *, int, const double *);
template __global__ void stencil1d<int, 1>(const int *, int *, int, const int *);

extern "C" __global__ void stencil2d_5pt(const float *in, float *out, int w, int h)
{
    extern __shared__ float tile[]; // (blockDim.y+2) * (blockDim.x+2)
    int pitch = blockDim.x + 2;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    auto at = [&](int xx, int yy) { xx = min(max(xx, 0), w - 1); yy = min(max(yy, 0), h - 1); return in[yy * w + xx]; };
    tile[(threadIdx.y + 1) * pitch + threadIdx.x + 1] = at(x, y);
    if (threadIdx.x == 0) tile[(threadIdx.y + 1) * pitch] = at(x - 1, y);
    if (threadIdx.x == blockDim.x - 1) tile[(threadIdx.y + 1) * pitch + threadIdx.x + 2] = at(x + 1, y);
    if (threadIdx.y == 0) tile[threadIdx.x + 1] = at(x, y - 1);
    if (threadIdx.y == blockDim.y - 1) tile[(threadIdx.y + 2) * pitch + threadIdx.x + 1] = at(x, y + 1);
    __syncthreads();
    if (x < w && y < h) {
        int c = (threadIdx.y + 1) * pitch + threadIdx.x + 1;
        out[y * w + x] = 0.2f * (tile[c] + tile[c - 1] + tile[c + 1] + tile[c - pitch] + tile[c + pitch]);
    }
}

// Two differently-typed arrays carved out of the same dynamic allocation.
extern "C" __global__ void mixed_views(const int *keys, const double *vals, double *out, int n)
{
    extern __shared__ __align__(8) unsigned char raw[];
    double *sv = reinterpret_cast<double *>(raw);
    int *sk = reinterpret_cast<int *>(sv + blockDim.x);
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    sk[threadIdx.x] = g < n ? keys[g] : 0;
    sv[threadIdx.x] = g < n ? vals[g] : 0.0;
    __syncthreads();
    double acc = 0.0;
    for (unsigned k = 0; k < blockDim.x; ++k)
        if (sk[k] == sk[threadIdx.x]) acc += sv[k];
    if (g < n) out[g] = acc;
}
