// Heavily templated element-wise / reduction kernels: one template over
// element type x operation x vector width x unroll, explicitly instantiated
// into well over a hundred C++-mangled entry points. This is the large
// (~1 MB) module of the corpus, used as a parse-speed benchmark.
// corpus-archs: sm_80 sm_120
// corpus-G: none
// corpus-lineinfo: none
#include <cstdint>
#include <cuda_fp16.h>

namespace ops {
struct Add { template <typename T> __device__ static T apply(T a, T b) { return a + b; } };
struct Mul { template <typename T> __device__ static T apply(T a, T b) { return a * b; } };
struct Max { template <typename T> __device__ static T apply(T a, T b) { return a > b ? a : b; } };
struct Min { template <typename T> __device__ static T apply(T a, T b) { return a < b ? a : b; } };
struct AbsDiff { template <typename T> __device__ static T apply(T a, T b) { return a > b ? a - b : b - a; } };
struct Fma3 { template <typename T> __device__ static T apply(T a, T b) { return a * b + a; } };
} // namespace ops

template <typename T, int N>
struct alignas(sizeof(T) * N) Vec {
    T v[N];
};

template <typename T, typename Op, int VEC, int UNROLL>
__global__ void __launch_bounds__(256) binary_vec(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c, size_t n)
{
    using V = Vec<T, VEC>;
    size_t nv = n / VEC;
    size_t stride = (size_t)gridDim.x * blockDim.x * UNROLL;
    for (size_t base = (size_t)blockIdx.x * blockDim.x * UNROLL + threadIdx.x; base < nv; base += stride) {
        V va[UNROLL], vb[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            size_t i = base + (size_t)u * blockDim.x;
            if (i < nv) {
                va[u] = reinterpret_cast<const V *>(a)[i];
                vb[u] = reinterpret_cast<const V *>(b)[i];
            }
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            size_t i = base + (size_t)u * blockDim.x;
            if (i < nv) {
                V r;
#pragma unroll
                for (int k = 0; k < VEC; ++k) r.v[k] = Op::apply(va[u].v[k], vb[u].v[k]);
                reinterpret_cast<V *>(c)[i] = r;
            }
        }
    }
    // scalar tail
    size_t t = nv * VEC + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) c[t] = Op::apply(a[t], b[t]);
}

template <typename T, typename Op, int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_op(const T *__restrict__ in, T *__restrict__ out, size_t n, T init)
{
    __shared__ T sh[BLOCK];
    T acc = init;
    for (size_t i = (size_t)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK) acc = Op::apply(acc, in[i]);
    sh[threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] = Op::apply(sh[threadIdx.x], sh[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}

template <typename Tin, typename Tout>
__global__ void convert(const Tin *in, Tout *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = static_cast<Tout>(in[i]);
}

#define INST_BIN(T, OP)                                                                             \
    template __global__ void binary_vec<T, ops::OP, 1, 1>(const T *, const T *, T *, size_t);     \
    template __global__ void binary_vec<T, ops::OP, 2, 2>(const T *, const T *, T *, size_t);     \
    template __global__ void binary_vec<T, ops::OP, 4, 4>(const T *, const T *, T *, size_t);     \
    template __global__ void reduce_op<T, ops::OP, 128>(const T *, T *, size_t, T);                \
    template __global__ void reduce_op<T, ops::OP, 512>(const T *, T *, size_t, T);

#define INST_TYPE(T) INST_BIN(T, Add) INST_BIN(T, Mul) INST_BIN(T, Max) INST_BIN(T, Min) INST_BIN(T, AbsDiff) INST_BIN(T, Fma3)

INST_TYPE(float)
INST_TYPE(double)
INST_TYPE(int32_t)
INST_TYPE(uint32_t)
INST_TYPE(int64_t)
INST_TYPE(uint64_t)
INST_TYPE(int16_t)
INST_TYPE(uint8_t)

#define INST_CONV(A, B) template __global__ void convert<A, B>(const A *, B *, size_t);
#define INST_CONV_FROM(A) INST_CONV(A, float) INST_CONV(A, double) INST_CONV(A, int32_t) INST_CONV(A, uint32_t) INST_CONV(A, int64_t) INST_CONV(A, uint64_t) INST_CONV(A, int16_t) INST_CONV(A, uint8_t)
INST_CONV_FROM(float)
INST_CONV_FROM(double)
INST_CONV_FROM(int32_t)
INST_CONV_FROM(uint32_t)
INST_CONV_FROM(int64_t)
INST_CONV_FROM(uint64_t)
INST_CONV_FROM(int16_t)
INST_CONV_FROM(uint8_t)
