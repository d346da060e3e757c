// Single-precision math library and fast-math intrinsics.
// corpus-archs: auto:4
#include <cmath>

extern "C" __global__ void float_libm(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float a = fabsf(v) + 1e-3f;
    out[12 * i + 0] = sqrtf(a) + rsqrtf(a) + cbrtf(v);
    out[12 * i + 1] = expf(v) + exp2f(v) + exp10f(v) + expm1f(v);
    out[12 * i + 2] = logf(a) + log2f(a) + log10f(a) + log1pf(a);
    out[12 * i + 3] = sinf(v) + cosf(v) + tanf(v);
    out[12 * i + 4] = asinf(v * 0.5f) + acosf(v * 0.25f) + atanf(v) + atan2f(v, a);
    out[12 * i + 5] = sinhf(v) + coshf(v) + tanhf(v);
    out[12 * i + 6] = powf(a, v) + hypotf(v, a) + fmodf(v, a) + remainderf(v, a);
    out[12 * i + 7] = erff(v) + erfcf(v) + erfinvf(v * 0.1f);
    out[12 * i + 8] = floorf(v) + ceilf(v) + truncf(v) + roundf(v) + rintf(v) + nearbyintf(v);
    out[12 * i + 9] = fminf(v, a) + fmaxf(v, a) + fdimf(v, a) + copysignf(a, v);
    int e;
    float m = frexpf(v, &e);
    out[12 * i + 10] = ldexpf(m, e + 1) + scalbnf(v, 3) + (float)ilogbf(a) + logbf(a);
    out[12 * i + 11] = fmaf(v, a, 1.0f) + (isnan(v) ? 1.f : 0.f) + (isinf(v) ? 2.f : 0.f) + (signbit(v) ? 4.f : 0.f);
}

extern "C" __global__ void float_fast(const float *x, const float *y, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], w = y[i];
    float s, c;
    __sincosf(v, &s, &c);
    out[4 * i + 0] = __expf(v) + __exp10f(v) + __logf(fabsf(w)) + __log2f(fabsf(w)) + __log10f(fabsf(w));
    out[4 * i + 1] = __sinf(v) * __cosf(w) + __tanf(v) + s * c;
    out[4 * i + 2] = __fdividef(v, w) + __powf(fabsf(v), w) + __saturatef(v);
    out[4 * i + 3] = __frsqrt_rn(fabsf(w)) + __frcp_rn(w) + __fsqrt_rn(fabsf(v)) + __fdiv_rn(v, w);
}

// Softplus / GELU / SiLU activations over a vector, written the way ML code does.
extern "C" __global__ void activations(const float *x, float *gelu, float *silu, float *softplus, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    const float k0 = 0.7978845608028654f, k1 = 0.044715f;
    gelu[i] = 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
    silu[i] = v / (1.0f + __expf(-v));
    softplus[i] = v > 20.f ? v : log1pf(expf(v));
}

extern "C" __global__ void sincos_pi(const float *x, float2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s, c;
    sincospif(x[i], &s, &c);
    float s2, c2;
    sincosf(x[i], &s2, &c2);
    out[i] = make_float2(s + s2 + sinpif(x[i]), c + c2 + cospif(x[i]));
}
