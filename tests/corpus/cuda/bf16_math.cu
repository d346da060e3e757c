// bfloat16 (cuda_bf16.h): arithmetic, bf162 vectors, conversions, and a
// bf16 dot product with fp32 accumulation.
// corpus-min: sm_80
// corpus-archs: auto:4
#include <cuda_bf16.h>

__global__ void bf16_ops(const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = a[i], y = b[i];
    out[4 * i + 0] = __hadd(x, y) + __hmul(x, y);
    out[4 * i + 1] = __hfma(x, y, __float2bfloat16(1.0f));
    out[4 * i + 2] = __hmax(x, y) - __hmin(x, y) + __habs(x);
    out[4 * i + 3] = hexp(x) + hsqrt(__habs(y)) + __hdiv(x, y);
}

__global__ void bf162_ops(const __nv_bfloat162 *a, const __nv_bfloat162 *b, __nv_bfloat162 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat162 x = a[i], y = b[i];
    __nv_bfloat162 r = __hfma2(x, y, __hadd2(x, y));
    r = __hmax2(r, __hmul2(x, y));
    r = __hfma2_relu(r, x, y);
    out[i] = __hadd2(r, h2exp(x));
}

__global__ void bf16_convert(const float *f, __nv_bfloat16 *h, float *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 r0 = __float2bfloat16_rn(f[i]);
    __nv_bfloat16 r1 = __float2bfloat16_rz(f[i]);
    __nv_bfloat16 r2 = __float2bfloat16_ru(f[i]);
    __nv_bfloat16 r3 = __float2bfloat16_rd(f[i]);
    h[4 * i + 0] = r0; h[4 * i + 1] = r1; h[4 * i + 2] = r2; h[4 * i + 3] = r3;
    back[i] = __bfloat162float(r0) + __bfloat162float(r3) + (float)__bfloat162int_rn(r1) + __bfloat162float(__double2bfloat16((double)f[i]));
}

__global__ void bf16_dot(const __nv_bfloat162 *a, const __nv_bfloat162 *b, float *out, int n2)
{
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x) {
        float2 fa = __bfloat1622float2(a[i]);
        float2 fb = __bfloat1622float2(b[i]);
        acc = fmaf(fa.x, fb.x, fmaf(fa.y, fb.y, acc));
    }
    for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
}
