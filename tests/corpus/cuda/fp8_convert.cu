// FP8 (e4m3/e5m2), FP6 and FP4 conversions through cuda_fp8.h, cuda_fp6.h and
// cuda_fp4.h; native cvt instructions on sm_89+/sm_100a, emulation elsewhere.
// corpus-min: sm_89
// corpus-archs: sm_89 sm_90 sm_100a sm_120a
// corpus-G: sm_89
// corpus-lineinfo: sm_100a
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>

__global__ void quantize_fp8(const float *x, float scale, __nv_fp8_e4m3 *q4, __nv_fp8_e5m2 *q5, float *deq, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_fp8_e4m3 a(x[i] * scale);
    __nv_fp8_e5m2 b(x[i] * scale);
    q4[i] = a;
    q5[i] = b;
    deq[i] = (float(a) + float(b)) / (2.0f * scale);
}

__global__ void fp8x2_pack(const float2 *x, __nv_fp8x2_storage_t *e4, __nv_fp8x2_storage_t *e5, __half2 *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    e4[i] = __nv_cvt_float2_to_fp8x2(x[i], __NV_SATFINITE, __NV_E4M3);
    e5[i] = __nv_cvt_float2_to_fp8x2(x[i], __NV_NOSAT, __NV_E5M2);
    __half2_raw r = __nv_cvt_fp8x2_to_halfraw2(e4[i], __NV_E4M3);
    back[i] = __half2(r);
}

__global__ void fp8x4_vec(const float4 *x, __nv_fp8x4_e4m3 *o, float4 *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_fp8x4_e4m3 v(x[i]);
    o[i] = v;
    back[i] = float4(v);
}

__global__ void fp6_fp4(const float2 *x, __nv_fp6x2_storage_t *f6, __nv_fp4x2_storage_t *f4, float2 *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    f6[i] = __nv_cvt_float2_to_fp6x2(x[i], __NV_E2M3, cudaRoundNearest);
    f4[i] = __nv_cvt_float2_to_fp4x2(x[i], __NV_E2M1, cudaRoundNearest);
    __nv_fp4x2_e2m1 v(x[i]);
    back[i] = float2(v);
}

__global__ void e8m0_scale(const float *x, __nv_fp8_storage_t *s, float *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_fp8_e8m0 e(x[i]);
    s[i] = e.__x;
    back[i] = float(e);
}
