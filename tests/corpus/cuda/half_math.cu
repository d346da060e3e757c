// Half precision (cuda_fp16.h): scalar and half2 arithmetic, math functions,
// comparisons and conversions.
// corpus-archs: auto:4
#include <cuda_fp16.h>

__global__ void half_scalar(const __half *a, const __half *b, __half *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i], y = b[i];
    __half s = __hadd(x, y);
    __half p = __hmul(x, y);
    __half f = __hfma(x, y, s);
    __half d = __hdiv(x, y);
    __half m = __hmax(x, y);
    __half mn = __hmin_nan(x, y);
    __half r = __hfma_relu(x, y, p);
    out[8 * i + 0] = s;
    out[8 * i + 1] = __hsub_sat(p, f);
    out[8 * i + 2] = d;
    out[8 * i + 3] = __hadd(m, mn);
    out[8 * i + 4] = hsqrt(__habs(x)) + hexp(y) + hlog(__habs(x));
    out[8 * i + 5] = hsin(x) * hcos(y) + hrcp(y) + hrsqrt(__habs(y));
    out[8 * i + 6] = __hlt(x, y) ? r : __hneg(r);
    out[8 * i + 7] = hfloor(x) + hceil(y) + htrunc(x) + hrint(y);
    fout[2 * i + 0] = __half2float(x) + __low2float(__halves2half2(x, y));
    fout[2 * i + 1] = (float)__half2int_rn(x) + (float)__half2short_rz(y) + (float)__half2uint_rd(x) + __half2float(__int2half_rn(i));
}

__global__ void half2_vector(const __half2 *a, const __half2 *b, __half2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 x = a[i], y = b[i];
    __half2 r = __hfma2(x, y, __hadd2(x, y));
    r = __hmul2(r, __h2div(x, y));
    r = __hmax2(r, __hmin2(x, y));
    r = __hadd2(r, h2exp(x));
    r = __hadd2(r, h2sqrt(__habs2(y)));
    __half2 mask = __hgt2(x, y);
    r = __hfma2(mask, r, __lowhigh2highlow(x));
    r = __hadd2(r, __hcmadd(x, y, r));
    out[i] = __hfma2_relu(r, y, __float2half2_rn(0.5f));
}

__global__ void half_convert(const float *f, const float2 *f2, __half *h, __half2 *h2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    h[4 * i + 0] = __float2half_rn(f[i]);
    h[4 * i + 1] = __float2half_rz(f[i]);
    h[4 * i + 2] = __float2half_ru(f[i]);
    h[4 * i + 3] = __float2half_rd(f[i]) + __double2half((double)f[i]);
    h2[i] = __float22half2_rn(f2[i]);
}

// Mixed-precision AXPY: half storage, float accumulation.
__global__ void haxpy(int n, __half alpha, const __half *x, __half *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n / 2; i += gridDim.x * blockDim.x) {
        const __half2 *x2 = reinterpret_cast<const __half2 *>(x);
        __half2 *y2 = reinterpret_cast<__half2 *>(y);
        y2[i] = __hfma2(__half2half2(alpha), x2[i], y2[i]);
    }
}
