// Row-wise softmax and LayerNorm/RMSNorm as written in ML inference code:
// one warp or one block per row, online max/sum, float4 vector loads,
// half-precision I/O.
// corpus-archs: auto:4
#include <cuda_fp16.h>

__device__ __forceinline__ float warp_max(float v) { for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o)); return v; }
__device__ __forceinline__ float warp_sum(float v) { for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o); return v; }

extern "C" __global__ void softmax_warp_row(const float *x, float *y, int rows, int cols)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float *xr = x + (size_t)row * cols;
    float m = -INFINITY, s = 0.f;
    for (int c = lane; c < cols; c += 32) {
        float v = xr[c];
        float nm = fmaxf(m, v);
        s = s * __expf(m - nm) + __expf(v - nm);
        m = nm;
    }
    float gm = warp_max(m);
    s = warp_sum(s * __expf(m - gm));
    float inv = 1.f / s;
    for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = __expf(xr[c] - gm) * inv;
}

template <int BLOCK>
__global__ void layernorm_block(const float4 *x, float4 *y, const float4 *gamma, const float4 *beta, int cols4, float eps)
{
    __shared__ float red[2][BLOCK / 32];
    const float4 *xr = x + (size_t)blockIdx.x * cols4;
    float s = 0.f, ss = 0.f;
    for (int c = threadIdx.x; c < cols4; c += BLOCK) {
        float4 v = xr[c];
        s += v.x + v.y + v.z + v.w;
        ss += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    s = warp_sum(s); ss = warp_sum(ss);
    if ((threadIdx.x & 31) == 0) { red[0][threadIdx.x / 32] = s; red[1][threadIdx.x / 32] = ss; }
    __syncthreads();
    s = 0.f; ss = 0.f;
#pragma unroll
    for (int w = 0; w < BLOCK / 32; ++w) { s += red[0][w]; ss += red[1][w]; }
    float n = 4.f * cols4;
    float mean = s / n, var = ss / n - mean * mean;
    float rstd = rsqrtf(var + eps);
    for (int c = threadIdx.x; c < cols4; c += BLOCK) {
        float4 v = xr[c], g = gamma[c], b = beta[c];
        y[(size_t)blockIdx.x * cols4 + c] = make_float4((v.x - mean) * rstd * g.x + b.x, (v.y - mean) * rstd * g.y + b.y,
                                                        (v.z - mean) * rstd * g.z + b.z, (v.w - mean) * rstd * g.w + b.w);
    }
}
template __global__ void layernorm_block<128>(const float4 *, float4 *, const float4 *, const float4 *, int, float);
template __global__ void layernorm_block<256>(const float4 *, float4 *, const float4 *, const float4 *, int, float);

extern "C" __global__ void rmsnorm_half(const __half *x, __half *y, const __half *w, int cols, float eps)
{
    int row = blockIdx.x;
    const __half2 *xr = reinterpret_cast<const __half2 *>(x + (size_t)row * cols);
    __shared__ float part[32];
    float ss = 0.f;
    for (int c = threadIdx.x; c < cols / 2; c += blockDim.x) {
        float2 v = __half22float2(xr[c]);
        ss += v.x * v.x + v.y * v.y;
    }
    ss = warp_sum(ss);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = ss;
    __syncthreads();
    if (threadIdx.x < 32) {
        ss = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.f;
        ss = warp_sum(ss);
        if (threadIdx.x == 0) part[0] = rsqrtf(ss / cols + eps);
    }
    __syncthreads();
    float r = part[0];
    __half2 *yr = reinterpret_cast<__half2 *>(y + (size_t)row * cols);
    const __half2 *w2 = reinterpret_cast<const __half2 *>(w);
    for (int c = threadIdx.x; c < cols / 2; c += blockDim.x) yr[c] = __hmul2(__float2half2_rn(r), __hmul2(xr[c], w2[c]));
}
